// Markets' `resolution` from the requests our oracle index holds, keyed by condition id. Pure: joined dispute rows and
// joined proposals (the Optimistic Oracle's ProposePrice / Settle logs of Polymarket's requesters, oracle_requests) in,
// one Resolution per market out; a market with neither is absent (the caller answers `none`) (docs/resolution.md).
import type { Hex } from "viem";
import { type DisputeStatus, OO_STATES } from "@/lib/oracle/lifecycle";
import type { OutcomeView } from "@/lib/oracle/outcomes";
import { decimalToWei, type OutcomeLabels, type QuestionRequest, type Resolution, resolutionOf } from "./status";

/** The fields of a joined dispute row this reads (the oracle's dispute plus lib/resolution/markets-for-disputes.ts' market). */
export interface DisputeOfMarket {
  id: Hex;
  status: DisputeStatus;
  /** UMA's name of the OO state as the oracle index read it (lib/oracle/disputes.ts). */
  oo_state?: string | null;
  proposed_price: string | null;
  requested_at: string | null;
  proposed_at: string | null;
  disputed_at: string | null;
  /** From the request's Settle log, when the index has it. */
  settled_at?: string | null;
  dvm: { status: string | null; round_id: number | null } | null;
  /** The adapter reset the question in the dispute's transaction (absent in rows stored before it was indexed). */
  question_reset?: boolean;
  market: { condition_id: string; outcomes: string[] } | null;
}

/** An OO request of the index with a proposal (a row of oracle_requests), joined to its market. */
export interface ProposalOfMarket {
  id: Hex;
  /** OOv2 State as the index knows it: 2 Proposed, 3 Expired (past liveness at the indexed head), 4 Disputed, 6 Settled. */
  oo_state: 2 | 3 | 4 | 6;
  proposed_price: string | null;
  requested_at: string | null;
  proposed_at: string | null;
  disputed_at: string | null;
  settled_at: string | null;
  market: { condition_id: string; outcomes: string[] } | null;
}

const OO_STATE = { disputed: 4, queued: 4, voting: 4, dvm_resolved: 4, deleted: 4, resolved: 5, settled: 6 } as const;
const seconds = (iso: string | null) => (iso ? Math.floor(Date.parse(iso) / 1000) : null);
type DvmStatus = NonNullable<QuestionRequest["dvm"]>["status"];
const DVM_STATUSES: readonly string[] = ["not_requested", "active", "resolved", "future", "to_delete", "deleted"];

function requestOf(d: DisputeOfMarket): QuestionRequest {
  const named = d.dvm?.status && DVM_STATUSES.includes(d.dvm.status) ? (d.dvm.status as DvmStatus) : null;
  const dvmStatus: DvmStatus = d.status === "voting" ? "active" : named;
  const read = d.oo_state ? OO_STATES.indexOf(d.oo_state as (typeof OO_STATES)[number]) : -1;
  return {
    requestedAt: seconds(d.requested_at) ?? seconds(d.disputed_at) ?? 0,
    ooState: read >= 0 ? read : OO_STATE[d.status],
    proposedPrice: d.proposed_price === null ? null : decimalToWei(d.proposed_price),
    proposedAt: seconds(d.proposed_at),
    disputedAt: seconds(d.disputed_at),
    settledAt: seconds(d.settled_at ?? null),
    disputeId: d.id,
    reset: d.question_reset === true,
    dvm: d.dvm || d.status === "voting" ? { status: dvmStatus, roundId: d.dvm?.round_id ?? null } : null,
  };
}

function requestOfProposal(p: ProposalOfMarket): QuestionRequest {
  return {
    requestedAt: seconds(p.requested_at) ?? seconds(p.proposed_at) ?? 0,
    ooState: p.oo_state,
    proposedPrice: p.proposed_price === null ? null : decimalToWei(p.proposed_price),
    proposedAt: seconds(p.proposed_at),
    disputedAt: seconds(p.disputed_at),
    settledAt: seconds(p.settled_at),
    disputeId: p.disputed_at ? p.id : null,
    dvm: null,
  };
}

/**
 * Disputes first (they carry the DVM's view); a proposal whose request is one of the disputes is not counted twice.
 * `outcomes`: the question's outcome outside the vote per market (lower-case condition id), when one stands.
 */
export function resolutionsByConditionId(
  disputes: readonly DisputeOfMarket[],
  proposals: readonly ProposalOfMarket[] = [],
  outcomes: ReadonlyMap<string, { outcome: OutcomeView; outcomes: string[] }> = new Map(),
): Map<string, Resolution> {
  const grouped = new Map<string, { labels: OutcomeLabels | null; requests: QuestionRequest[] }>();
  const add = (market: { condition_id: string; outcomes: string[] }, request: QuestionRequest) => {
    const key = market.condition_id.toLowerCase();
    const entry = grouped.get(key) ?? {
      labels: market.outcomes.length === 2 ? { p2: market.outcomes[0], p1: market.outcomes[1] } : null,
      requests: [],
    };
    entry.requests.push(request);
    grouped.set(key, entry);
  };
  const disputed = new Set(disputes.map((d) => d.id.toLowerCase()));
  for (const d of disputes) if (d.market) add(d.market, requestOf(d));
  for (const p of proposals) if (p.market && !disputed.has(p.id.toLowerCase())) add(p.market, requestOfProposal(p));
  const out = new Map([...grouped].map(([key, { labels, requests }]) => [key, resolutionOf(requests, labels, outcomes.get(key)?.outcome)]));
  for (const [key, { outcome, outcomes: names }] of outcomes) {
    if (!out.has(key)) out.set(key, resolutionOf([], names.length === 2 ? { p2: names[0], p1: names[1] } : null, outcome));
  }
  return out;
}
