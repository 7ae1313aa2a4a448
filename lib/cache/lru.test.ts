import { describe, expect, it, vi } from "vitest";
import { coalesce, createCache, processCache } from "./lru";

describe("the cache primitive", () => {
  it("bounds by entries, least recently used out first", () => {
    const cache = createCache<{ v: number }>({ max: 2 });
    cache.set("a", { v: 1 });
    cache.set("b", { v: 2 });
    cache.get("a");
    cache.set("c", { v: 3 });
    expect([...cache.keys()].sort()).toEqual(["a", "c"]);
  });

  it("bounds by bytes and keeps nothing larger than the budget", () => {
    const cache = createCache<Uint8Array>({ maxBytes: 10, sizeOf: (b) => b.length });
    cache.set("a", new Uint8Array(6));
    cache.set("b", new Uint8Array(6));
    expect(cache.has("a")).toBe(false);
    expect(cache.calculatedSize).toBe(6);
    cache.set("huge", new Uint8Array(11));
    expect(cache.has("huge")).toBe(false);
  });

  it("one instance per process and name", () => {
    expect(processCache("lru-test", { max: 1 })).toBe(processCache("lru-test", { max: 5 }));
  });

  it("lapses entries on the injected clock, per cache or per entry", () => {
    let now = 1_000;
    const cache = createCache<{ v: number }>({ max: 10, ttlMs: 60_000, now: () => now });
    cache.set("default", { v: 1 });
    cache.set("short", { v: 2 }, { ttl: 1_000 });
    now += 999;
    expect(cache.get("short")).toEqual({ v: 2 });
    now += 2;
    expect(cache.get("short")).toBeUndefined();
    now += 59_000 - 2;
    expect(cache.get("default")).toEqual({ v: 1 });
    now += 2;
    expect(cache.get("default")).toBeUndefined();
  });

  it("measures TTLs on the wall clock by default, so a test moves it with setSystemTime", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const cache = createCache<{ v: number }>({ max: 10, ttlMs: 30_000 });
      cache.set("k", { v: 1 });
      vi.setSystemTime(Date.now() + 29_999);
      expect(cache.get("k")).toEqual({ v: 1 });
      vi.setSystemTime(Date.now() + 2);
      expect(cache.get("k")).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it("coalesces concurrent loads of one key and forgets a load once it settles", async () => {
    const inFlight = new Map<string, Promise<number>>();
    let loads = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const load = async () => {
      loads++;
      await gate;
      return loads;
    };
    const both = Promise.all([coalesce(inFlight, "k", load), coalesce(inFlight, "k", load)]);
    expect(inFlight.size).toBe(1);
    release();
    expect(await both).toEqual([1, 1]);
    expect(inFlight.size).toBe(0);
    await expect(coalesce(inFlight, "k", () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(inFlight.size).toBe(0);
  });
});
