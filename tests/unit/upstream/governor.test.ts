// The upstream governor (lib/upstream/governor.ts): Polymarket's documented limits, queueing instead of bursting.
import { afterEach, describe, expect, it, vi } from "vitest";
import { Throttle } from "@/sim/polymarket/throttle";
import { acquireSlot, budgetOf, DOCUMENTED_LIMITS, governorPeaks, limitsFor, WINDOW_MS } from "@/lib/upstream/governor";

const timeout = () => new Error("deadline");

afterEach(() => {
  vi.useRealTimers();
  delete (globalThis as { __predmktGovernor?: unknown }).__predmktGovernor;
});

describe("the governor's table", () => {
  it("maps a request to its host's budget and its endpoint's, v2 paths under their v1 endpoint", () => {
    const names = (host: "gamma" | "data" | "clob", path: string) =>
      limitsFor(host, path).map((l) => `${l.host}${l.path ?? ""}:${l.per10s}`);
    expect(names("data", "/positions")).toEqual(["data:1000", "data/positions:150"]);
    expect(names("data", "/v2/trades")).toEqual(["data:1000", "data/trades:200"]);
    expect(names("data", "/v2/holders")).toEqual(["data:1000"]);
    expect(names("gamma", "/events/keyset")).toEqual(["gamma:4000", "gamma/events:500"]);
    expect(names("gamma", "/markets/123")).toEqual(["gamma:4000", "gamma/markets:300"]);
    expect(names("clob", "/prices-history")).toEqual(["clob:9000", "clob/prices-history:1000"]);
    // Every budget stays below its documented limit.
    for (const l of DOCUMENTED_LIMITS) expect(budgetOf(l)).toBeLessThan(l.per10s);
  });
});

describe("queueing", () => {
  it("admits a budget's worth at once, then queues the rest until the window has room", async () => {
    vi.useFakeTimers({ now: Date.parse("2026-11-24T00:00:00Z"), toFake: ["Date", "setTimeout"] });
    const budget = budgetOf(limitsFor("data", "/positions")[1]);
    const deadline = Date.now() + 60_000;
    const admitted: number[] = [];
    const all = Array.from({ length: budget + 10 }, () =>
      acquireSlot("data", "/positions", deadline, timeout).then(() => admitted.push(Date.now())),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(admitted).toHaveLength(budget);
    await vi.advanceTimersByTimeAsync(WINDOW_MS - 1);
    expect(admitted).toHaveLength(budget);
    await vi.advanceTimersByTimeAsync(2);
    await Promise.all(all);
    expect(admitted).toHaveLength(budget + 10);
    // Never more than the budget in any window.
    for (let i = budget; i < admitted.length; i++) expect(admitted[i] - admitted[i - budget]).toBeGreaterThanOrEqual(WINDOW_MS);
    expect(governorPeaks().find((p) => p.scope === "data/positions")).toEqual({
      scope: "data/positions",
      peak: budget,
      budget,
      documented: 150,
    });
  });

  it("refuses a wait that would pass the caller's deadline", async () => {
    vi.useFakeTimers({ now: Date.parse("2026-11-24T00:00:00Z"), toFake: ["Date", "setTimeout"] });
    const budget = budgetOf(limitsFor("data", "/positions")[1]);
    await Promise.all(Array.from({ length: budget }, () => acquireSlot("data", "/positions", Date.now() + 60_000, timeout)));
    await expect(acquireSlot("data", "/positions", Date.now() + 1000, timeout)).rejects.toThrow("deadline");
    // Another host is not held up by this one's queue.
    await expect(acquireSlot("gamma", "/events/keyset", Date.now() + 1000, timeout)).resolves.toBeUndefined();
  });
});

describe("delaying, not refusing, beyond the documented limit", () => {
  it("admits twice the documented /positions limit in one burst, every request delayed into a later window, none refused", async () => {
    vi.useFakeTimers({ now: Date.parse("2026-11-24T00:00:00Z"), toFake: ["Date", "setTimeout"] });
    const [, positions] = limitsFor("data", "/positions");
    const budget = budgetOf(positions);
    const burst = 2 * positions.per10s; // 300: more than the documented 150 per 10 s
    const start = Date.now();
    const deadline = start + 60_000;
    const admitted: number[] = [];
    let refused = 0;
    const all = Array.from({ length: burst }, () =>
      acquireSlot("data", "/positions", deadline, timeout).then(
        () => void admitted.push(Date.now() - start),
        () => void refused++,
      ),
    );
    // The simulator's Cloudflare throttle at the documented limits (sim/polymarket/throttle.ts) sees each admitted
    // request at its admission time, on the same clock: it must never have to delay or refuse one.
    const cloudflare = new Throttle();
    let seen = 0;
    const feed = () => {
      for (; seen < admitted.length; seen++) {
        const answer = cloudflare.admit("data", "/positions", start + admitted[seen]);
        expect(answer).toEqual({ delayMs: 0 });
      }
    };
    for (let window = 0; window <= Math.ceil(burst / budget); window++) {
      await vi.advanceTimersByTimeAsync(window === 0 ? 0 : WINDOW_MS);
      feed();
    }
    await Promise.all(all);
    feed();
    expect(refused).toBe(0);
    expect(admitted).toHaveLength(burst);
    // Budget-sized groups, one window apart: 120 at once, the next 120 a window later, the last 60 a window after.
    const groups = new Map<number, number>();
    for (const at of admitted) groups.set(Math.floor(at / WINDOW_MS), (groups.get(Math.floor(at / WINDOW_MS)) ?? 0) + 1);
    expect([...groups.entries()].sort(([a], [b]) => a - b)).toEqual([
      [0, budget],
      [1, budget],
      [2, burst - 2 * budget],
    ]);
    expect(cloudflare.stats()).toEqual({
      peak: { "/data": { peak: budget, limit: 1000 }, "/data/positions": { peak: budget, limit: 150 } },
      delayed: 0,
      refused: 0,
    });
  });

  it("without the governor, the same burst meets the simulator's throttle: delayed, then refused with 429", () => {
    // The contrast that makes the test above mean something: sim/polymarket/throttle.ts delays what is over the
    // documented limit up to MAX_DELAY_MS and refuses the rest, as Cloudflare does in front of Polymarket.
    const cloudflare = new Throttle();
    const now = Date.parse("2026-11-24T00:00:00Z");
    const answers = Array.from({ length: 300 }, (_, i) => cloudflare.admit("data", "/positions", now + i));
    expect(answers.filter((a) => "retryAfterS" in a).length).toBeGreaterThan(0);
    expect(cloudflare.stats().delayed + cloudflare.stats().refused).toBe(300 - 150);
  });
});

describe("the shared window through a real Redis (REDIS_URL, lib/kv/redis.ts)", async () => {
  const { redisAvailable, REDIS_URL } = await import("../../helpers/services");
  const available = await redisAvailable();

  it.skipIf(!available)("a second instance sees the first one's spend: it waits for the window to move, and is then admitted", async () => {
    const { env } = await import("@/lib/env");
    const { closeKv, getRedis } = await import("@/lib/kv/redis");
    const previous = env.REDIS_URL;
    await closeKv();
    env.REDIS_URL = REDIS_URL;
    // Only the clock is fake (the Redis client keeps its real timers): a second of its own, never shared with
    // another test run, since the shared buckets are keyed by the second.
    const t0 = Date.parse("2001-01-01T00:00:00Z") + (process.pid % 100_000) * 60_000 + Math.floor(Math.random() * 50) * 1000;
    vi.useFakeTimers({ now: t0 + 100, toFake: ["Date"] });
    const second = Math.floor(Date.now() / 1000);
    const keys = [`predmkt:governor:v1:data:${second}`, `predmkt:governor:v1:data/positions:${second}`];
    try {
      const redis = getRedis()!;
      const budget = budgetOf(limitsFor("data", "/positions")[1]);
      // Instance A spends the whole /positions budget.
      for (let i = 0; i < budget; i++) await acquireSlot("data", "/positions", Date.now() + 60_000, timeout);
      expect(Number(await redis.get(keys[1]))).toBe(budget);
      // Instance B: a fresh process (no local window). Its own count is empty, the shared one is not: with a
      // deadline shorter than the wait it is refused, and what it took in the store is given back.
      delete (globalThis as { __predmktGovernor?: unknown }).__predmktGovernor;
      await expect(acquireSlot("data", "/positions", Date.now() + 50, timeout)).rejects.toThrow("deadline");
      expect(Number(await redis.get(keys[1]))).toBe(budget);
      // With time to wait, B queues; once the window has moved past A's second it is admitted, not refused.
      let admittedAt: number | null = null;
      const decr = vi.spyOn(redis, "decr");
      const waiting = acquireSlot("data", "/positions", Date.now() + 60_000, timeout).then(() => (admittedAt = Date.now()));
      // B has asked the store and been told to wait: its two increments (host, endpoint) were given back.
      await vi.waitFor(() => expect(decr).toHaveBeenCalledTimes(2));
      expect(Number(await redis.get(keys[1]))).toBe(budget);
      expect(admittedAt).toBeNull();
      vi.setSystemTime(t0 + WINDOW_MS + 1000);
      await waiting;
      expect(admittedAt).toBeGreaterThanOrEqual(t0 + WINDOW_MS);
      const later = `predmkt:governor:v1:data/positions:${Math.floor(admittedAt! / 1000)}`;
      keys.push(later, `predmkt:governor:v1:data:${Math.floor(admittedAt! / 1000)}`);
      expect(Number(await redis.get(later))).toBe(1);
    } finally {
      vi.restoreAllMocks();
      await getRedis()?.del(...keys);
      vi.useRealTimers();
      await closeKv();
      env.REDIS_URL = previous;
    }
  });
});
