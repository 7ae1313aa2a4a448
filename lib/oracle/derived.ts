// Derived oracle state (docs/oracle-indexer.md, "Derived tables"), written by the log scans in the same database
// transaction as the logs and the cursor, so it never lags them:
//   - oracle_votes: each VoteCommitted / VoteRevealed of VotingV2 as a compact row (round, voter, request id, price,
//     tokens): the ancillary text, up to 8 kB a log before 2025-04, is not stored;
//   - oracle_rounds, oracle_request_rounds, oracle_vote_tallies: aggregates of oracle_votes, recomputed (in SQL) for the
//     rounds and requests a batch of logs or a reorg rewind touched, never for the whole history;
//   - oracle_requests: per request, the fields its logs carry (Polygon OOv2 ProposePrice / DisputePrice / Settle of
//     Polymarket's requesters; Ethereum VotingV2 RequestResolved), each with the block it came from, so a rewind
//     clears exactly what the rewound blocks wrote.
// Everything is idempotent: the same logs scanned twice (an overlapping range, a re-index) write the same rows.
import { type AbiEvent, getAddress, type Hex, keccak256, toEventSelector } from "viem";
import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { optimisticOracleV2Abi, votingV2Abi } from "./abi";
import { dvmRequestId, optimisticOracleRequestId } from "./ancillary";
import { CHAIN_IDS } from "./clients";
import type { OracleConfig } from "./config";
import { decodeStored, type StoredLog } from "./scan";

/** A log as the scan stores it (oracle_logs' columns). */
export interface LogRow {
  chainId: number;
  blockNumber: bigint;
  logIndex: number;
  address: string;
  transactionHash: string;
  topic0: string;
  topics: string[];
  data: string;
  blockTimestamp: bigint | null;
}

type Op = Prisma.PrismaPromise<unknown>;

const eventTopic = (abi: readonly unknown[], name: string) =>
  toEventSelector((abi as AbiEvent[]).find((e) => e.type === "event" && e.name === name)!).toLowerCase();

export const TOPICS = {
  voteCommitted: eventTopic(votingV2Abi, "VoteCommitted"),
  voteRevealed: eventTopic(votingV2Abi, "VoteRevealed"),
  requestResolved: eventTopic(votingV2Abi, "RequestResolved"),
  proposePrice: eventTopic(optimisticOracleV2Abi, "ProposePrice"),
  disputePrice: eventTopic(optimisticOracleV2Abi, "DisputePrice"),
  settle: eventTopic(optimisticOracleV2Abi, "Settle"),
};

/** Logs kept only as derived rows: their raw form (with the ancillary text) is not stored in oracle_logs. */
const DERIVED_ONLY = new Set([TOPICS.voteCommitted, TOPICS.voteRevealed, TOPICS.requestResolved, TOPICS.proposePrice, TOPICS.settle]);

export function keepsRawLog(row: LogRow): boolean {
  return !DERIVED_ONLY.has(row.topic0.toLowerCase());
}

interface VoteArgs {
  voter: string;
  roundId: number;
  identifier: Hex;
  time: bigint;
  ancillaryData: Hex;
  price?: bigint;
  numTokens?: bigint;
}
interface OoArgs {
  requester: string;
  proposer: string;
  identifier: Hex;
  timestamp: bigint;
  ancillaryData: Hex;
  proposedPrice?: bigint;
  expirationTimestamp?: bigint;
  price?: bigint;
}
interface ResolvedArgs {
  roundId: number;
  identifier: Hex;
  time: bigint;
  ancillaryData: Hex;
  price: bigint;
}

const asStored = (row: LogRow): StoredLog => ({
  blockNumber: row.blockNumber,
  logIndex: row.logIndex,
  address: row.address as Hex,
  transactionHash: row.transactionHash as Hex,
  topics: row.topics as Hex[],
  data: row.data as Hex,
  blockTimestamp: row.blockTimestamp,
});

const HEX32 = /^0x[0-9a-f]{64}$/;
/** A SQL list of request ids (each checked to be a 32-byte hex string, so it is safe to inline). */
function idList(ids: Iterable<string>): string {
  return [...ids]
    .map((id) => {
      if (!HEX32.test(id)) throw new Error(`not a request id: ${id}`);
      return `'${id}'`;
    })
    .join(",");
}
const intList = (ids: Iterable<number>) => [...ids].map((n) => String(Math.trunc(n))).join(",");

/**
 * Recomputes the aggregates of these rounds and requests from oracle_votes (statements for one transaction). Commits
 * count as UMA counts them: a voter may call commitVote again for the same request in the same round, which only
 * replaces the stored hash (VotingV2.sol `commitVote`, line 450: `voteSubmissions[voter].commit = hash`), so a
 * round's `commits` are its distinct (voter, request) commitments and a request's per-round `commits` its distinct
 * committers (docs/oracle-facts.md, "Figures").
 */
function recomputeVoteAggregates(db: Db, roundIds: Set<number>, requestIds: Set<string>): Op[] {
  const ops: Op[] = [];
  const eth = CHAIN_IDS.ethereum;
  if (roundIds.size) {
    ops.push(
      db.$executeRawUnsafe(
        `INSERT INTO oracle_rounds (round_id, commits, reveals, unique_revealers, requests_revealed, tokens_revealed)
         SELECT r.id,
                count(DISTINCT v.voter || ':' || v.request_id) FILTER (WHERE NOT v.revealed),
                count(v.log_index) FILTER (WHERE v.revealed),
                count(DISTINCT v.voter) FILTER (WHERE v.revealed),
                count(DISTINCT v.request_id) FILTER (WHERE v.revealed),
                coalesce(sum(v.tokens) FILTER (WHERE v.revealed), 0)
         FROM (SELECT unnest(ARRAY[${intList(roundIds)}]::int[]) AS id) r
         LEFT JOIN oracle_votes v ON v.chain_id = ${eth} AND v.round_id = r.id
         GROUP BY r.id
         ON CONFLICT (round_id) DO UPDATE SET commits = EXCLUDED.commits, reveals = EXCLUDED.reveals,
           unique_revealers = EXCLUDED.unique_revealers, requests_revealed = EXCLUDED.requests_revealed,
           tokens_revealed = EXCLUDED.tokens_revealed`,
      ),
    );
  }
  if (requestIds.size) {
    const ids = idList(requestIds);
    ops.push(
      db.$executeRawUnsafe(`DELETE FROM oracle_request_rounds WHERE request_id IN (${ids})`),
      db.$executeRawUnsafe(
        `INSERT INTO oracle_request_rounds (request_id, round_id, commits, reveals, tokens_revealed)
         SELECT request_id, round_id, count(DISTINCT voter) FILTER (WHERE NOT revealed), count(*) FILTER (WHERE revealed),
                coalesce(sum(tokens) FILTER (WHERE revealed), 0)
         FROM oracle_votes WHERE chain_id = ${eth} AND request_id IN (${ids}) GROUP BY request_id, round_id`,
      ),
      db.$executeRawUnsafe(`DELETE FROM oracle_vote_tallies WHERE request_id IN (${ids})`),
      db.$executeRawUnsafe(
        `INSERT INTO oracle_vote_tallies (request_id, round_id, price, voters, tokens)
         SELECT request_id, round_id, price, count(*), coalesce(sum(tokens), 0)
         FROM oracle_votes WHERE chain_id = ${eth} AND revealed AND request_id IN (${ids}) GROUP BY request_id, round_id, price`,
      ),
    );
  }
  return ops;
}

/** A request is terminal once settled (Polygon OO: Settle log or State 6) or resolved (DVM: RequestResolved or status 2). */
const TERMINAL_SQL = `CASE WHEN chain_id = ${CHAIN_IDS.polygon} THEN (settled_block IS NOT NULL OR coalesce(state, 0) = 6)
  ELSE (resolved_block IS NOT NULL OR coalesce(state, 0) = 2) END`;

export function refreshTerminal(db: Db, chainId: number, requestIds?: Set<string>): Op {
  const scope = requestIds ? ` AND request_id IN (${idList(requestIds)})` : "";
  return db.$executeRawUnsafe(
    `UPDATE oracle_requests SET terminal = ${TERMINAL_SQL} WHERE chain_id = ${chainId}${scope} AND terminal IS DISTINCT FROM (${TERMINAL_SQL})`,
  );
}

const dec = (v: bigint | undefined) => (v === undefined ? null : v.toString());

/**
 * The derived rows of a batch of scanned logs: statements to run in the scan's transaction after the raw logs.
 * Logs of other contracts (and OO requests of requesters that are not Polymarket's) are ignored.
 */
export function derivedWrites(db: Db, config: OracleConfig, rows: LogRow[]): Op[] {
  const voting = config.votingV2.toLowerCase();
  const oracles = new Set(config.optimisticOracles.map((a) => a.toLowerCase()));
  const votes: Prisma.OracleVoteCreateManyInput[] = [];
  const rounds = new Set<number>();
  const requests = new Set<string>();
  const touched = { [CHAIN_IDS.ethereum]: new Set<string>(), [CHAIN_IDS.polygon]: new Set<string>() } as Record<number, Set<string>>;
  const upserts: Op[] = [];
  const upsert = (chainId: number, requestId: string, fields: Record<string, unknown>) => {
    touched[chainId].add(requestId);
    upserts.push(
      db.oracleRequest.upsert({
        where: { chainId_requestId: { chainId, requestId } },
        create: { chainId, requestId, ...fields },
        update: fields,
      }),
    );
  };
  for (const row of rows) {
    const topic = row.topic0.toLowerCase();
    const address = row.address.toLowerCase();
    if (row.chainId === CHAIN_IDS.ethereum && address === voting) {
      if (topic === TOPICS.voteCommitted || topic === TOPICS.voteRevealed) {
        const a = decodeStored<VoteArgs>(votingV2Abi, asStored(row)).args;
        const requestId = dvmRequestId(a.identifier, a.time, a.ancillaryData).toLowerCase();
        const revealed = topic === TOPICS.voteRevealed;
        votes.push({
          chainId: row.chainId,
          blockNumber: row.blockNumber,
          logIndex: row.logIndex,
          revealed,
          roundId: Number(a.roundId),
          voter: a.voter.toLowerCase(),
          requestId,
          price: revealed ? dec(a.price) : null,
          tokens: revealed ? dec(a.numTokens) : null,
        });
        rounds.add(Number(a.roundId));
        requests.add(requestId);
      } else if (topic === TOPICS.requestResolved) {
        const a = decodeStored<ResolvedArgs>(votingV2Abi, asStored(row)).args;
        upsert(row.chainId, dvmRequestId(a.identifier, a.time, a.ancillaryData).toLowerCase(), {
          resolvedPrice: a.price.toString(),
          resolvedRound: Number(a.roundId),
          resolvedBlock: row.blockNumber,
        });
      }
    } else if (row.chainId === CHAIN_IDS.polygon && oracles.has(address)) {
      if (topic !== TOPICS.proposePrice && topic !== TOPICS.disputePrice && topic !== TOPICS.settle) continue;
      const a = decodeStored<OoArgs>(optimisticOracleV2Abi, asStored(row)).args;
      if (!config.polymarketRequesters.has(a.requester.toLowerCase())) continue;
      const requestId = optimisticOracleRequestId(getAddress(a.requester), a.identifier, a.timestamp, a.ancillaryData).toLowerCase();
      const identity = {
        oracle: address,
        requester: a.requester.toLowerCase(),
        questionId: keccak256(a.ancillaryData).toLowerCase(),
        requestedAt: a.timestamp,
      };
      if (topic === TOPICS.proposePrice) {
        upsert(row.chainId, requestId, {
          ...identity,
          proposer: a.proposer.toLowerCase(),
          proposedPrice: dec(a.proposedPrice),
          proposedAt: row.blockTimestamp,
          proposedBlock: row.blockNumber,
          expiresAt: a.expirationTimestamp ?? null,
        });
      } else if (topic === TOPICS.disputePrice) {
        upsert(row.chainId, requestId, { ...identity, disputedAt: row.blockTimestamp, disputedBlock: row.blockNumber });
      } else {
        upsert(row.chainId, requestId, {
          ...identity,
          settledAt: row.blockTimestamp,
          settledPrice: dec(a.price),
          settledBlock: row.blockNumber,
        });
      }
    }
  }
  const ops: Op[] = [];
  if (votes.length) ops.push(db.oracleVote.createMany({ data: votes, skipDuplicates: true }));
  ops.push(...recomputeVoteAggregates(db, rounds, requests), ...upserts);
  for (const [chainId, ids] of Object.entries(touched)) if (ids.size) ops.push(refreshTerminal(db, Number(chainId), ids));
  return ops;
}

/**
 * What a reorg rewind to block `rewindTo` does to the derived rows of a chain, as statements for the rewind's
 * transaction: votes of rewound blocks go and their rounds and requests are recomputed; request fields written by
 * rewound logs (or read at rewound blocks) are cleared, rows left with nothing are deleted; rounds(r) read at a rewound
 * block is read again.
 */
export async function rewindDerived(db: Db, chainId: number, rewindTo: bigint): Promise<Op[]> {
  const hit = await db.oracleVote.findMany({
    where: { chainId, blockNumber: { gt: rewindTo } },
    distinct: ["roundId", "requestId"],
    select: { roundId: true, requestId: true },
  });
  const ops: Op[] = [db.oracleVote.deleteMany({ where: { chainId, blockNumber: { gt: rewindTo } } })];
  ops.push(...recomputeVoteAggregates(db, new Set(hit.map((h) => h.roundId)), new Set(hit.map((h) => h.requestId))));
  if (chainId === CHAIN_IDS.ethereum) {
    ops.push(
      db.oracleRound.updateMany({
        where: { frozenBlock: { gt: rewindTo } },
        data: { minParticipation: null, minAgreement: null, cumulativeStake: null, requestsToVote: null, frozenBlock: null },
      }),
    );
  }
  const above = { gt: rewindTo };
  ops.push(
    db.oracleRequest.updateMany({
      where: { chainId, proposedBlock: above },
      data: { proposer: null, proposedPrice: null, proposedAt: null, proposedBlock: null, expiresAt: null },
    }),
    db.oracleRequest.updateMany({ where: { chainId, disputedBlock: above }, data: { disputedAt: null, disputedBlock: null } }),
    db.oracleRequest.updateMany({
      where: { chainId, settledBlock: above },
      data: { settledAt: null, settledPrice: null, settledBlock: null },
    }),
    db.oracleRequest.updateMany({
      where: { chainId, resolvedBlock: above },
      data: { resolvedPrice: null, resolvedRound: null, resolvedBlock: null },
    }),
    db.oracleRequest.updateMany({ where: { chainId, stateBlock: above }, data: { state: null, stateRound: null, stateBlock: null } }),
    db.oracleRequest.deleteMany({
      where: { chainId, proposedBlock: null, disputedBlock: null, settledBlock: null, resolvedBlock: null, stateBlock: null },
    }),
    refreshTerminal(db, chainId),
  );
  return ops;
}

/**
 * Proposals of a legacy OOv2 past their liveness at the indexed Polygon head, undisputed and unsettled, are Expired
 * (OOv2 State 3: the price is final, settle not called yet): marked once per pass, at that head, so the state agrees with the index's
 * block rather than the wall clock.
 */
export async function markExpired(
  db: Db,
  head: { number: bigint; timestamp: bigint },
  managedOracles: ReadonlySet<string> = new Set(),
): Promise<number> {
  return db.oracleRequest
    .updateMany({
      where: {
        chainId: CHAIN_IDS.polygon,
        // A Managed OOv2 never reads Expired: its getState answers Proposed until a resolver settles
        // (docs/oracle-indexer.md, "Per-oracle semantics").
        ...(managedOracles.size ? { oracle: { notIn: [...managedOracles] } } : {}),
        proposedBlock: { not: null, lte: head.number },
        disputedBlock: null,
        settledBlock: null,
        expiresAt: { lte: head.timestamp },
        OR: [{ state: null }, { state: { lt: 3 } }],
      },
      data: { state: 3, stateBlock: head.number },
    })
    .then((r) => r.count);
}

/**
 * Repairs State 3 (Expired) stored for Managed OOv2 proposals: `markExpired` wrote it for every oracle before the
 * Managed OOv2's semantics were known (its getState never answers Expired: ManagedOptimisticOracleV2._getStateForDispute
 * reads it as Proposed; docs/oracle-indexer.md, "Per-oracle semantics"), so such a row is wrong whatever its age. The
 * state is cleared (no read stands behind it): the proposal reads as Proposed again, or as what a later log or read
 * says. Idempotent and cheap, so it runs on every pass: it also covers an address added to UMA_MANAGED_OOV2_ADDRESSES
 * after its proposals were indexed as a legacy OOv2's.
 */
export async function repairManagedExpired(db: Db, managedOracles: ReadonlySet<string>): Promise<number> {
  if (!managedOracles.size) return 0;
  return db.oracleRequest
    .updateMany({
      where: { chainId: CHAIN_IDS.polygon, oracle: { in: [...managedOracles] }, state: 3 },
      data: { state: null, stateBlock: null },
    })
    .then((r) => r.count);
}
