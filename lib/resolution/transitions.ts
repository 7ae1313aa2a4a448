// The `resolution` topic of the live stream, pure part: the oracle index's disputes as they are now, diffed against
// the state last published for each, give one transition per dispute whose lifecycle moved (docs/stream.md,
// "Resolution"). The lifecycle is the index's own (lib/oracle/lifecycle.ts): disputed → voting (commit → reveal,
// rolled into a later round) → resolved → settled; a state the index held for less than one pass is not seen.
import type { Hex } from "viem";
import type { DisputeStatus } from "@/lib/oracle/lifecycle";

export type TransitionKind = DisputeStatus | "commit" | "reveal" | "rolled";

/** What is compared: the dispute's status, its vote's phase, the DVM round it is up in, and its roll count. */
export interface DisputeState {
  status: DisputeStatus;
  vote_phase: "commit" | "reveal" | null;
  round_id: number | null;
  roll_count: number;
}

/** The state last published for a dispute, and the blocks of the pass that saw it. */
export interface PublishedState extends DisputeState {
  block_number: number | null;
  polygon_block_number: number | null;
}

/** The fields of an oracle dispute row (lib/oracle/disputes.ts DisputedAssertion) this reads. */
export interface IndexedDispute {
  id: Hex;
  question_id: Hex | null;
  title: string | null;
  status: DisputeState["status"];
  vote_phase: DisputeState["vote_phase"];
  roll_count: number;
  proposed_price: string | null;
  proposed_at: string | null;
  disputed_at: string | null;
  dispute_tx_hash: Hex | null;
  dvm: { round_id: number | null } | null;
  /** Contract reads that failed for the row: its status is then a guess, so it is not published. */
  unread: readonly string[];
}

export interface TransitionMarket {
  id: string;
  condition_id: string;
  slug: string;
  event_slug: string;
  question: string;
  /** The market's `resolution.status` after this pass (lib/resolution/status.ts). */
  resolution_status: string;
}

export interface PassFacts {
  /** The oracle index's pinned blocks and time for this answer (the disputes snapshot's meta). */
  block_number: number;
  polygon_block_number: number;
  as_of: string;
  /** DVM rounds the index knows: id -> [start, end) in ISO time (the reveal phase is the round's second half). */
  rounds: ReadonlyMap<number, { starts_at: string; ends_at: string }>;
}

/**
 * What every transition on the `resolution` topic carries, a dispute's (below) or a question's
 * (outcome-transitions.ts): when it happened, the passes that saw it, the dispute's proposal and the market.
 */
export interface TransitionBase {
  title: string | null;
  /** When the chain event happened, where the index knows it (dispute time, vote phase start); else null. */
  at: string | null;
  /** The pass that saw the new state (its blocks), and the one that last saw the old state (null on a first sighting). */
  block_number: number;
  polygon_block_number: number;
  since_block_number: number | null;
  since_polygon_block_number: number | null;
  observed_at: string;
  proposed_price: string | null;
  proposed_at: string | null;
  disputed_at: string | null;
  dispute_tx_hash: Hex | null;
  market: TransitionMarket | null;
}

export interface Transition extends TransitionBase {
  dispute_id: Hex;
  question_id: Hex | null;
  transition: TransitionKind;
  from: DisputeState | null;
  to: DisputeState;
}

export const stateOf = (d: IndexedDispute): DisputeState => ({
  status: d.status,
  vote_phase: d.status === "voting" ? d.vote_phase : null,
  round_id: d.dvm?.round_id ?? null,
  roll_count: d.roll_count,
});

const same = (a: DisputeState, b: DisputeState) =>
  a.status === b.status && a.vote_phase === b.vote_phase && a.round_id === b.round_id && a.roll_count === b.roll_count;

function kindOf(from: DisputeState | null, to: DisputeState): TransitionKind {
  if (!from || from.status !== to.status) return to.status;
  if (to.round_id !== from.round_id || to.roll_count > from.roll_count) return "rolled";
  if (to.status === "voting" && to.vote_phase && to.vote_phase !== from.vote_phase) return to.vote_phase;
  // Anything else that moved (a roll count the DVM corrected downwards, a round id learnt late): named by the status.
  return to.status;
}

function timeOf(kind: TransitionKind, d: IndexedDispute, to: DisputeState, rounds: PassFacts["rounds"]): string | null {
  if (kind === "disputed") return d.disputed_at;
  if (kind !== "voting" && kind !== "commit" && kind !== "reveal" && kind !== "rolled") return null; // the index reads states, not the logs that moved them
  const round = to.round_id === null ? undefined : rounds.get(to.round_id);
  if (!round || to.status !== "voting") return null;
  if (to.vote_phase !== "reveal") return round.starts_at;
  // VotingV2: a round is two phases of equal length, commit then reveal (lib/oracle/rounds.ts roundLength).
  return new Date((Date.parse(round.starts_at) + Date.parse(round.ends_at)) / 2).toISOString();
}

/**
 * The transitions from `published` to `disputes`, oldest dispute first. A dispute not yet published is a first
 * sighting (`from: null`); a row with unread contract state is skipped (its status is a guess) and compared again on
 * the next pass; a dispute that left the index (a reorg) publishes nothing.
 */
export function diffResolutions<D extends IndexedDispute>(
  disputes: readonly D[],
  published: ReadonlyMap<string, PublishedState>,
  facts: PassFacts,
  marketOf: (d: D) => TransitionMarket | null,
): Transition[] {
  const out: Transition[] = [];
  const ordered = [...disputes].sort(
    (a, b) => (a.disputed_at ?? "").localeCompare(b.disputed_at ?? "") || a.id.toLowerCase().localeCompare(b.id.toLowerCase()),
  );
  const seen = new Set<string>();
  for (const d of ordered) {
    const key = d.id.toLowerCase();
    if (seen.has(key) || d.unread.length > 0) continue;
    seen.add(key);
    const to = stateOf(d);
    const before = published.get(key) ?? null;
    const from: DisputeState | null = before
      ? { status: before.status, vote_phase: before.vote_phase, round_id: before.round_id, roll_count: before.roll_count }
      : null;
    if (from && same(from, to)) continue;
    const kind = kindOf(from, to);
    out.push({
      dispute_id: d.id,
      question_id: d.question_id,
      title: d.title,
      transition: kind,
      from,
      to,
      at: timeOf(kind, d, to, facts.rounds),
      block_number: facts.block_number,
      polygon_block_number: facts.polygon_block_number,
      since_block_number: before?.block_number ?? null,
      since_polygon_block_number: before?.polygon_block_number ?? null,
      observed_at: facts.as_of,
      proposed_price: d.proposed_price,
      proposed_at: d.proposed_at,
      disputed_at: d.disputed_at,
      dispute_tx_hash: d.dispute_tx_hash,
      market: marketOf(d),
    });
  }
  return out;
}
