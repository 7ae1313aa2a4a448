// The outcomes outside the vote (lib/oracle/outcomes.ts) joined to the markets the sampler stored, by the ids each
// outcome hashes to (docs/resolution.md, "Outcomes outside the vote"): a standard adapter's condition, a neg-risk
// adapter's questionID as Gamma's negRiskRequestID, a NegRiskOperator's questionId as Gamma's questionID (or its
// condition on the NegRiskAdapter), a sports game's markets (MarketCreated) and a sports market's condition.
// Read from the database only, like the proposals (no upstream read for a long history).
import type { Db } from "@/lib/db/client";
import { decidingOutcome } from "@/lib/oracle/outcome-fold";
import { type IndexedOutcome, type IndexedSubject, type OutcomeView, outcomeView } from "@/lib/oracle/outcomes";
import { marketsByConditionIds, type StoredMarket } from "./market-store";

interface OutcomeOfMarket {
  outcome: OutcomeView;
  /** The deciding outcome as indexed (its subject and id: what the stream keys it by). */
  indexed: IndexedOutcome;
  /** The market's outcome names (labels for `proposed_outcome`). */
  outcomes: string[];
  market: StoredMarket;
}

const low = (s: string | null | undefined) => (s ? s.toLowerCase() : null);

/** Whether the outcome concerns this market, by any of the ids it carries. */
export function outcomeConcerns(
  o: IndexedSubject,
  m: { condition_id: string; questionID?: string | null; negRiskRequestID?: string | null },
) {
  const condition = m.condition_id.toLowerCase();
  return (
    o.condition_ids.some((c) => c.toLowerCase() === condition) ||
    (o.neg_risk_request_id !== null && low(o.neg_risk_request_id) === low(m.negRiskRequestID)) ||
    (o.neg_risk_question_id !== null && low(o.neg_risk_question_id) === low(m.questionID))
  );
}

/** The stored markets any of these subjects concern. */
export function marketsOfSubjects(db: Db, subjects: readonly IndexedSubject[]): Promise<StoredMarket[]> {
  return marketsByConditionIds(
    db,
    [...new Set(subjects.flatMap((o) => o.condition_ids))],
    subjects.flatMap((o) => (o.neg_risk_request_id ? [o.neg_risk_request_id] : [])),
    subjects.flatMap((o) => (o.neg_risk_question_id ? [o.neg_risk_question_id] : [])),
  );
}

/** Each stored market one or more outcomes concern, keyed by lower-case condition id, with the one that decides. */
export async function outcomesByMarket(
  db: Db,
  outcomes: readonly IndexedOutcome[],
  stored?: readonly StoredMarket[],
): Promise<Map<string, OutcomeOfMarket>> {
  if (!outcomes.length) return new Map();
  const markets = stored ?? (await marketsOfSubjects(db, outcomes));
  const out = new Map<string, OutcomeOfMarket>();
  for (const market of markets) {
    const deciding = decidingOutcome(outcomes.filter((o) => outcomeConcerns(o, market)));
    if (!deciding) continue;
    out.set(market.condition_id.toLowerCase(), { outcome: outcomeView(deciding), indexed: deciding, outcomes: market.outcomes, market });
  }
  return out;
}
