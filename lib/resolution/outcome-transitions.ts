// The `resolution` topic's question-level transitions, pure part (docs/stream.md, "Resolution"): each question's
// outcome outside the vote after a pass (lib/oracle/outcome-fold.ts), diffed against the state last published for it,
// gives one transition per question whose outcome moved: to the new outcome, or to `none` when it was lifted
// (unflagged, unpaused, or resolved through the oracle after a reset). A question never in an outcome says nothing.
import type { Hex } from "viem";
import type { OutcomeSubject, QuestionOutcomeStatus } from "@/lib/oracle/outcome-fold";
import type { OutcomeView } from "@/lib/oracle/outcomes";
import type { PassFacts, PublishedState, TransitionBase, TransitionMarket } from "./transitions";

/** Which question: the contract whose events decide it, what it keys (a question, a game, …) and its id there. */
export interface QuestionSubject {
  kind: OutcomeSubject;
  address: string;
  id: Hex;
}

/** The stream state key of a question (its emitting contract, subject and id), beside the disputes' ids. */
export const questionKey = (o: { address: string; subject?: string; kind?: string; id: string }) =>
  `question:${o.address.toLowerCase()}:${o.subject ?? o.kind}:${o.id.toLowerCase()}`;

export type QuestionStatus = QuestionOutcomeStatus | "none";

/** One question's state after the pass, with what the stream says beside it. */
export interface QuestionFacts {
  key: string;
  subject: QuestionSubject;
  question_id: Hex;
  status: QuestionStatus;
  /** The standing outcome (null for `none`). */
  outcome: OutcomeView | null;
  /** Block time of the event that set the state (the outcome's, or the one that lifted it). */
  at: string | null;
  /** The question's latest dispute, when it has one. */
  dispute: {
    id: Hex;
    title: string | null;
    proposed_price: string | null;
    proposed_at: string | null;
    disputed_at: string | null;
    dispute_tx_hash: Hex | null;
  } | null;
  market: TransitionMarket | null;
}

export interface QuestionState {
  status: QuestionStatus;
  vote_phase: null;
  round_id: null;
  roll_count: 0;
}

/** A question's transition: the dispute transition's fields (TransitionBase), keyed by the question, with its outcome. */
export interface QuestionTransition extends TransitionBase {
  scope: "question";
  subject: QuestionSubject;
  dispute_id: Hex | null;
  question_id: Hex;
  transition: QuestionStatus;
  from: QuestionState | null;
  to: QuestionState;
  /** The outcome now standing: the contract, its event and transaction (null when lifted). */
  outcome: OutcomeView | null;
}

const questionState = (status: QuestionStatus): QuestionState => ({ status, vote_phase: null, round_id: null, roll_count: 0 });

/** The question-level transitions from `published` to `questions`, in the order their events happened. */
export function diffOutcomes(
  questions: readonly QuestionFacts[],
  published: ReadonlyMap<string, PublishedState | { status: string; block_number: number | null; polygon_block_number: number | null }>,
  facts: Omit<PassFacts, "rounds">,
): QuestionTransition[] {
  const out: QuestionTransition[] = [];
  const ordered = [...questions].sort((a, b) => (a.at ?? "").localeCompare(b.at ?? "") || a.key.localeCompare(b.key));
  const seen = new Set<string>();
  for (const q of ordered) {
    if (seen.has(q.key)) continue;
    seen.add(q.key);
    const before = published.get(q.key);
    // Unchanged, or never in an outcome (a question resolved through the oracle is `none` from the start).
    if ((before?.status ?? "none") === q.status) continue;
    out.push({
      scope: "question",
      subject: q.subject,
      dispute_id: q.dispute?.id ?? null,
      question_id: q.question_id,
      title: q.dispute?.title ?? null,
      transition: q.status,
      from: before ? questionState(before.status as QuestionStatus) : null,
      to: questionState(q.status),
      at: q.at,
      block_number: facts.block_number,
      polygon_block_number: facts.polygon_block_number,
      since_block_number: before?.block_number ?? null,
      since_polygon_block_number: before?.polygon_block_number ?? null,
      observed_at: facts.as_of,
      proposed_price: q.dispute?.proposed_price ?? null,
      proposed_at: q.dispute?.proposed_at ?? null,
      disputed_at: q.dispute?.disputed_at ?? null,
      dispute_tx_hash: q.dispute?.dispute_tx_hash ?? null,
      outcome: q.outcome,
      market: q.market,
    });
  }
  return out;
}
