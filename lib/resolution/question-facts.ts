// What the stream's question-level transitions say beside each question's outcome (lib/resolution/outcome-
// transitions.ts): the question's latest dispute and its market, joined the way market resolutions are
// (lib/resolution/outcome-markets.ts). Read from the database only; the publisher calls it before its transaction.
import { getAddress, type Hex } from "viem";
import type { Db } from "@/lib/db/client";
import { lower } from "@/lib/oracle/dispute-sources";
import { type IndexedSubject, outcomeView } from "@/lib/oracle/outcomes";
import { isoFromSeconds } from "@/lib/oracle/time";
import { marketsOfSubjects, outcomeConcerns } from "./outcome-markets";
import type { StoredMarket } from "./market-store";
import { type QuestionFacts, questionKey } from "./outcome-transitions";
import type { TransitionMarket } from "./transitions";

/** The fields of a stored dispute row this reads. */
interface DisputeForQuestion {
  id: Hex;
  requester: string;
  question_id: string;
  title: string | null;
  proposed_price: string | null;
  proposed_at: string | null;
  disputed_at: string | null;
  dispute_tx_hash: Hex | null;
  neg_risk?: { operator: string; question_id: string } | null;
  sports?: { markets: { market_id: string }[] } | null;
}

/** Whether a dispute's question is this subject: the requester's own question or game, its operator's, its game's market. */
function disputeIsOf(d: DisputeForQuestion, s: IndexedSubject): boolean {
  const same = (a: string, b: string) => lower(a) === lower(b);
  switch (s.subject) {
    case "question":
    case "game":
      return same(d.requester, s.address) && same(d.question_id, s.id);
    case "neg_risk_question":
      return !!d.neg_risk && same(d.neg_risk.operator, s.address) && same(d.neg_risk.question_id, s.id);
    case "sports_market":
      return same(d.requester, s.address) && (d.sports?.markets ?? []).some((m) => same(m.market_id, s.id));
  }
}

/**
 * Every subject's facts: its latest dispute (newest first in the stored answer) and a market: the dispute's joined
 * one, else the first stored market it concerns, with that market's resolution status after the pass.
 */
export async function questionFactsOf<D extends DisputeForQuestion>(
  db: Db,
  subjects: readonly IndexedSubject[],
  disputes: readonly D[],
  marketOfDispute: (d: D) => TransitionMarket | null,
  statusOf: (conditionId: string) => string,
  stored?: readonly StoredMarket[],
): Promise<QuestionFacts[]> {
  const markets = stored ?? (await marketsOfSubjects(db, subjects));
  return subjects.map((s) => {
    const dispute = disputes.find((d) => disputeIsOf(d, s)) ?? null;
    const own = markets.find((m) => outcomeConcerns(s, m));
    const market =
      (dispute ? marketOfDispute(dispute) : null) ??
      (own
        ? {
            id: own.id,
            condition_id: own.condition_id.toLowerCase(),
            slug: own.slug,
            event_slug: own.event_slug,
            question: own.question,
            resolution_status: statusOf(own.condition_id),
          }
        : null);
    return {
      key: questionKey(s),
      subject: { kind: s.subject, address: getAddress(s.address), id: s.id },
      question_id: s.id,
      status: s.status,
      outcome: s.status === "none" ? null : outcomeView({ ...s, status: s.status }),
      at: s.at === null ? null : isoFromSeconds(s.at),
      dispute: dispute
        ? {
            id: dispute.id,
            title: dispute.title,
            proposed_price: dispute.proposed_price,
            proposed_at: dispute.proposed_at,
            disputed_at: dispute.disputed_at,
            dispute_tx_hash: dispute.dispute_tx_hash,
          }
        : null,
      market,
    };
  });
}
