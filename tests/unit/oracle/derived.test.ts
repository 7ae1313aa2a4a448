// The indexer's derived tables (lib/oracle/derived.ts) against a from-scratch computation: VotingV2 VoteCommitted /
// VoteRevealed logs applied range by range (with a log repeated by overlapping ranges) give the same oracle_rounds,
// oracle_request_rounds and oracle_vote_tallies as all logs applied at once and as a plain tally in this test; a reorg
// rewind recomputes exactly the rows the rewound blocks touched; OOv2 ProposePrice / DisputePrice / Settle of
// Polymarket's requesters become oracle_requests rows (others are ignored), cleared by a rewind of their block.
import { type AbiEvent, type Address, encodeAbiParameters, encodeEventTopics, type Hex, keccak256, parseUnits, stringToHex } from "viem";
import { afterEach, describe, expect, it } from "vitest";
import type { Db } from "@/lib/db/client";
import { optimisticOracleV2Abi, votingV2Abi } from "@/lib/oracle/abi";
import { dvmRequestId, optimisticOracleRequestId } from "@/lib/oracle/ancillary";
import type { OracleConfig } from "@/lib/oracle/config";
import { derivedWrites, keepsRawLog, type LogRow, markExpired, rewindDerived } from "@/lib/oracle/derived";
import { freshDb } from "./helpers";

const A = (n: number): Address => `0x${n.toString(16).padStart(40, "0")}`;
const VOTING = A(0xd0);
const OO = A(0x00);
const ADAPTER = A(0xada);
const OTHER = A(0xbad);
const IDENTIFIER = stringToHex("YES_OR_NO_QUERY", { size: 32 });
const config = {
  votingV2: VOTING,
  optimisticOracles: [OO],
  polymarketRequesters: new Set([ADAPTER.toLowerCase()]),
} as unknown as OracleConfig;
const tokens = (s: string) => parseUnits(s, 18);
const ancillary = (request: number) => stringToHex(`q: question ${request}`);

function row(
  chainId: number,
  address: Address,
  block: bigint,
  logIndex: number,
  topics: Hex[],
  data: Hex,
  timestamp: bigint | null = null,
) {
  return {
    chainId,
    blockNumber: block,
    logIndex,
    address: address.toLowerCase(),
    transactionHash: `0x${block.toString(16).padStart(64, "0")}`,
    topic0: topics[0],
    topics,
    data,
    blockTimestamp: timestamp,
  } satisfies LogRow;
}

interface Vote {
  round: number;
  voter: number;
  block: bigint;
  logIndex: number;
  request: number;
  /** A reveal's tokens; undefined for a commit. */
  tokens?: string;
  price?: bigint;
}

function voteRow(v: Vote): LogRow {
  const revealed = v.tokens !== undefined;
  const topics = encodeEventTopics({
    abi: votingV2Abi,
    eventName: revealed ? "VoteRevealed" : "VoteCommitted",
    args: { voter: A(v.voter), caller: A(v.voter), identifier: IDENTIFIER },
  }) as Hex[];
  const data = revealed
    ? encodeAbiParameters(
        [{ type: "uint32" }, { type: "uint256" }, { type: "bytes" }, { type: "int256" }, { type: "uint128" }],
        [v.round, BigInt(v.request), ancillary(v.request), v.price ?? 10n ** 18n, tokens(v.tokens!)],
      )
    : encodeAbiParameters([{ type: "uint32" }, { type: "uint256" }, { type: "bytes" }], [v.round, BigInt(v.request), ancillary(v.request)]);
  return row(1, VOTING, v.block, v.logIndex, topics, data);
}

const requestIdOf = (request: number) => dvmRequestId(IDENTIFIER, BigInt(request), ancillary(request)).toLowerCase();

/** The plain tally: every distinct log once, grouped in memory. */
function fromScratch(votes: Vote[]) {
  const unique = [...new Map(votes.map((v) => [`${v.block}:${v.logIndex}`, v])).values()];
  const rounds = new Map<number, { commits: Set<string>; reveals: number; voters: Set<number>; requests: Set<number>; tokens: bigint }>();
  const tallies = new Map<string, { voters: number; tokens: bigint }>();
  for (const v of unique) {
    const r = rounds.get(v.round) ?? { commits: new Set(), reveals: 0, voters: new Set(), requests: new Set(), tokens: 0n };
    if (v.tokens === undefined) r.commits.add(`${v.voter}:${v.request}`);
    else {
      r.reveals++;
      r.voters.add(v.voter);
      r.requests.add(v.request);
      r.tokens += tokens(v.tokens);
      const key = `${requestIdOf(v.request)}:${v.round}:${v.price ?? 10n ** 18n}`;
      const t = tallies.get(key) ?? { voters: 0, tokens: 0n };
      tallies.set(key, { voters: t.voters + 1, tokens: t.tokens + tokens(v.tokens) });
    }
    rounds.set(v.round, r);
  }
  return {
    rounds: [...rounds]
      .map(([roundId, r]) => ({
        roundId,
        commits: r.commits.size,
        reveals: r.reveals,
        uniqueRevealers: r.voters.size,
        requestsRevealed: r.requests.size,
        tokensRevealed: r.tokens.toString(),
      }))
      .sort((a, b) => a.roundId - b.roundId),
    tallies: [...tallies].map(([key, t]) => `${key}:${t.voters}:${t.tokens}`).sort(),
  };
}

async function tables(db: Db) {
  const rounds = await db.oracleRound.findMany({
    where: { OR: [{ reveals: { gt: 0 } }, { commits: { gt: 0 } }] },
    orderBy: { roundId: "asc" },
  });
  const tallies = await db.oracleVoteTally.findMany();
  const perRequest = await db.oracleRequestRound.findMany({ orderBy: [{ requestId: "asc" }, { roundId: "asc" }] });
  return {
    rounds: rounds.map((r) => ({
      roundId: r.roundId,
      commits: r.commits,
      reveals: r.reveals,
      uniqueRevealers: r.uniqueRevealers,
      requestsRevealed: r.requestsRevealed,
      tokensRevealed: r.tokensRevealed.toFixed(),
    })),
    tallies: tallies.map((t) => `${t.requestId}:${t.roundId}:${t.price.toFixed()}:${t.voters}:${t.tokens.toFixed()}`).sort(),
    perRequest: perRequest.map((r) => [r.requestId, r.roundId, r.commits, r.reveals, r.tokensRevealed.toFixed()]),
  };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});
async function db() {
  const fresh = await freshDb();
  closers.push(fresh.close);
  return fresh.db;
}
const apply = async (d: Db, rows: LogRow[]) => {
  await d.$transaction(derivedWrites(d, config, rows));
};

// Round 7's votes straddle the range boundary (blocks 10-11 | 12-13) and block 11's reveal is in both ranges.
const VOTES: Vote[] = [
  { round: 7, voter: 1, block: 9n, logIndex: 0, request: 1 },
  { round: 7, voter: 2, block: 9n, logIndex: 1, request: 1 },
  { round: 7, voter: 2, block: 9n, logIndex: 2, request: 2 },
  // Voter 1 re-commits on request 1 (VotingV2.commitVote replaces the hash): still one commitment.
  { round: 7, voter: 1, block: 9n, logIndex: 3, request: 1 },
  { round: 7, voter: 1, block: 10n, logIndex: 0, request: 1, tokens: "10" },
  { round: 6, voter: 9, block: 10n, logIndex: 1, request: 3, tokens: "1", price: 0n },
  { round: 7, voter: 2, block: 11n, logIndex: 0, request: 2, tokens: "20" },
  { round: 7, voter: 1, block: 12n, logIndex: 0, request: 2, tokens: "10", price: 0n },
  { round: 7, voter: 3, block: 13n, logIndex: 0, request: 1, tokens: "0.5" },
];
const RANGES = [VOTES.filter((v) => v.block <= 11n), VOTES.filter((v) => v.block >= 11n)];

describe("derived vote tables", () => {
  it("built range by range (a log seen twice) equal the from-scratch tally and an all-at-once build", async () => {
    const incremental = await db();
    for (const range of RANGES) await apply(incremental, range.map(voteRow));
    const atOnce = await db();
    await apply(atOnce, VOTES.map(voteRow));
    const expected = fromScratch(VOTES);
    const got = await tables(incremental);
    expect(got.rounds).toEqual(expected.rounds);
    expect(got.tallies).toEqual(expected.tallies);
    expect(got).toEqual(await tables(atOnce));
    expect(got.rounds.find((r) => r.roundId === 7)).toEqual({
      roundId: 7,
      commits: 3,
      reveals: 4,
      uniqueRevealers: 3,
      requestsRevealed: 2,
      tokensRevealed: tokens("40.5").toString(),
    });
    // Commits per request and round: request 1 got two committers in round 7 (three logs: voter 1 re-committed), request 2 one.
    expect(got.perRequest.filter((r) => r[1] === 7).map((r) => [r[0], r[2]])).toEqual(
      [
        [requestIdOf(1), 2],
        [requestIdOf(2), 1],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    // No raw text is kept for votes.
    expect(VOTES.map(voteRow).filter(keepsRawLog)).toHaveLength(0);
    // Re-indexing the same logs changes nothing.
    await apply(incremental, VOTES.map(voteRow));
    expect(await tables(incremental)).toEqual(got);
  });

  it("a reorg rewind recomputes the rounds and requests of the rewound blocks, and only those", async () => {
    const d = await db();
    for (const range of RANGES) await apply(d, range.map(voteRow));
    await d.$transaction(await rewindDerived(d, 1, 11n));
    const kept = VOTES.filter((v) => v.block <= 11n);
    const reference = await db();
    await apply(reference, kept.map(voteRow));
    expect(await tables(d)).toEqual(await tables(reference));
    expect((await tables(d)).rounds).toEqual(fromScratch(kept).rounds);
    // A rewind below every vote leaves every aggregate at zero.
    await d.$transaction(await rewindDerived(d, 1, 0n));
    expect((await tables(d)).rounds).toEqual([]);
    expect(await d.oracleVoteTally.count()).toBe(0);
  });
});

function ooRow(eventName: "ProposePrice" | "DisputePrice" | "Settle", requester: Address, request: number, block: bigint, ts: bigint) {
  const event = (optimisticOracleV2Abi as readonly AbiEvent[]).find((e) => e.type === "event" && e.name === eventName)!;
  const topics = encodeEventTopics({
    abi: [event],
    eventName,
    args: { requester, proposer: A(0xa1), disputer: A(0xa2) },
  }) as Hex[];
  const base = [IDENTIFIER, BigInt(request), ancillary(request)] as const;
  const data =
    eventName === "ProposePrice"
      ? encodeAbiParameters(
          [{ type: "bytes32" }, { type: "uint256" }, { type: "bytes" }, { type: "int256" }, { type: "uint256" }, { type: "address" }],
          [...base, 10n ** 18n, ts + 7200n, A(0xc0)],
        )
      : eventName === "DisputePrice"
        ? encodeAbiParameters([{ type: "bytes32" }, { type: "uint256" }, { type: "bytes" }, { type: "int256" }], [...base, 10n ** 18n])
        : encodeAbiParameters(
            [{ type: "bytes32" }, { type: "uint256" }, { type: "bytes" }, { type: "int256" }, { type: "uint256" }],
            [...base, 10n ** 18n, 5n],
          );
  return row(137, OO, block, 0, topics, data, ts);
}

describe("derived request rows", () => {
  it("ProposePrice, DisputePrice and Settle of Polymarket's requesters fill oracle_requests; a rewind clears what it removed", async () => {
    const d = await db();
    const ooId = (request: number) => optimisticOracleRequestId(ADAPTER, IDENTIFIER, BigInt(request), ancillary(request)).toLowerCase();
    const rows = [
      ooRow("ProposePrice", ADAPTER, 1, 100n, 1_000n),
      ooRow("ProposePrice", OTHER, 2, 100n, 1_000n),
      ooRow("ProposePrice", ADAPTER, 3, 101n, 1_010n),
      ooRow("DisputePrice", ADAPTER, 3, 102n, 1_020n),
      ooRow("Settle", ADAPTER, 1, 110n, 9_000n),
    ];
    // ProposePrice and Settle are kept as rows only; DisputePrice stays raw too (the disputes list reads its text).
    expect(rows.filter(keepsRawLog).map((r) => r.blockNumber)).toEqual([102n]);
    await apply(d, rows);
    const all = await d.oracleRequest.findMany({ orderBy: { requestId: "asc" } });
    expect(all.map((r) => r.requestId).sort()).toEqual([ooId(1), ooId(3)].sort());
    const first = all.find((r) => r.requestId === ooId(1))!;
    expect(first).toMatchObject({
      questionId: keccak256(ancillary(1)).toLowerCase(),
      requestedAt: 1n,
      proposedAt: 1_000n,
      expiresAt: 8_200n,
      settledAt: 9_000n,
      terminal: true,
    });
    expect(all.find((r) => r.requestId === ooId(3))).toMatchObject({ disputedAt: 1_020n, settledBlock: null, terminal: false });
    // Expiry at the indexed head: only an undisputed, unsettled proposal past liveness.
    const fresh = await db();
    await apply(fresh, [ooRow("ProposePrice", ADAPTER, 4, 100n, 1_000n)]);
    expect(await markExpired(fresh, { number: 120n, timestamp: 8_199n })).toBe(0);
    expect(await markExpired(fresh, { number: 121n, timestamp: 8_200n })).toBe(1);
    // A Managed OOv2's proposal past liveness is not Expired: its getState reads Proposed until a resolver settles.
    const managed = await db();
    await apply(managed, [ooRow("ProposePrice", ADAPTER, 5, 100n, 1_000n)]);
    expect(await markExpired(managed, { number: 121n, timestamp: 8_200n }, new Set([OO.toLowerCase()]))).toBe(0);
    expect(await markExpired(managed, { number: 121n, timestamp: 8_200n }, new Set([A(0x01).toLowerCase()]))).toBe(1);
    // The settlement was in a rewound block: the request is no longer settled (nor terminal); block 101's proposal goes.
    await d.$transaction(await rewindDerived(d, 137, 105n));
    expect(await d.oracleRequest.findUnique({ where: { chainId_requestId: { chainId: 137, requestId: ooId(1) } } })).toMatchObject({
      settledAt: null,
      settledBlock: null,
      terminal: false,
      proposedAt: 1_000n,
    });
    await d.$transaction(await rewindDerived(d, 137, 100n));
    expect(await d.oracleRequest.findUnique({ where: { chainId_requestId: { chainId: 137, requestId: ooId(3) } } })).toBeNull();
  });
});
