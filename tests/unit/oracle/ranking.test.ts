// Pure parts: ranking stakers (ties, delegates, zero stakes) and grouping reveals by round across scan ranges; the
// cache's stale-on-error; the OpenAPI document lists the four oracle endpoints.
import { type Address, type Hex, parseUnits } from "viem";
import { describe, expect, it, vi } from "vitest";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { cachedRead, clearOracleCache } from "@/lib/oracle/cache";
import { groupReveals, type RevealArgs } from "@/lib/oracle/rounds";
import { rankVoters } from "@/lib/oracle/voters";

const A = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const tokens = (s: string) => parseUnits(s, 18);

describe("rankVoters", () => {
  it("ranks by stake, ties share a rank ordered by address, zero stakes dropped, delegates kept", () => {
    const ranked = rankVoters(
      [
        { address: A(5), stake: tokens("100"), delegate: null },
        { address: A(2), stake: tokens("300.5"), delegate: A(99) },
        { address: A(4), stake: tokens("200"), delegate: null },
        { address: A(3), stake: tokens("200"), delegate: A(98) },
        { address: A(6), stake: 0n, delegate: null },
        { address: A(1), stake: tokens("100"), delegate: null },
      ],
      tokens("1000"),
    );
    expect(ranked.map((v) => [v.rank, v.address, v.stake, v.delegate])).toEqual([
      [1, A(2), "300.5", A(99)],
      [2, A(3), "200", A(98)],
      [2, A(4), "200", null],
      [4, A(1), "100", null],
      [4, A(5), "100", null],
    ]);
    expect(ranked[0].share_of_total_stake).toBeCloseTo(0.3005, 12);
  });

  it("keeps exact decimals (no float rounding) and survives a zero cumulative stake", () => {
    const [v] = rankVoters([{ address: A(1), stake: 3899999750000000000000001n, delegate: null }], 0n);
    expect(v.stake).toBe("3899999.750000000000000001");
    expect(v.share_of_total_stake).toBe(0);
  });
});

describe("groupReveals", () => {
  const reveal = (round: number, voter: number, block: bigint, logIndex: number, tokensRevealed: string, request = 1): RevealArgs & { blockNumber: bigint; logIndex: number } => ({
    voter: A(voter), roundId: round, identifier: `0x${"11".repeat(32)}` as Hex, time: BigInt(request), ancillaryData: "0x", numTokens: tokens(tokensRevealed), blockNumber: block, logIndex,
  });

  it("groups by roundId whatever range a log came from, and counts a log seen in two ranges once", () => {
    // Chunk 1 = blocks 10-11, chunk 2 = blocks 12-13: round 7's reveals straddle the boundary; block 11's log repeats.
    const chunk1 = [reveal(7, 1, 10n, 0, "10"), reveal(6, 9, 10n, 1, "1"), reveal(7, 2, 11n, 0, "20", 2)];
    const chunk2 = [reveal(7, 2, 11n, 0, "20", 2), reveal(7, 1, 12n, 0, "10", 2), reveal(7, 3, 13n, 0, "0.5")];
    const groups = groupReveals([...chunk1, ...chunk2]);
    expect(groups.get(7)).toEqual({ roundId: 7, revealCount: 4, uniqueRevealers: 3, tokensRevealed: tokens("40.5"), requestsRevealed: 2 });
    expect(groups.get(6)).toMatchObject({ revealCount: 1, uniqueRevealers: 1 });
  });
});

describe("oracle cache", () => {
  it("serves a hit within the TTL, the last good value as stale after a failed refresh, then the error", async () => {
    clearOracleCache();
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(1_000_000);
      expect((await cachedRead("k", 60_000, async () => 1)).cache).toBe("miss");
      vi.setSystemTime(1_030_000);
      expect(await cachedRead("k", 60_000, async () => 2)).toMatchObject({ value: 1, cache: "hit", ageS: 30 });
      vi.setSystemTime(1_090_000);
      expect(await cachedRead("k", 60_000, async () => Promise.reject(new Error("rpc down")))).toMatchObject({ value: 1, cache: "stale", maxAgeS: 0 });
      vi.setSystemTime(1_090_000 + 10 * 60_000);
      await expect(cachedRead("k", 60_000, async () => Promise.reject(new Error("rpc down")))).rejects.toThrow("rpc down");
    } finally {
      vi.useRealTimers();
    }
  });

  it("coalesces identical concurrent loads into one", async () => {
    clearOracleCache();
    let loads = 0;
    const load = async () => {
      loads += 1;
      await new Promise((r) => setTimeout(r, 20));
      return "v";
    };
    await Promise.all([cachedRead("c", 1000, load), cachedRead("c", 1000, load), cachedRead("c", 1000, load)]);
    expect(loads).toBe(1);
  });
});

describe("OpenAPI", () => {
  it("documents the four oracle endpoints, voters' limit bounds and the 502/504 errors", () => {
    const doc = buildOpenApiDocument() as { paths: Record<string, { get: { parameters?: { name: string; schema: { minimum?: number; maximum?: number; default?: number } }[]; responses: Record<string, unknown> } }> };
    for (const p of ["/api/oracle/summary", "/api/oracle/disputes", "/api/oracle/rounds", "/api/oracle/voters"]) {
      expect(doc.paths[p]?.get, p).toBeDefined();
      expect(Object.keys(doc.paths[p].get.responses)).toEqual(expect.arrayContaining(["200", "502", "504"]));
    }
    const limit = doc.paths["/api/oracle/voters"].get.parameters!.find((p) => p.name === "limit")!;
    expect(limit.schema).toMatchObject({ minimum: 1, maximum: 500, default: 50 });
  });
});
