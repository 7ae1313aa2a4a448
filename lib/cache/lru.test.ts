import { describe, expect, it } from "vitest";
import { createCache, processCache } from "./lru";

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
});
