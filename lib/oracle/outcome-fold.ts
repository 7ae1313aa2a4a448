// Outcomes outside the vote, pure part: the Polymarket contracts' own events on a question, folded in chain order into
// the state the contract holds, following each function line by line (docs/oracle-facts.md, "Outcomes outside the
// vote"). A question's outcome is what stands after its last event: an admin's resolution, a flag, a pause, or a new
// request asked outside a dispute (a reset). The OO and the DVM decide everything else (lib/oracle/lifecycle.ts).
import type { Address, Hex } from "viem";

/** The lifecycle values decided outside the vote, in the contracts' own words. */
export const QUESTION_OUTCOMES = [
  "reset",
  "flagged",
  "paused",
  "manually_resolved",
  "emergency_resolved",
  "emergency_settled",
  "canceled",
] as const;
export type QuestionOutcomeStatus = (typeof QUESTION_OUTCOMES)[number];

export type OutcomeContract = "UmaCtfAdapter" | "NegRiskOperator" | "UmaSportsOracle";
/** question: an adapter's questionID; neg_risk_question: an operator's questionId; game / sports_market: the sports oracle's. */
export type OutcomeSubject = "question" | "neg_risk_question" | "game" | "sports_market";

/** One stored log of an outcome event, decoded to what the fold needs. */
export interface OutcomeLog {
  contract: OutcomeContract;
  address: Address;
  event: string;
  /** The first indexed topic: the questionID, questionId, gameId or marketId. */
  id: Hex;
  blockNumber: bigint;
  logIndex: number;
  txHash: Hex;
  at: bigint | null;
  /** A reset inside a dispute's transaction (priceDisputed): the dispute row carries it (`question_reset`). */
  inDispute?: boolean;
}

export interface QuestionOutcome {
  subject: OutcomeSubject;
  contract: OutcomeContract;
  /** The contract that emitted the event (lower case). */
  address: Address;
  id: Hex;
  status: QuestionOutcomeStatus;
  /** The event that put the question in this state, e.g. `QuestionManuallyResolved`. */
  event: string;
  at: bigint | null;
  block_number: bigint;
  tx_hash: Hex;
}

interface State {
  subject: OutcomeSubject;
  flagged: OutcomeLog | null;
  paused: OutcomeLog | null;
  reset: OutcomeLog | null;
  /** A resolution: by an admin (its status) or through the oracle (`oracle`: the ordinary path, no outcome of ours). */
  final: { status: QuestionOutcomeStatus | "oracle"; log: OutcomeLog } | null;
}

type Step = (s: State, log: OutcomeLog) => void;

// Each step is the storage write of the named function (sources: sim/chain/SOURCES.md, docs/oracle-facts.md).
const ADAPTER: Record<string, Step> = {
  // UmaCtfAdapter.flag: manualResolutionTimestamp set and `paused = true`.
  QuestionFlagged: (s, l) => ((s.flagged = l), (s.paused = l)),
  // unflag: both undone.
  QuestionUnflagged: (s) => ((s.flagged = null), (s.paused = null)),
  QuestionPaused: (s, l) => void (s.paused = l),
  // unpause: `paused = false` only; a flagged question stays flagged (manualResolutionTimestamp is kept).
  QuestionUnpaused: (s) => void (s.paused = null),
  // _reset: a new OO request at this block's time. Inside a dispute it is the dispute row's `question_reset`.
  QuestionReset: (s, l) => void (s.reset = l.inDispute ? null : l),
  // _resolve: the OO's price reported; the ordinary path.
  QuestionResolved: (s, l) => ((s.final = { status: "oracle", log: l }), (s.reset = null)),
  // resolveManually (v4) / emergencyResolve (v2, v3.1): the admin's payouts.
  QuestionManuallyResolved: (s, l) => void (s.final = { status: "manually_resolved", log: l }),
  QuestionEmergencyResolved: (s, l) => void (s.final = { status: "emergency_resolved", log: l }),
};

const OPERATOR: Record<string, Step> = {
  // NegRiskOperator.flagQuestion / unflagQuestion: flaggedAt set / cleared; a flagged question cannot resolveQuestion.
  QuestionFlagged: (s, l) => void (s.flagged = l),
  QuestionUnflagged: (s) => void (s.flagged = null),
  // emergencyResolveQuestion: the admin's result reported to the NegRiskAdapter.
  QuestionEmergencyResolved: (s, l) => void (s.final = { status: "emergency_resolved", log: l }),
};

const SPORTS: Record<string, Step> = {
  // UmaSportsOracle GameState transitions: Created -> Paused -> Created, Paused -> EmergencySettled,
  // Created -> Settled | Canceled (priceSettled -> _settle), and _resetGame (a new request) on the ignore price or
  // an admin's resetGame.
  GamePaused: (s, l) => void (s.paused = l),
  GameUnpaused: (s) => void (s.paused = null),
  GameEmergencySettled: (s, l) => void (s.final = { status: "emergency_settled", log: l }),
  GameCanceled: (s, l) => void (s.final = { status: "canceled", log: l }),
  GameSettled: (s, l) => ((s.final = { status: "oracle", log: l }), (s.reset = null)),
  GameReset: (s, l) => void (s.reset = l.inDispute ? null : l),
  // MarketState: Created -> Paused -> Created, Paused -> EmergencyResolved.
  MarketPaused: (s, l) => void (s.paused = l),
  MarketUnpaused: (s) => void (s.paused = null),
  MarketEmergencyResolved: (s, l) => void (s.final = { status: "emergency_resolved", log: l }),
};

function subjectOf(log: OutcomeLog): OutcomeSubject {
  if (log.contract === "NegRiskOperator") return "neg_risk_question";
  if (log.contract === "UmaSportsOracle") return log.event.startsWith("Market") ? "sports_market" : "game";
  return "question";
}

const stepsOf = (c: OutcomeContract) => (c === "UmaCtfAdapter" ? ADAPTER : c === "NegRiskOperator" ? OPERATOR : SPORTS);

/** What stands after the question's last event; `none` (with that event) when nothing outside the vote does. */
function outcomeOf(s: State, last: OutcomeLog): { status: QuestionOutcomeStatus | "none"; log: OutcomeLog } {
  if (s.final) return s.final.status === "oracle" ? { status: "none", log: s.final.log } : { status: s.final.status, log: s.final.log };
  if (s.flagged) return { status: "flagged", log: s.flagged };
  if (s.paused) return { status: "paused", log: s.paused };
  if (s.reset) return { status: "reset", log: s.reset };
  return { status: "none", log: last };
}

/** A subject's state after its last event: an outcome, or `none` with the event that lifted (or never set) one. */
export type SubjectState = Omit<QuestionOutcome, "status"> & { status: QuestionOutcomeStatus | "none" };

/** Folds the logs (any order: sorted here by block and log index) into every subject's state. */
export function foldSubjects(logs: readonly OutcomeLog[]): SubjectState[] {
  const states = new Map<string, { state: State; last: OutcomeLog }>();
  const ordered = [...logs].sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
  );
  for (const log of ordered) {
    const step = stepsOf(log.contract)[log.event];
    if (!step) continue;
    const subject = subjectOf(log);
    const key = `${log.address.toLowerCase()}:${subject}:${log.id.toLowerCase()}`;
    const entry = states.get(key) ?? { state: { subject, flagged: null, paused: null, reset: null, final: null }, last: log };
    entry.last = log;
    states.set(key, entry);
    step(entry.state, log);
  }
  return [...states.values()].map(({ state, last }) => {
    const o = outcomeOf(state, last);
    return {
      subject: state.subject,
      contract: o.log.contract,
      address: o.log.address.toLowerCase() as Address,
      id: o.log.id.toLowerCase() as Hex,
      status: o.status,
      event: o.log.event,
      at: o.log.at,
      block_number: o.log.blockNumber,
      tx_hash: o.log.txHash,
    };
  });
}

/** The subjects with an outcome standing. */
export function foldOutcomes(logs: readonly OutcomeLog[]): QuestionOutcome[] {
  return foldSubjects(logs).filter((s): s is QuestionOutcome => s.status !== "none");
}

const RANK: Record<QuestionOutcomeStatus, number> = {
  reset: 0,
  paused: 1,
  flagged: 2,
  manually_resolved: 3,
  emergency_resolved: 3,
  emergency_settled: 3,
  canceled: 3,
};

/**
 * The subjects a market's resolution passes through last: a neg-risk market resolves only through its
 * NegRiskOperator (`resolveQuestion` reverts `OnlyNotFlagged`; the adapter's payouts are only its report), a sports
 * market only through its own state (`resolveMarket` needs the market `Created`, whatever its game's state).
 */
const GATES: ReadonlySet<OutcomeSubject> = new Set(["neg_risk_question", "sports_market"]);

/**
 * The outcome that decides when several stand on one market (the adapter's and the operator's on a neg-risk question;
 * a game's and one of its markets'): the gate's own (the operator's, the market's) over any of the question's or the
 * game's, since a resolution upstream reaches the market only through it; then a resolution over a flag over a pause
 * over a reset; the later one on a tie.
 */
export function decidingOutcome<T extends Pick<QuestionOutcome, "status" | "block_number"> & { subject?: OutcomeSubject }>(
  outcomes: readonly T[],
): T | null {
  const gate = (o: T) => (o.subject && GATES.has(o.subject) ? 1 : 0);
  let best: T | null = null;
  for (const o of outcomes) {
    const order = best ? gate(o) - gate(best) || RANK[o.status] - RANK[best.status] : 1;
    if (order > 0 || (order === 0 && best && o.block_number > best.block_number)) best = o;
  }
  return best;
}
