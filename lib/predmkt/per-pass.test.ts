// Per-pass values for client-chosen filters (SECURITY.md "Shared stores"): never written to the shared store, and kept
// in an LRU of their own, so a flood of distinct filters neither fills the store nor pushes the aggregates out.
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";

const written: string[] = [];
vi.mock("@/lib/kv/redis", () => ({
  getRedis: () => ({
    get: async () => null,
    set: async (key: string) => {
      written.push(key);
      return "OK";
    },
  }),
}));

const { clearPerPass, oncePerPass } = await import("./per-pass");
// The unit project's files share worker processes (docs/testing.md "One process for many test files"): the files
// after this one get the real module.
afterAll(() => vi.doUnmock("@/lib/kv/redis"));

const at = new Date("2026-11-27T00:00:00Z");

beforeEach(() => {
  clearPerPass();
  written.length = 0;
});

describe("oncePerPass", () => {
  it("shares an aggregate through the store, once per pass", async () => {
    let computed = 0;
    const compute = async () => ++computed;
    expect(await oncePerPass("movers|24h", at, compute)).toBe(1);
    expect(await oncePerPass("movers|24h", at, compute)).toBe(1);
    expect(computed).toBe(1);
    expect(written).toEqual([expect.stringMatching(/^predmkt:perpass:v1:.*movers\|24h\|/)]);
  });

  it("keeps filtered values in process: 1,000 distinct filters write nothing and evict no aggregate", async () => {
    let aggregates = 0;
    const aggregate = async () => ++aggregates;
    await oncePerPass("abnormal", at, aggregate);
    for (let i = 0; i < 1000; i++) await oncePerPass(`whales|x|market-${i}||0`, at, async () => ({ rows: [i] }), { filtered: true });
    expect(await oncePerPass("abnormal", at, aggregate)).toBe(1);
    expect(aggregates).toBe(1);
    expect(written).toHaveLength(1); // the aggregate's own
    // A filtered value is still computed once while it is kept.
    let filtered = 0;
    for (let i = 0; i < 3; i++) await oncePerPass("whales|x|market-1||0", at, async () => ++filtered, { filtered: true });
    expect(filtered).toBe(1);
  });
});
