// The TTL cache behind the live endpoints: hit/miss/stale, ages and remaining TTL, coalescing, the 10-minute stale
// window, and the shared KV layer (a fake with Upstash's get/set/del semantics) including its failure fallback.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/api/errors";
import { cachedLoad, clearLocalCache, kvKeyFor, LOCAL_MAX_ENTRIES, STALE_MAX_AGE_S } from "@/lib/upstream/cache";

class FakeKv {
  store = new Map<string, { value: string; expiresAt: number }>();
  calls: string[] = [];
  async get<T>(key: string): Promise<T | null> {
    this.calls.push(`get ${key}`);
    const hit = this.store.get(key);
    if (!hit || hit.expiresAt <= Date.now()) return null;
    return JSON.parse(hit.value) as T;
  }
  async set(key: string, value: unknown, opts: { nx?: boolean; px?: number } = {}): Promise<"OK" | null> {
    this.calls.push(`set ${key}`);
    const existing = this.store.get(key);
    if (opts.nx && existing && existing.expiresAt > Date.now()) return null;
    this.store.set(key, { value: JSON.stringify(value), expiresAt: Date.now() + (opts.px ?? 1e9) });
    return "OK";
  }
  async del(key: string): Promise<number> {
    this.calls.push(`del ${key}`);
    return this.store.delete(key) ? 1 : 0;
  }
}

const brokenKv = {
  get: async () => {
    throw new Error("KV down");
  },
  set: async () => {
    throw new Error("KV down");
  },
  del: async () => {
    throw new Error("KV down");
  },
};

const upstreamDown = () => Promise.reject(new ApiError("upstream_unavailable", "down"));

beforeEach(() => {
  clearLocalCache();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
});
afterEach(() => vi.useRealTimers());

describe("cachedLoad (in-process)", () => {
  it("misses, then hits with the body's age and remaining TTL, then reloads after the TTL", async () => {
    let loads = 0;
    const load = async () => ++loads;
    const first = await cachedLoad("k1", { ttlS: 60, kv: null }, load);
    expect(first).toMatchObject({ value: 1, cache: "miss", ageS: 0, ttlRemainingS: 60 });
    vi.setSystemTime(Date.now() + 25_000);
    const second = await cachedLoad("k1", { ttlS: 60, kv: null }, load);
    expect(second).toMatchObject({ value: 1, cache: "hit", ageS: 25, ttlRemainingS: 35, fetchedAt: first.fetchedAt });
    vi.setSystemTime(Date.now() + 35_000);
    const third = await cachedLoad("k1", { ttlS: 60, kv: null }, load);
    expect(third).toMatchObject({ value: 2, cache: "miss" });
  });

  it("runs the loader once for 50 concurrent callers of one key, and once per distinct key", async () => {
    let loads = 0;
    const load = async () => {
      loads++;
      await new Promise((r) => setTimeout(r, 20));
      return "body";
    };
    const results = await Promise.all(Array.from({ length: 50 }, () => cachedLoad("same", { ttlS: 10, kv: null }, load)));
    expect(loads).toBe(1);
    expect(results.every((r) => r.value === "body")).toBe(true);
    await Promise.all([cachedLoad("a", { ttlS: 10, kv: null }, load), cachedLoad("b", { ttlS: 10, kv: null }, load)]);
    expect(loads).toBe(3);
  });

  it("serves the last good body as stale when the upstream fails, for up to 10 minutes", async () => {
    await cachedLoad("k2", { ttlS: 10, kv: null }, async () => "good");
    vi.setSystemTime(Date.now() + 11_000);
    const stale = await cachedLoad("k2", { ttlS: 10, kv: null }, upstreamDown);
    expect(stale).toMatchObject({ value: "good", cache: "stale", ageS: 11, ttlRemainingS: 0 });
    vi.setSystemTime(Date.now() + (STALE_MAX_AGE_S - 11) * 1000 + 1_000);
    await expect(cachedLoad("k2", { ttlS: 10, kv: null }, upstreamDown)).rejects.toMatchObject({ code: "upstream_unavailable" });
  });

  it("does not hide a 404 behind a stale body", async () => {
    await cachedLoad("k3", { ttlS: 10, kv: null }, async () => "was there");
    vi.setSystemTime(Date.now() + 11_000);
    await expect(cachedLoad("k3", { ttlS: 10, kv: null }, () => Promise.reject(new ApiError("not_found", "gone")))).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("keeps at most LOCAL_MAX_ENTRIES bodies, the least recently read out first", async () => {
    const loads = new Map<string, number>();
    const load = (key: string) => () => {
      loads.set(key, (loads.get(key) ?? 0) + 1);
      return Promise.resolve(key);
    };
    const read = (key: string) => cachedLoad(key, { ttlS: 60, kv: null }, load(key));
    await read("first");
    await read("second");
    for (let i = 0; i < LOCAL_MAX_ENTRIES - 2; i++) await read(`fill-${i}`);
    await read("first"); // a hit: "first" is now the most recent, "second" the least
    await read("one-more"); // one past the bound evicts "second"
    expect(await read("first")).toMatchObject({ cache: "hit" });
    expect(await read("second")).toMatchObject({ cache: "miss" });
    expect(loads.get("first")).toBe(1);
    expect(loads.get("second")).toBe(2);
  });

  it("rethrows when there is no cached body", async () => {
    await expect(
      cachedLoad("k4", { ttlS: 10, kv: null }, () => Promise.reject(new ApiError("upstream_timeout", "slow"))),
    ).rejects.toMatchObject({
      code: "upstream_timeout",
    });
  });
});

describe("cachedLoad (shared KV layer)", () => {
  it("a second instance (empty local cache) reuses the first instance's body from the KV store", async () => {
    const kv = new FakeKv();
    let loads = 0;
    const first = await cachedLoad("shared", { ttlS: 60, kv }, async () => ({ n: ++loads }));
    clearLocalCache(); // another serverless instance
    vi.setSystemTime(Date.now() + 5_000);
    const second = await cachedLoad("shared", { ttlS: 60, kv }, async () => ({ n: ++loads }));
    expect(loads).toBe(1);
    expect(second).toMatchObject({ value: { n: 1 }, cache: "hit", ageS: 5, fetchedAt: first.fetchedAt });
  });

  it("an instance that finds another's fetch in progress (lock held) waits for its result instead of fetching", async () => {
    vi.useRealTimers();
    const kv = new FakeKv();
    await kv.set(`${kvKeyFor("locked")}:lock`, "1", { nx: true, px: 5_000 });
    setTimeout(() => void kv.set(kvKeyFor("locked"), { v: "from-other-instance", t: Date.now() }, { px: 60_000 }), 250);
    let loads = 0;
    const result = await cachedLoad("locked", { ttlS: 60, kv, deadline: Date.now() + 3_000 }, async () => {
      loads++;
      return "mine";
    });
    expect(loads).toBe(0);
    expect(result).toMatchObject({ value: "from-other-instance", cache: "hit" });
  });

  it("serves a stale body from the KV store when this instance has none and the upstream fails", async () => {
    const kv = new FakeKv();
    await cachedLoad("stale-shared", { ttlS: 10, kv }, async () => "good");
    clearLocalCache();
    vi.setSystemTime(Date.now() + 30_000);
    const result = await cachedLoad("stale-shared", { ttlS: 10, kv }, upstreamDown);
    expect(result).toMatchObject({ value: "good", cache: "stale", ageS: 30 });
  });

  it("a failing KV store never fails the request: it falls back to the loader and the in-process cache", async () => {
    let loads = 0;
    const first = await cachedLoad("kv-down", { ttlS: 60, kv: brokenKv }, async () => ++loads);
    const second = await cachedLoad("kv-down", { ttlS: 60, kv: brokenKv }, async () => ++loads);
    expect([first.cache, second.cache]).toEqual(["miss", "hit"]);
    expect(loads).toBe(1);
  });
});

describe("cachedLoad through a real Redis (the self-hosted REDIS_URL path of lib/kv/redis.ts)", async () => {
  const { redisAvailable, REDIS_URL } = await import("../../helpers/services");
  const available = await redisAvailable();

  it.skipIf(!available)("shares one upstream fetch between two instances and expires with the TTL + stale window", async () => {
    vi.useRealTimers();
    const { env } = await import("@/lib/env");
    const { closeKv, getRedis } = await import("@/lib/kv/redis");
    const previous = env.REDIS_URL;
    await closeKv();
    env.REDIS_URL = REDIS_URL;
    try {
      const redis = getRedis()!;
      const key = `test:${process.pid}:${Date.now()}`;
      let loads = 0;
      const first = await cachedLoad(key, { ttlS: 30 }, async () => ({ loads: ++loads }));
      clearLocalCache(); // another instance
      const second = await cachedLoad(key, { ttlS: 30 }, async () => ({ loads: ++loads }));
      expect(loads).toBe(1);
      expect(second).toMatchObject({ value: { loads: 1 }, cache: "hit", fetchedAt: first.fetchedAt });
      const ttlMs = await redis.pttl(kvKeyFor(key));
      expect(ttlMs).toBeGreaterThan((30 + STALE_MAX_AGE_S - 5) * 1000);
      expect(await redis.exists(`${kvKeyFor(key)}:lock`)).toBe(0); // released
      await redis.del(kvKeyFor(key));
    } finally {
      await closeKv();
      env.REDIS_URL = previous;
    }
  });
});
