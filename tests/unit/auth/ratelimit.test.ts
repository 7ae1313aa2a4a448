import { Ratelimit } from "@upstash/ratelimit";
import { Redis } from "@upstash/redis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { consume, holdLimiterClock, MemorySlidingWindow, rateLimitHeaders, retryAfterSeconds, WINDOW_MS } from "@/lib/auth/ratelimit";
import { startUpstashShim, type UpstashShim } from "@/sim/upstash/server";
import { redisAvailable } from "../../helpers/services";

describe("in-process sliding window", () => {
  it("lets exactly the limit through on a fresh key, then refuses", () => {
    const limiter = new MemorySlidingWindow(60_000);
    const t = 1_000_000 * 60_000 + 5_000;
    const results = Array.from({ length: 30 }, () => limiter.limit("k", 20, t));
    expect(results.filter((r) => r.success)).toHaveLength(20);
    expect(results[19]).toMatchObject({ success: true, remaining: 0 });
    expect(results[20]).toMatchObject({ success: false, remaining: 0, reset: (1_000_000 + 1) * 60_000 });
    expect(results.slice(0, 3).map((r) => r.remaining)).toEqual([19, 18, 17]);
  });

  it("weights the previous window by its overlap with the sliding window", () => {
    const limiter = new MemorySlidingWindow(60_000);
    const start = 500 * 60_000;
    for (let i = 0; i < 10; i++) expect(limiter.limit("k", 10, start + 1000).success).toBe(true);
    // 15 s into the next window, 75% of the previous 10 still count: floor(7.5) = 7, so 3 more pass.
    const next = start + 60_000 + 15_000;
    const passed = Array.from({ length: 5 }, () => limiter.limit("k", 10, next).success).filter(Boolean).length;
    expect(passed).toBe(3);
    // Two windows later nothing of the burst counts any more.
    expect(limiter.limit("k", 10, start + 180_000).remaining).toBe(9);
  });

  it("keeps identifiers apart", () => {
    const limiter = new MemorySlidingWindow(60_000);
    expect(limiter.limit("a", 1, 0).success).toBe(true);
    expect(limiter.limit("a", 1, 1).success).toBe(false);
    expect(limiter.limit("b", 1, 2).success).toBe(true);
  });
});

describe("the in-process limiter's clock", () => {
  afterEach(() => holdLimiterClock(null));
  // A window's edge some way ahead of the wall clock, and a fresh identifier for each test.
  const edge = (Math.floor(Date.now() / WINDOW_MS) + 100) * WINDOW_MS;
  const fresh = () => `key:clock-${Math.random()}`;

  it("moving across a window's edge, a spent budget admits one more: why a counting test holds the clock", async () => {
    const id = fresh();
    holdLimiterClock(edge - 1);
    for (let i = 0; i < 5; i++) expect((await consume(id, 5)).success).toBe(true);
    expect((await consume(id, 5)).success).toBe(false);
    // 1 ms into the next window the previous count weighs floor(4.9999) = 4.
    holdLimiterClock(edge + 1);
    expect((await consume(id, 5)).success).toBe(true);
    expect((await consume(id, 5)).success).toBe(false);
  });

  it("held, counts every request in one window and announces the time that window had left on the wall clock", async () => {
    const id = fresh();
    holdLimiterClock(edge - 1000);
    const before = Date.now();
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await consume(id, 5));
    expect(results.map((r) => r.success)).toEqual([true, true, true, true, true, false]);
    expect(results[5]).toMatchObject({ remaining: 0, store: "memory" });
    // The window had 1 s left where the clock stands, and still has: Retry-After stays true on the wall clock.
    expect(results[5].reset - before).toBeGreaterThanOrEqual(1000);
    expect(results[5].reset - Date.now()).toBeLessThanOrEqual(1000);
    expect(retryAfterSeconds(results[5].reset)).toBe(1);
    // The limiter reads the held clock, not the wall's: two windows on, the budget is whole again.
    holdLimiterClock(edge + 2 * WINDOW_MS);
    expect(await consume(id, 5)).toMatchObject({ success: true, remaining: 4 });
  });

  it("released, reads the wall clock: the reset is the current window's end", async () => {
    const windowEnd = (t: number) => (Math.floor(t / WINDOW_MS) + 1) * WINDOW_MS;
    const before = Date.now();
    const result = await consume(fresh(), 5);
    expect([windowEnd(before), windowEnd(Date.now())]).toContain(result.reset);
  });
});

describe("rate-limit headers", () => {
  it("emits the legacy X- set and the IETF draft pair, with Reset in Unix seconds", () => {
    const now = 1_700_000_000_000;
    const headers = rateLimitHeaders({ limit: 300, remaining: 299, reset: now + 42_500 }, "starter", now);
    expect(headers).toEqual({
      "X-Api-Tier": "starter",
      "X-RateLimit-Limit": "300",
      "X-RateLimit-Remaining": "299",
      "X-RateLimit-Reset": String(Math.ceil((now + 42_500) / 1000)),
      "RateLimit-Policy": '"apikey";q=300;w=60',
      RateLimit: '"apikey";r=299;t=43',
    });
  });

  it("Retry-After is whole seconds and at least 1", () => {
    expect(retryAfterSeconds(1000, 1000)).toBe(1);
    expect(retryAfterSeconds(1000, 5000)).toBe(1);
    expect(retryAfterSeconds(10_100, 1000)).toBe(10);
  });
});

describe.runIf(await redisAvailable())("same semantics as @upstash/ratelimit over real Redis", () => {
  let shim: UpstashShim;
  beforeAll(async () => {
    shim = await startUpstashShim();
  });
  afterAll(() => shim?.close());

  it("through the Upstash REST protocol (shim over Redis): exactly the limit passes", async () => {
    const redis = new Redis({ url: shim.url, token: shim.token, enableTelemetry: false });
    const limiter = new Ratelimit({ redis, limiter: Ratelimit.slidingWindow(20, "60 s"), prefix: `test:${Date.now()}:${Math.random()}` });
    const results = await Promise.all(Array.from({ length: 50 }, () => limiter.limit("key")));
    expect(results.filter((r) => r.success)).toHaveLength(20);
    const memory = new MemorySlidingWindow(60_000);
    const now = Date.now();
    const local = Array.from({ length: 50 }, () => memory.limit("key", 20, now));
    expect(local.filter((r) => r.success)).toHaveLength(20);
    expect(results[0].reset).toBe(local[0].reset);
  });

  it("rejects a wrong token", async () => {
    const res = await fetch(shim.url, { method: "POST", headers: { authorization: "Bearer nope" }, body: '["PING"]' });
    expect(res.status).toBe(401);
  });
});
