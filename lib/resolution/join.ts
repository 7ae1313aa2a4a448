// The dispute -> market join (docs/resolution.md, "The join, step by step"). Pure: a dispute's ancillary data and
// requester, and the markets we know, in; the market with how it was found, or why none was, out.
//   1. questionID = keccak256(the adapter's ancillary data)
//   2. standard market: Gamma `questionID` == questionID, or `conditionId` == keccak(adapter, questionID, 2)
//   3. neg-risk market: Gamma `negRiskRequestID` == questionID, or the NegRiskOperator's questionIds(questionID) (the
//      oracle index reads both operators) gives the neg-risk questionId, whose conditionId is keccak(nrAdapter, it, 2)
//   4. sports: the game's markets (the sports oracle's MarketCreated logs), by condition id, winner first
// The question text's `market_id:` is never used to join: UmaCtfAdapter.initialize is open to anyone, so a text can
// name any market; only ids that hash from the exact bytes are proof.
import type { Address, Hex } from "viem";
import { adapterAncillaryData, adapterKind, conditionIdOf, questionIdOf } from "./ids";
import type { NegRiskLink } from "./neg-risk";

/** The Gamma fields the join reads (strings as Gamma sends them; absent or "" when Gamma has none). */
export interface JoinableMarket {
  id: string;
  conditionId: string;
  questionID?: string | null;
  negRiskRequestID?: string | null;
}

export type JoinMethod = "question_id" | "condition_id" | "neg_risk_request_id" | "neg_risk_operator" | "sports_game";
export type JoinMiss = "no_question_text" | "legacy_adapter" | "not_listed";

interface DisputeJoinKey {
  /** keccak256 of the adapter's ancillary data (questionIdFromAncillary); null when the text is unknown. */
  questionId: Hex | null;
  /** The OO requester (the UMA CTF adapter). */
  requester: Address;
  /** What a NegRiskOperator prepared for this questionID, as the oracle index read it (its row's `neg_risk`). */
  negRisk?: { question_id: string; condition_ids: string[] } | null;
  /** The sports oracle's markets of this game, as the oracle index read them (its row's `sports`), winner first. */
  sports?: { markets: { condition_id: string; market_type: string }[] } | null;
}

/** The join key of an oracle dispute row (lib/oracle/disputes.ts): its questionID, requester and market links. */
export function joinKeyOf(d: {
  question_id: Hex | null;
  requester: Address;
  neg_risk?: DisputeJoinKey["negRisk"];
  sports?: DisputeJoinKey["sports"];
}): DisputeJoinKey {
  return { questionId: d.question_id, requester: d.requester, negRisk: d.neg_risk ?? null, sports: d.sports ?? null };
}

/** The questionID of a request from its ancillary data in any form it reaches us in (raw, stamped, legacy bridged). */
export function questionIdFromAncillary(ancillaryData: Hex): Hex {
  return questionIdOf(adapterAncillaryData(ancillaryData));
}

interface JoinIds {
  question_id: Hex | null;
  /** The CTF condition the question resolves, when it can be computed without the market (else null). */
  condition_id: Hex | null;
}
type JoinResult<M> = JoinIds & ({ market: M; method: JoinMethod } | { market: null; reason: JoinMiss });

interface MarketIndex<M extends JoinableMarket> {
  byQuestionId: Map<string, M>;
  byConditionId: Map<string, M>;
  byNegRiskRequestId: Map<string, M>;
}

const key = (value: string | null | undefined) => (value ? value.toLowerCase() : null);

export function indexMarkets<M extends JoinableMarket>(markets: Iterable<M>): MarketIndex<M> {
  const index: MarketIndex<M> = { byQuestionId: new Map(), byConditionId: new Map(), byNegRiskRequestId: new Map() };
  for (const market of markets) {
    const q = key(market.questionID);
    const c = key(market.conditionId);
    const r = key(market.negRiskRequestID);
    if (q) index.byQuestionId.set(q, market);
    if (c) index.byConditionId.set(c, market);
    if (r) index.byNegRiskRequestId.set(r, market);
  }
  return index;
}

/**
 * @param negRiskLinks requestId (lowercase) -> neg-risk question, from the operator's events
 *   (lib/resolution/neg-risk.ts linkRequestsToQuestions); empty when the index has not read them.
 */
export function joinDisputeToMarket<M extends JoinableMarket>(
  dispute: DisputeJoinKey,
  index: MarketIndex<M>,
  negRiskLinks: ReadonlyMap<string, NegRiskLink> = new Map(),
): JoinResult<M> {
  const kind = adapterKind(dispute.requester);
  const questionId = dispute.questionId;
  if (!questionId) return { market: null, reason: "no_question_text", question_id: null, condition_id: null };
  const link = negRiskLinks.get(questionId.toLowerCase()) ?? null;
  // A neg-risk adapter's own "condition" is never prepared (the operator's prepareCondition is a no-op).
  const conditionId = link ? link.conditionId : kind === "neg_risk" ? null : conditionIdOf(dispute.requester, questionId);
  const ids: JoinIds = { question_id: questionId, condition_id: conditionId };
  const found = (market: M | undefined, method: JoinMethod): JoinResult<M> | null => (market ? { ...ids, market, method } : null);
  const firstFound = (conditionIds: readonly string[], method: JoinMethod) =>
    conditionIds.reduce<JoinResult<M> | null>((hit, c) => hit ?? found(index.byConditionId.get(c.toLowerCase()), method), null);
  const q = questionId.toLowerCase();
  // The operator's question as the oracle index read it (questionIds(questionID)), with its condition ids.
  const operated = dispute.negRisk
    ? (found(index.byQuestionId.get(dispute.negRisk.question_id.toLowerCase()), "neg_risk_operator") ??
      firstFound(dispute.negRisk.condition_ids, "neg_risk_operator"))
    : null;
  // A sports game decides several markets: the winner market first, then spreads and totals.
  const order = ["winner", "spreads", "totals"];
  const game = dispute.sports
    ? firstFound(
        [...dispute.sports.markets].sort((a, b) => order.indexOf(a.market_type) - order.indexOf(b.market_type)).map((m) => m.condition_id),
        "sports_game",
      )
    : null;
  const joined =
    found(index.byQuestionId.get(q), "question_id") ??
    found(index.byNegRiskRequestId.get(q), "neg_risk_request_id") ??
    (link
      ? (found(index.byQuestionId.get(link.questionId.toLowerCase()), "neg_risk_operator") ??
        found(index.byConditionId.get(link.conditionId), "neg_risk_operator"))
      : null) ??
    operated ??
    game ??
    (conditionId ? found(index.byConditionId.get(conditionId.toLowerCase()), "condition_id") : null);
  if (joined) return joined;
  // The first adapter's questionID is not a hash of the text (docs/resolution.md, "What cannot be known").
  return { ...ids, market: null, reason: kind === "legacy" ? "legacy_adapter" : "not_listed" };
}
