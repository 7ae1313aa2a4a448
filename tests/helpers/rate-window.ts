// The rate limiters count in fixed one-minute windows aligned to the clock (Upstash's sliding window, which the
// in-process store copies: lib/auth/ratelimit.ts), and weigh the previous window's count by the time left in it,
// rounded down. Just past a window's end that weight drops below the count, so a budget spent a moment before admits
// one more request: exactly what a limiter of this kind does, and not what a test that counts to a limit expects.
// A test that counts exact admissions first waits until the current window has room for the whole test; a test whose
// limiter runs in its own process holds the clock instead, and waits for nothing.
import { vi } from "vitest";
import { WINDOW_MS } from "@/lib/auth/ratelimit";

/** Resolves at once when at least `needMs` of the current limiter window is left, else just after the next starts. */
export async function clearOfWindowEdge(needMs = 20_000): Promise<void> {
  const intoWindow = Date.now() % WINDOW_MS;
  if (WINDOW_MS - intoWindow >= needMs) return;
  await new Promise((resolve) => setTimeout(resolve, WINDOW_MS - intoWindow + 50));
}

/**
 * For a limiter in the test's own process: runs `work` with the clock held where it is (Date only; timers and I/O run
 * on), so every request it makes falls in one limiter window, with no wait for a window to begin.
 */
export async function inOneWindow<T>(work: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
  try {
    return await work();
  } finally {
    vi.useRealTimers();
  }
}
