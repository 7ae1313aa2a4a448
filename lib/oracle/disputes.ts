// Disputed Polymarket questions with cleartext titles and lifecycle status, built by the indexer in named steps:
//   1. readDisputeSources: the indexed logs, decoded (dispute-sources.ts);
//   2. linkPolygonDisputes: (A) DisputePrice logs of the Polygon Optimistic Oracles whose requester is a Polymarket
//      adapter (their ancillary data is the question's cleartext), each linked to its DVM request through the
//      PriceRequestBridged log of the same transaction: a compressed one by parentRequestId, a legacy one by its exact
//      request id, i.e. on identifier, time and text (a question disputed twice is re-asked with the same text, only
//      its time differs);
//   3. recoverMainnetOnly: (B) DVM requests not linked above: bridged Polymarket questions whose Polygon origin lies
//      outside the scan (compressed: found through the child tunnel; legacy: the text is on mainnet);
//   4. readContractStates: OOv2.getState on Polygon and VotingV2.getPriceRequestStatuses on mainnet, one sub-call per
//      request in bounded batches, except for requests the index knows to be terminal (settled / resolved: by their
//      Settle or RequestResolved log or an earlier read, lib/oracle/request-state.ts), which are never read again; a
//      failed sub-call degrades its row (`unread`), never the answer;
//   5. toDisputedAssertion: the lifecycle and the response row.
import { type Address, formatUnits, getAddress, type Hex, keccak256 } from "viem";
import { optimisticOracleV2Abi, votingV2Abi } from "./abi";
import {
  adapterAncillaryData,
  decodeAncillaryData,
  decodeIdentifier,
  dvmRequestId,
  legacyBridgedAncillaryData,
  optimisticOracleRequestId,
  parseCompressed,
  parsePolymarketText,
  stampAncillaryData,
} from "./ancillary";
import type { OracleContext } from "./context";
import {
  type BridgedEntry,
  type DisputeSources,
  type DvmRequest,
  findOriginOfCompressed,
  lower,
  type Origin,
  type Pairing,
  pairByIdentity,
  readDisputeSources,
  resetKey,
  tunnelIdentity,
} from "./dispute-sources";
import {
  type DisputeStatus,
  disputeLifecycle,
  dvmStatusEnumName,
  type DvmStatusName,
  dvmStatusName,
  type OoStateName,
  ooStateName,
  type VotePhase,
} from "./lifecycle";
import { boundedMulticall, type CallOutcome, required } from "./multicall";
import { type NegRiskLink, readNegRiskLinks, type SportsLink, sportsLink } from "./market-links";
import { disputeOutcome, outcomesByKey, type OutcomeView, readQuestionOutcomes } from "./outcomes";
import { knownStates, recordStates } from "./request-state";
import { readSnapshot } from "./snapshots";
import type { ChainHead } from "./scan";
import { isoFromSeconds } from "./time";

interface Row {
  origin: Origin | null;
  /** The requester's own ancillary data (without UMA's stamps): its keccak256 is Polymarket's questionID. */
  ancillary: Hex;
  /** Cleartext question as the OO requester wrote it (or, for a legacy-only row, as mainnet carries it). */
  text: string;
  requester: Address;
  identifier: Hex;
  dvm: DvmRequest | null;
  disputedAt: bigint | null;
  /** The adapter reset the question in the dispute's own transaction (a first dispute: UmaCtfAdapter.priceDisputed). */
  reset: boolean;
}

type UnreadState = "oo_state" | "dvm_status";

export interface DisputedAssertion {
  id: Hex;
  /** Polymarket's questionID: keccak256 of the adapter's ancillary data (docs/resolution.md). */
  question_id: Hex;
  title: string | null;
  description: string | null;
  market_id: string | null;
  status: DisputeStatus;
  /** UMA's own name of the Polygon request's state (OptimisticOracleV2Interface.State) as read; null when unknown. */
  oo_state: OoStateName | null;
  /** UMA's own name of the DVM request's status (VotingV2.RequestStatus) as read; null when not bridged or unread. */
  dvm_status: DvmStatusName | null;
  vote_phase: VotePhase | null;
  /** How many times the DVM request rolled, as VotingV2 counts it (`_getActualRollCount`; docs/oracle-indexer.md). */
  roll_count: number;
  /**
   * The adapter reset the question in this dispute's transaction (its first dispute: UmaCtfAdapter.priceDisputed asks
   * again with a new request). The market then resolves from that new request; this dispute's vote decides the bonds.
   */
  question_reset: boolean;
  /**
   * What the question's own contracts decided outside the vote and still stands (an admin's resolution, a flag, a
   * pause, a reset outside a dispute: lib/oracle/outcome-fold.ts), else null. The row's `status` stays its request's.
   */
  question_outcome: OutcomeView | null;
  requester: Address;
  proposer: Address | null;
  disputer: Address | null;
  proposed_price: string | null;
  identifier: string;
  requested_at: string | null;
  /** When the proposal was made: the DVM request's time (OOv2 votes an event-based request at its proposal time). */
  proposed_at: string | null;
  disputed_at: string | null;
  chain: "polygon";
  oracle_address: Address | null;
  dispute_tx_hash: Hex | null;
  dvm: {
    request_id: Hex;
    status: ReturnType<typeof dvmStatusName> | "deleted";
    round_id: number | null;
    ancillary_form: "compressed" | "legacy";
  } | null;
  /** The neg-risk question a NegRiskOperator prepared for this questionID (neg-risk adapters only), else null. */
  neg_risk: NegRiskLink | null;
  /** The sports oracle's game (its gameId is `question_id`) and the markets it decides, else null. */
  sports: SportsLink | null;
  /** Contract states that could not be read for this row; its status is then the best the other reads allow. */
  unread: UnreadState[];
}

export interface DisputesSnapshot {
  disputes: DisputedAssertion[];
  blockNumbers: { ethereum: bigint; polygon: bigint };
  asOf: bigint;
  degradedRows: number;
}

function linkPolygonDisputes(ctx: OracleContext, sources: DisputeSources, linked: Set<string>): Row[] {
  // Legacy mainnet requests by identifier and cleartext: the fallback when a dispute's bridging log is not indexed.
  const legacyByText = new Map<string, DvmRequest[]>();
  for (const dvm of sources.dvmById.values()) {
    if (dvm.form !== "legacy") continue;
    const key = `${dvm.identifier}:${lower(dvm.ancillaryData)}`;
    legacyByText.set(key, [...(legacyByText.get(key) ?? []), dvm]);
  }
  const rows: Row[] = [];
  for (const origin of sources.origins) {
    if (!ctx.config.polymarketRequesters.has(lower(origin.args.requester))) continue;
    const { identifier, timestamp, ancillaryData, requester } = origin.args;
    const stamped = stampAncillaryData(ancillaryData, requester);
    const legacyText = legacyBridgedAncillaryData(stamped, origin.oracle);
    // The bridging log of this dispute's own call, paired by identity (it precedes the DisputePrice on chain).
    const bridged =
      sources.bridgeOf.get(origin) ?? (sources.pair === pairByIdentity ? alreadyBridged(sources, origin, stamped) : undefined);
    let dvm: DvmRequest | null = null;
    if (bridged) {
      // The bridging log of the dispute's own transaction carries the DVM time (the proposal time for Polymarket's
      // event-based requests). Compressed (since 2025-04): its parentRequestId. Legacy tunnel: mainnet got the
      // stamped text plus its origin, in cleartext, at that time, so the exact request id is known.
      dvm =
        sources.dvmById.get(lower(bridged.args.parentRequestId)) ??
        sources.dvmById.get(lower(dvmRequestId(identifier, bridged.args.time, legacyText))) ??
        null;
    } else {
      // No bridging log: a question disputed twice is re-asked with the same text, so the text alone is ambiguous.
      // Its DVM time is its proposal time, which lies between its own request time and the next request's: take
      // the earliest legacy request with this text at or after the request time.
      const candidates = (legacyByText.get(`${identifier}:${lower(legacyText)}`) ?? []).filter((d) => d.time >= timestamp);
      dvm = candidates.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0))[0] ?? null;
    }
    if (dvm) linked.add(lower(dvm.id));
    rows.push({
      origin,
      ancillary: ancillaryData,
      text: decodeAncillaryData(ancillaryData),
      requester,
      identifier,
      dvm,
      disputedAt: origin.disputedAt,
      reset: sources.resets.has(resetKey(origin.txHash, requester, ancillaryData)),
    });
  }
  return rows;
}

/**
 * The bridging log of an earlier call for a dispute whose own call bridged nothing: OracleChildTunnel.requestPrice
 * returns before emitting anything when the child request (identifier, DVM time, stamped text) was already requested
 * or resolved, so the dispute shares that request. Candidates carry the same tunnel key, were bridged no later than
 * the dispute and voted at or after its request time (the DVM time of an event-based request is its proposal time);
 * the latest such is the one (a reset question's requests are proposed at different times unless in one block).
 */
function alreadyBridged(sources: DisputeSources, origin: Origin, stamped: Hex): BridgedEntry | undefined {
  const candidates = (sources.bridgedByIdentity.get(tunnelIdentity(origin.oracle, origin.args.identifier, stamped)) ?? []).filter(
    (b) => b.args.time >= origin.args.timestamp && (origin.blockNumber === undefined || b.log.blockNumber <= origin.blockNumber),
  );
  return candidates.sort((a, b) => (a.args.time === b.args.time ? 0 : a.args.time < b.args.time ? 1 : -1))[0];
}

async function recoverMainnetOnly(ctx: OracleContext, sources: DisputeSources, linked: Set<string>): Promise<Row[]> {
  const rows: Row[] = [];
  for (const dvm of sources.dvmById.values()) {
    if (linked.has(lower(dvm.id))) continue;
    const text = decodeAncillaryData(dvm.ancillaryData);
    const ref = parseCompressed(text);
    if (ref) {
      if (ref.childChainId !== 137) continue;
      const found = await findOriginOfCompressed(ctx, dvm, ref, sources);
      if (!found) continue;
      const stampedText = decodeAncillaryData(found.bridged.ancillaryData);
      const requester = parsePolymarketText(stampedText).ooRequester;
      if (!requester || !ctx.config.polymarketRequesters.has(lower(requester))) continue;
      const questionText = found.origin ? decodeAncillaryData(found.origin.args.ancillaryData) : stampedText;
      rows.push({
        origin: found.origin,
        ancillary: found.origin ? found.origin.args.ancillaryData : adapterAncillaryData(found.bridged.ancillaryData),
        text: questionText,
        requester,
        identifier: found.bridged.identifier,
        dvm,
        disputedAt: found.disputedAt,
        reset: found.origin ? sources.resets.has(resetKey(found.origin.txHash, requester, found.origin.args.ancillaryData)) : false,
      });
    } else {
      const parsed = parsePolymarketText(text);
      if (parsed.childChainId !== 137 || !parsed.ooRequester || !ctx.config.polymarketRequesters.has(lower(parsed.ooRequester))) continue;
      const ancillary = adapterAncillaryData(dvm.ancillaryData);
      rows.push({
        origin: null,
        ancillary,
        text,
        requester: parsed.ooRequester,
        identifier: dvm.identifier,
        dvm,
        disputedAt: null,
        reset: false,
      });
    }
  }
  return rows;
}

interface ContractStates {
  oo: Map<Row, CallOutcome>;
  dvm: Map<Row, CallOutcome>;
  phase: VotePhase;
  currentRoundId: number;
}

const ooIdOf = (r: Row) => {
  const a = r.origin!.args;
  return optimisticOracleRequestId(a.requester, a.identifier, a.timestamp, a.ancillaryData).toLowerCase();
};

/** Reads the states of the rows' requests at the heads, except those the index already knows to be terminal. */
async function readContractStates(ctx: OracleContext, rows: Row[], heads: { ethereum: bigint; polygon: bigint }): Promise<ContractStates> {
  const db = await ctx.db();
  const withOrigin = rows.filter((r) => r.origin);
  const dvmRows = rows.filter((r) => r.dvm && !r.dvm.deleted);
  const [knownOo, knownDvm] = await Promise.all([
    knownStates(db, "polygon", withOrigin.map(ooIdOf)),
    knownStates(
      db,
      "ethereum",
      dvmRows.map((r) => r.dvm!.id),
    ),
  ]);
  const ooToRead = withOrigin.filter((r) => !knownOo.get(ooIdOf(r))?.terminal);
  const dvmToRead = dvmRows.filter((r) => !knownDvm.get(lower(r.dvm!.id))?.terminal);
  const [ooStates, dvmReads] = await Promise.all([
    boundedMulticall(
      ctx.clients.polygon,
      "polygon",
      ooToRead.map((r) => {
        const a = r.origin!.args;
        return {
          address: r.origin!.oracle,
          abi: optimisticOracleV2Abi,
          functionName: "getState",
          args: [a.requester, a.identifier, a.timestamp, a.ancillaryData],
        };
      }),
      { blockNumber: heads.polygon },
    ),
    boundedMulticall(
      ctx.clients.ethereum,
      "ethereum",
      [
        { address: ctx.config.votingV2, abi: votingV2Abi, functionName: "getVotePhase" },
        { address: ctx.config.votingV2, abi: votingV2Abi, functionName: "getCurrentRoundId" },
        // One request per sub-call: a long pre-2025 text in one request cannot take the others' statuses down.
        ...dvmToRead.map((r) => ({
          address: ctx.config.votingV2,
          abi: votingV2Abi,
          functionName: "getPriceRequestStatuses",
          args: [[{ identifier: r.dvm!.identifier, time: r.dvm!.time, ancillaryData: r.dvm!.ancillaryData }]],
        })),
      ],
      { blockNumber: heads.ethereum },
    ),
  ]);
  const phase = required<number>(dvmReads[0], "getVotePhase()", "ethereum");
  const currentRoundId = Number(required<number>(dvmReads[1], "getCurrentRoundId()", "ethereum"));
  const oo = new Map<Row, CallOutcome>(ooToRead.map((r, i) => [r, ooStates[i]]));
  const dvm = new Map<Row, CallOutcome>(
    dvmToRead.map((r, i): [Row, CallOutcome] => {
      const read = dvmReads[2 + i];
      return [r, read.ok ? { ok: true, value: (read.value as readonly unknown[])[0] } : read];
    }),
  );
  for (const r of withOrigin) if (!oo.has(r)) oo.set(r, { ok: true, value: knownOo.get(ooIdOf(r))!.state });
  for (const r of dvmRows) {
    if (dvm.has(r)) continue;
    const k = knownDvm.get(lower(r.dvm!.id))!;
    dvm.set(r, { ok: true, value: { status: k.state, lastVotingRound: k.round ?? 0 } });
  }
  await Promise.all([
    recordStates(
      db,
      "polygon",
      heads.polygon,
      ooToRead
        .filter((r) => oo.get(r)!.ok)
        .map((r) => ({ id: ooIdOf(r), state: Number((oo.get(r) as { value: unknown }).value), round: null })),
      knownOo,
    ),
    recordStates(
      db,
      "ethereum",
      heads.ethereum,
      dvmToRead
        .filter((r) => dvm.get(r)!.ok)
        .map((r) => {
          const v = (dvm.get(r) as { value: { status: number; lastVotingRound: number } }).value;
          return { id: r.dvm!.id, state: Number(v.status), round: Number(v.lastVotingRound) };
        }),
      knownDvm,
    ),
  ]);
  return { oo, dvm, phase: Number(phase) === 1 ? "reveal" : "commit", currentRoundId };
}

/**
 * How many times a DVM request rolled, as VotingV2 counts it: `_getActualRollCount` = the stored rollCount plus the
 * rounds passed since its last voting round when that round is over. The stored count is the highest its RequestRolled
 * / RequestDeleted logs carry (each log carries the running count: `rollCount += currentRoundId - lastVotingRound`,
 * VotingV2 `_processResolvablePriceRequests`). For a request up for vote now, getPendingRequests' rollCount is that
 * actual count (`pending`). A request whose round passed unprocessed (ToDelete, or Active without a pending read) adds
 * the rounds since: getPriceRequestStatuses gives the stored last voting round for every status but Active (for Active
 * it answers the current round), and without it the round its RequestAdded log named plus the logged rolls stands in.
 * Resolved and Future requests have no unprocessed rolls; a deleted one's RequestDeleted carries the final count.
 */
function actualRollCount(
  dvm: Pick<DvmRequest, "addedRound" | "rolledLogs" | "deleted">,
  read: { status: number; lastVotingRound: number } | null,
  currentRoundId: number,
  pending: number | undefined,
): number {
  if (pending !== undefined) return Math.max(pending, dvm.rolledLogs);
  if (dvm.deleted || !read) return dvm.rolledLogs;
  const storedLastRound = read.status === 4 ? read.lastVotingRound : dvm.addedRound + dvm.rolledLogs;
  const unprocessed = read.status === 4 || read.status === 1 ? Math.max(0, currentRoundId - storedLastRound) : 0;
  return dvm.rolledLogs + unprocessed;
}

interface Links {
  negRisk: Map<string, NegRiskLink>;
  sportsMarkets: DisputeSources["sportsMarkets"];
  sportsOracle: string | null;
}

function toDisputedAssertion(row: Row, states: ContractStates, rollCounts: Map<string, number>, links: Links): DisputedAssertion | null {
  const unread: UnreadState[] = [];
  const ooRead = row.origin ? states.oo.get(row)! : null;
  if (ooRead && !ooRead.ok) unread.push("oo_state");
  const dvmRead = states.dvm.get(row) ?? null;
  if (dvmRead && !dvmRead.ok) unread.push("dvm_status");
  const dvmState = dvmRead?.ok ? (dvmRead.value as { status: number; lastVotingRound: number }) : null;
  // An unread OO state is taken as Disputed (the log says it was) and marked; an unread DVM status as unknown.
  const ooState = row.origin ? (ooRead?.ok ? Number(ooRead.value) : 4) : null;
  const read = disputeLifecycle(ooState, dvmState ? Number(dvmState.status) : null, states.phase);
  if (!read) return null;
  // A DVM request deleted past maxRolls (its RequestDeleted log) never gets a price: the dispute ends there, while the
  // OO still reads Disputed (docs/oracle-facts.md, "Vocabulary").
  const deleted = row.dvm?.deleted === true && read.status !== "settled" && read.status !== "resolved";
  const lifecycle = deleted ? { status: "deleted" as const, vote_phase: null } : read;
  const question = parsePolymarketText(row.text);
  const o = row.origin;
  const dvmId = row.dvm ? lower(row.dvm.id) : null;
  return {
    id: o ? optimisticOracleRequestId(o.args.requester, o.args.identifier, o.args.timestamp, o.args.ancillaryData) : row.dvm!.id,
    question_id: keccak256(row.ancillary),
    title: question.title,
    description: question.description,
    market_id: question.marketId,
    ...lifecycle,
    oo_state: ooRead?.ok ? ooStateName(Number(ooRead.value)) : null,
    dvm_status: dvmState ? dvmStatusEnumName(Number(dvmState.status)) : null,
    roll_count: row.dvm ? actualRollCount(row.dvm, dvmState, states.currentRoundId, rollCounts.get(dvmId!)) : 0,
    question_reset: row.reset,
    question_outcome: null,
    requester: getAddress(row.requester),
    proposer: o ? getAddress(o.args.proposer) : null,
    disputer: o ? getAddress(o.args.disputer) : null,
    proposed_price: o ? formatUnits(o.args.proposedPrice, 18) : null,
    identifier: decodeIdentifier(row.identifier),
    requested_at: o ? isoFromSeconds(o.args.timestamp) : null,
    // Polymarket's adapter makes every request event-based (UmaCtfAdapter._requestPrice setEventBased), and OOv2
    // sends an event-based dispute to the DVM at the proposal time (OptimisticOracleV2._getTimestampForDvmRequest).
    proposed_at: row.dvm ? isoFromSeconds(row.dvm.time) : null,
    disputed_at: row.disputedAt != null ? isoFromSeconds(row.disputedAt) : null,
    chain: "polygon",
    oracle_address: o ? o.oracle : null,
    dispute_tx_hash: o ? o.txHash : null,
    dvm: row.dvm
      ? {
          request_id: row.dvm.id,
          status: row.dvm.deleted ? "deleted" : dvmStatusName(dvmState ? Number(dvmState.status) : null),
          round_id: dvmState && dvmState.lastVotingRound > 0 ? Number(dvmState.lastVotingRound) : null,
          ancillary_form: row.dvm.form,
        }
      : null,
    neg_risk: links.negRisk.get(lower(keccak256(row.ancillary))) ?? null,
    sports: lower(row.requester) === links.sportsOracle ? sportsLink(keccak256(row.ancillary), links.sportsMarkets) : null,
    unread,
  };
}

/**
 * Builds /disputes at the indexed heads. `rollCounts` are the true roll counts of the requests up for vote now
 * (getPendingRequests, read for the summary at the same Ethereum block).
 */
export async function loadDisputes(
  ctx: OracleContext,
  heads: { ethereum: ChainHead; polygon: ChainHead },
  rollCounts: Map<string, number>,
  /** The pairing rule (the real one by default); another rule also skips the tunnel's once-only link (the bench's "before"). */
  pairing?: Pairing,
): Promise<DisputesSnapshot> {
  const blocks = { ethereum: heads.ethereum.number, polygon: heads.polygon.number };
  const sources = await readDisputeSources(ctx, blocks, pairing);
  const linked = new Set<string>();
  const rows = [...linkPolygonDisputes(ctx, sources, linked), ...(await recoverMainnetOnly(ctx, sources, linked))];
  const states = await readContractStates(ctx, rows, blocks);
  // Neg-risk links found once are kept from the previous answer (a prepared question never changes).
  const previous = await readSnapshot<{ data: { question_id: string; neg_risk?: NegRiskLink | null }[]; meta: object }>(ctx, "disputes");
  const known = new Map((previous?.body.data ?? []).filter((d) => d.neg_risk).map((d) => [lower(d.question_id), d.neg_risk!] as const));
  const negRiskIds = rows.filter((r) => ctx.config.negRiskRequesters.has(lower(r.requester))).map((r) => keccak256(r.ancillary));
  const links: Links = {
    negRisk: await readNegRiskLinks(ctx, negRiskIds, blocks.polygon, known),
    sportsMarkets: sources.sportsMarkets,
    sportsOracle: ctx.config.sportsOracle,
  };
  const outcomes = outcomesByKey(await readQuestionOutcomes(ctx, blocks.polygon));
  const disputes = rows
    .map((row) => toDisputedAssertion(row, states, rollCounts, links))
    .filter((d): d is DisputedAssertion => d !== null)
    .map((d) => ({ ...d, question_outcome: disputeOutcome(outcomes, d) }));
  // Newest dispute first; rows without a known dispute time (legacy mainnet-only) last.
  disputes.sort((a, b) => (b.disputed_at ?? "").localeCompare(a.disputed_at ?? ""));
  return {
    disputes,
    blockNumbers: blocks,
    asOf: heads.ethereum.timestamp,
    degradedRows: disputes.filter((d) => d.unread.length > 0).length,
  };
}
