// The rate limiters count in fixed one-minute windows aligned to the clock (Upstash's sliding window, which the
// in-process store copies: lib/auth/ratelimit.ts), and weigh the previous window's count by the time left in it,
// rounded down. Just past a window's end that weight drops below the count, so a budget spent a moment before admits
// one more request: exactly what a limiter of this kind does, and not what a test that counts to a limit expects.
// So a test that counts exact admissions holds the limiter's clock, and waits for nothing (docs/testing.md "Waiting
// in tests"): in its own process with `inOneWindow`, on a test server with `HELD_LIMITER_CLOCK`. A shared store
// counts on its own clock, and a deployment's settings refuse the held one: `burstInOneWindow` covers that case.
import { holdLimiterClock } from "@/lib/auth/ratelimit";

/** A test server's env: its in-process limiter's clock stands still at its start (RATE_LIMIT_CLOCK_HELD, lib/env.ts). */
export const HELD_LIMITER_CLOCK = { RATE_LIMIT_CLOCK_HELD: "1" } as const;

/**
 * For a limiter in the test's own process: runs `work` with the limiter's clock held where it is (everything else
 * runs on), so every request it makes falls in one limiter window, with no wait for a window to begin.
 */
export async function inOneWindow<T>(work: () => Promise<T>): Promise<T> {
  holdLimiterClock(Date.now());
  try {
    return await work();
  } finally {
    holdLimiterClock(null);
  }
}

/**
 * For a limiter whose clock the test cannot hold (a shared store behind servers with a deployment's settings): runs
 * `burst` and, if its answers name two windows (X-RateLimit-Reset) because it straddled a window's edge, runs it once
 * more at once: the next edge is then a whole window away. `burst` must spend a fresh budget each time (a new key).
 */
export async function burstInOneWindow(burst: () => Promise<Response[]>): Promise<Response[]> {
  for (let attempt = 1; ; attempt++) {
    const responses = await burst();
    const windows = new Set(responses.map((r) => r.headers.get("x-ratelimit-reset")));
    if (windows.has(null)) throw new Error("an answer in the burst carries no X-RateLimit-Reset");
    if (windows.size === 1) return responses;
    if (attempt === 2) throw new Error(`two bursts in a row straddled a window's edge: ${[...windows].join(", ")}`);
  }
}
