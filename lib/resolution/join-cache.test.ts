// The disputes join's cache: one computation for concurrent callers, reused for JOIN_TTL_S, the last join of a key
// standing in for a failed recomputation up to STALE_MAX_AGE_S (never for an answer such as a 404), and its bound.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/lib/api/errors";
import { STALE_MAX_AGE_S } from "@/lib/upstream";
import { clearJoinCaches, JOIN_TTL_S, joinCache } from "./join-cache";

beforeEach(() => {
  clearJoinCaches();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-11-25T12:00:00Z"));
});
afterEach(() => vi.useRealTimers());

const builds = () => {
  let n = 0;
  return { count: () => n, build: async () => ({ n: ++n }) };
};

describe("the join cache", () => {
  it("computes a key once for concurrent callers and reuses it for JOIN_TTL_S", async () => {
    const joins = joinCache<{ n: number }>("test-ttl", 4);
    const b = builds();
    const first = await Promise.all(Array.from({ length: 10 }, () => joins.load("answer-1", b.build)));
    expect(first.every((j) => j.n === 1)).toBe(true);
    vi.setSystemTime(Date.now() + JOIN_TTL_S * 1000 - 1);
    expect(await joins.load("answer-1", b.build)).toEqual({ n: 1 });
    vi.setSystemTime(Date.now() + 1);
    expect(await joins.load("answer-1", b.build)).toEqual({ n: 2 });
    expect(await joins.load("answer-2", b.build)).toEqual({ n: 3 });
  });

  it("serves the last join of the key when recomputing fails, up to STALE_MAX_AGE_S, but never hides an answer", async () => {
    const joins = joinCache<{ n: number }>("test-stale", 4);
    await joins.load("answer-1", builds().build);
    vi.setSystemTime(Date.now() + (JOIN_TTL_S + 1) * 1000);
    expect(await joins.load("answer-1", () => Promise.reject(new Error("database unreachable")))).toEqual({ n: 1 });
    await expect(joins.load("answer-1", () => Promise.reject(new ApiError("not_found", "gone")))).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(joins.load("answer-2", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    vi.setSystemTime(Date.now() + (STALE_MAX_AGE_S - JOIN_TTL_S) * 1000);
    await expect(joins.load("answer-1", () => Promise.reject(new Error("still down")))).rejects.toThrow("still down");
  });

  it("keeps at most its bound, the least recently read out first", async () => {
    const joins = joinCache<{ n: number }>("test-bound", 2);
    const b = builds();
    await joins.load("a", b.build);
    await joins.load("b", b.build);
    await joins.load("a", b.build); // a hit: "b" is the least recently read
    await joins.load("c", b.build); // past the bound: "b" goes
    expect(b.count()).toBe(3);
    expect(await joins.load("a", b.build)).toEqual({ n: 1 });
    expect(await joins.load("b", b.build)).toEqual({ n: 4 });
  });
});
