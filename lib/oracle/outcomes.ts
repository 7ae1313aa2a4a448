// Outcomes outside the vote, read from the index: the adapters', the NegRiskOperators' and the sports oracle's own
// events (scanned on Polygon, lib/oracle/context.ts polygonScan and outcomesScan), folded per question
// (lib/oracle/outcome-fold.ts), each with the ids that tie it to its markets. Read from the database only.
import { type AbiEvent, type Address, encodePacked, getAddress, type Hex, keccak256, toEventSelector } from "viem";
import { CHAIN_IDS } from "./clients";
import { LEGACY_NEG_RISK_ADAPTER } from "./config";
import { type OracleContext, polygonEvents, requesterAddresses } from "./context";
import { lower } from "./dispute-sources";
import {
  decidingOutcome,
  foldSubjects,
  type OutcomeContract,
  type OutcomeLog,
  type QuestionOutcome,
  type SubjectState,
} from "./outcome-fold";
import { readLogs, type StoredLog } from "./scan";
import { isoFromSeconds } from "./time";

interface MarketIds {
  /** CTF conditions the outcome decides, where the index can compute them (docs/oracle-indexer.md). */
  condition_ids: Hex[];
  /** A neg-risk adapter's questionID: Gamma's `negRiskRequestID` of the market. */
  neg_risk_request_id: Hex | null;
  /** A NegRiskOperator's questionId: Gamma's `questionID` of the market. */
  neg_risk_question_id: Hex | null;
}
/** A subject's state (an outcome or `none`) with the ids of its markets. */
export type IndexedSubject = SubjectState & MarketIds;
export type IndexedOutcome = QuestionOutcome & MarketIds;

const conditionIdOf = (oracle: Address, questionId: Hex) =>
  keccak256(encodePacked(["address", "bytes32", "uint256"], [getAddress(oracle), questionId, 2n]));

/** The outcomes standing at `polygonBlock`, with the ids of their markets. */
export async function readQuestionOutcomes(ctx: OracleContext, polygonBlock: bigint): Promise<IndexedOutcome[]> {
  return (await readOutcomeSubjects(ctx, polygonBlock)).filter((s): s is IndexedOutcome => s.status !== "none");
}

/** Every subject with an outcome event at `polygonBlock`: its outcome, or `none` when it was lifted or never set. */
export async function readOutcomeSubjects(ctx: OracleContext, polygonBlock: bigint): Promise<IndexedSubject[]> {
  const { config } = ctx;
  const db = await ctx.db();
  const from = config.optimisticOraclesFromBlock;
  const sports = config.sportsOracle;
  const requesters = requesterAddresses(config);
  const requesterEvents = [...polygonEvents.adapterOutcomes, ...polygonEvents.gameReset, ...polygonEvents.sportsOutcomes];
  // The operator's QuestionFlagged / QuestionUnflagged have the adapter's signatures (one topic each).
  const operatorEvents = [
    ...polygonEvents.adapterOutcomes.filter((e) => e.name === "QuestionFlagged" || e.name === "QuestionUnflagged"),
    ...polygonEvents.operatorOutcomes,
  ];
  // The ordinary resolutions (every question the oracle resolved: by far the most logs) only matter to a question that
  // has an event of its own outside the vote: they are read for those questions only.
  const ordinary = requesterEvents.filter((e) => ORDINARY.has(e.name));
  const [signalLogs, operatorLogs, marketLogs] = await Promise.all([
    readLogs(
      db,
      "polygon",
      requesters,
      requesterEvents.filter((e) => !ORDINARY.has(e.name)),
      from,
      polygonBlock,
    ),
    config.negRiskOperators.length ? readLogs(db, "polygon", config.negRiskOperators, operatorEvents, from, polygonBlock) : [],
    sports ? readLogs(db, "polygon", [getAddress(sports)], polygonEvents.marketCreated, from, polygonBlock) : [],
  ]);
  const ownLogs = [...signalLogs, ...(await logsOfSubjects(ctx, requesters, ordinary, signalLogs, from, polygonBlock))];
  const byTopic = new Map([...requesterEvents, ...operatorEvents].map((e) => [toEventSelector(e).toLowerCase(), e.name]));
  const resets = ownLogs.filter((l) => /Reset$/.test(byTopic.get(l.topics[0].toLowerCase()) ?? ""));
  const disputeTxs = await disputeTransactions(
    ctx,
    resets.map((l) => l.transactionHash),
  );
  const toLog =
    (contract: OutcomeContract) =>
    (l: StoredLog): OutcomeLog => {
      const event = byTopic.get(l.topics[0].toLowerCase()) ?? "";
      return {
        contract,
        address: l.address,
        event,
        id: l.topics[1],
        blockNumber: l.blockNumber,
        logIndex: l.logIndex,
        txHash: l.transactionHash,
        at: l.blockTimestamp,
        // The reset of a first dispute runs in the dispute's own transaction (OptimisticOracleV2.disputePriceFor calls
        // the requester's priceDisputed after DisputePrice): that one is the dispute row's, not an outcome of its own.
        inDispute: event.endsWith("Reset") && disputeTxs.has(`${lower(l.transactionHash)}:${lower(l.address)}`),
      };
    };
  const logs = [
    ...ownLogs.map((l) => toLog(sports && lower(l.address) === sports ? "UmaSportsOracle" : "UmaCtfAdapter")(l)),
    ...operatorLogs.map(toLog("NegRiskOperator")),
  ];
  const gameConditions = new Map<string, Hex[]>();
  for (const l of marketLogs) {
    const game = lower(l.topics[2]);
    gameConditions.set(game, [...(gameConditions.get(game) ?? []), l.topics[3]]);
  }
  return foldSubjects(logs).map((o) => withMarketIds(o, ctx, gameConditions));
}

function withMarketIds(o: SubjectState, ctx: OracleContext, gameConditions: Map<string, Hex[]>): IndexedSubject {
  const base = { ...o, condition_ids: [] as Hex[], neg_risk_request_id: null, neg_risk_question_id: null };
  switch (o.subject) {
    case "question":
      // A neg-risk adapter's `ctf` is the operator, whose prepareCondition is a no-op: its markets are keyed by the
      // questionID as Gamma's negRiskRequestID. A standard adapter prepares the condition with itself as oracle.
      return ctx.config.negRiskRequesters.has(lower(o.address))
        ? { ...base, neg_risk_request_id: o.id }
        : { ...base, condition_ids: [conditionIdOf(o.address, o.id)] };
    case "neg_risk_question":
      return { ...base, neg_risk_question_id: o.id, condition_ids: [conditionIdOf(LEGACY_NEG_RISK_ADAPTER, o.id)] };
    case "game":
      return { ...base, condition_ids: gameConditions.get(lower(o.id)) ?? [] };
    case "sports_market":
      // UmaSportsOracle._prepareMarket: keccak256(abi.encodePacked(address(this), marketId, uint256(2))).
      return { ...base, condition_ids: [conditionIdOf(o.address, o.id)] };
  }
}

/** The requester events that only ever end an outcome: the oracle's own resolution of a question or a game. */
const ORDINARY = new Set(["QuestionResolved", "GameSettled"]);

/** `events` of the subjects (first indexed topic) that `logs` name, as readLogs gives them. */
async function logsOfSubjects(
  ctx: OracleContext,
  addresses: readonly Address[],
  events: readonly AbiEvent[],
  logs: readonly StoredLog[],
  from: bigint,
  to: bigint,
): Promise<StoredLog[]> {
  const ids = [...new Set(logs.map((l) => l.topics[1]))];
  if (!ids.length || !events.length) return [];
  const db = await ctx.db();
  const rows = await db.oracleLog.findMany({
    where: {
      chainId: CHAIN_IDS.polygon,
      address: { in: addresses.map((a) => a.toLowerCase()) },
      topic0: { in: events.map((e) => toEventSelector(e)) },
      blockNumber: { gte: from, lte: to },
      // topics[0] is the signature, so an id can only match an indexed argument; the fold keys by topics[1].
      topics: { hasSome: ids },
    },
  });
  return rows
    .filter((r) => ids.includes(r.topics[1] as Hex))
    .map((r) => ({
      blockNumber: r.blockNumber,
      logIndex: r.logIndex,
      address: r.address as Address,
      transactionHash: r.transactionHash as Hex,
      topics: r.topics as Hex[],
      data: r.data as Hex,
      blockTimestamp: r.blockTimestamp,
    }));
}

/** `<tx>:<requester>` of the DisputePrice logs among these transactions (the requester is DisputePrice's first topic). */
async function disputeTransactions(ctx: OracleContext, txs: readonly Hex[]): Promise<Set<string>> {
  if (!txs.length) return new Set();
  const db = await ctx.db();
  const rows = await db.oracleLog.findMany({
    where: {
      chainId: CHAIN_IDS.polygon,
      topic0: toEventSelector(polygonEvents.disputePrice[0]),
      transactionHash: { in: [...new Set(txs)] },
    },
    select: { transactionHash: true, topics: true },
  });
  return new Set(rows.map((r) => `${lower(r.transactionHash)}:${lower(`0x${r.topics[1].slice(26)}`)}`));
}

/** An outcome as the API shows it (a dispute's `question_outcome`, a market resolution's `outcome`). */
export interface OutcomeView {
  status: QuestionOutcome["status"];
  contract: OutcomeContract;
  address: Address;
  event: string;
  at: string | null;
  tx_hash: Hex;
}

export const outcomeView = (o: QuestionOutcome): OutcomeView => ({
  status: o.status,
  contract: o.contract,
  address: getAddress(o.address),
  event: o.event,
  at: o.at === null ? null : isoFromSeconds(o.at),
  tx_hash: o.tx_hash,
});

/** Outcomes by `<emitting contract>:<id>` (lower case): the key a dispute row finds its question's by. */
export function outcomesByKey(outcomes: readonly QuestionOutcome[]): Map<string, QuestionOutcome[]> {
  const map = new Map<string, QuestionOutcome[]>();
  for (const o of outcomes) {
    const key = `${lower(o.address)}:${lower(o.id)}`;
    map.set(key, [...(map.get(key) ?? []), o]);
  }
  return map;
}

/**
 * The outcome standing on a dispute's question: the requester's own (the adapter's question, the sports oracle's
 * game) and, for a neg-risk question, its operator's; the deciding one when both stand.
 */
export function disputeOutcome(
  byKey: Map<string, QuestionOutcome[]>,
  dispute: { requester: string; question_id: string; neg_risk: { operator: string; question_id: string } | null },
): OutcomeView | null {
  const own = (byKey.get(`${lower(dispute.requester)}:${lower(dispute.question_id)}`) ?? []).filter((o) => o.subject !== "sports_market");
  const operator = dispute.neg_risk ? (byKey.get(`${lower(dispute.neg_risk.operator)}:${lower(dispute.neg_risk.question_id)}`) ?? []) : [];
  const deciding = decidingOutcome([...own, ...operator]);
  return deciding ? outcomeView(deciding) : null;
}
