// Pure parts: ranking stakers (ties, delegates, zero stakes); the OpenAPI document lists the four oracle endpoints.
// (Grouping reveals by round across scan ranges is tests/unit/oracle/derived.test.ts.)
import { type Address, parseUnits } from "viem";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { rankVoters } from "@/lib/oracle/voters";

const A = (n: number): Address => `0x${n.toString(16).padStart(40, "0")}`;
const tokens = (s: string) => parseUnits(s, 18);

describe("rankVoters", () => {
  it("ranks by stake, ties share a rank ordered by address, zero stakes dropped, delegates kept, shares on one basis", () => {
    const ranked = rankVoters([
      { address: A(5), stake: tokens("100"), delegate: null },
      { address: A(2), stake: tokens("300.5"), delegate: A(99) },
      { address: A(4), stake: tokens("200"), delegate: null },
      { address: A(3), stake: tokens("200"), delegate: A(98) },
      { address: A(6), stake: 0n, delegate: null },
      { address: A(1), stake: tokens("100"), delegate: null },
    ]);
    expect(ranked.map((v) => [v.rank, v.address, v.stake, v.delegate])).toEqual([
      [1, A(2), "300.5", A(99)],
      [2, A(3), "200", A(98)],
      [2, A(4), "200", null],
      [4, A(1), "100", null],
      [4, A(5), "100", null],
    ]);
    // Each stake over the sum of the stakes listed (900.5): the shares sum to 1.
    expect(ranked[0].share_of_total_stake).toBeCloseTo(300.5 / 900.5, 12);
    expect(ranked.reduce((sum, v) => sum + v.share_of_total_stake, 0)).toBeCloseTo(1, 12);
  });

  it("keeps exact decimals (no float rounding); a pending unstake and a one-sided delegate are shown apart", () => {
    const [v] = rankVoters([
      {
        address: A(1),
        stake: 3899999750000000000000001n,
        delegate: null,
        pendingDelegate: A(7),
        pendingUnstake: tokens("5"),
        unstakeTime: 1_780_000_000n,
      },
    ]);
    expect(v).toMatchObject({
      stake: "3899999.750000000000000001",
      share_of_total_stake: 1,
      delegate: null,
      pending_delegate: A(7),
      pending_unstake: "5",
      unstake_time: "2026-05-28T20:26:40.000Z",
    });
    expect(rankVoters([{ address: A(2), stake: 0n, delegate: null, pendingUnstake: tokens("1") }])).toEqual([]);
  });
});

describe("OpenAPI", () => {
  it("documents the four oracle endpoints, voters' limit bounds and the 502/504 errors", () => {
    const doc = buildOpenApiDocument() as {
      paths: Record<
        string,
        {
          get: {
            parameters?: { name: string; schema: { minimum?: number; maximum?: number; default?: number } }[];
            responses: Record<string, unknown>;
          };
        }
      >;
    };
    for (const p of ["/api/oracle/summary", "/api/oracle/disputes", "/api/oracle/rounds", "/api/oracle/voters"]) {
      expect(doc.paths[p]?.get, p).toBeDefined();
      expect(Object.keys(doc.paths[p].get.responses)).toEqual(expect.arrayContaining(["200", "502", "504"]));
    }
    const limit = doc.paths["/api/oracle/voters"].get.parameters!.find((p) => p.name === "limit")!;
    expect(limit.schema).toMatchObject({ minimum: 1, maximum: 500, default: 50 });
  });
});
