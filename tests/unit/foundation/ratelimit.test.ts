import { Ratelimit } from "@upstash/ratelimit";
import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemorySlidingWindow, rateLimitHeaders, retryAfterSeconds } from "@/lib/auth/ratelimit";
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
