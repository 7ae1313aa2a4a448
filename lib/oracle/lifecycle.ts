// The disputed-assertion lifecycle of docs/oracle-facts.md#lifecycle (disputed → queued → voting → dvm_resolved → resolved
// → settled, voting → voting on a roll) derived from the two contracts' own states: the Polygon Optimistic Oracle's
// request state and the mainnet DVM's request status. Both are also given by UMA's own names (`oo_state`,
// `dvm_status`), so a consumer never has to map our words back (docs/oracle-facts.md, "Vocabulary").

/** OptimisticOracleV2Interface.State */
export const OO_STATES = ["Invalid", "Requested", "Proposed", "Expired", "Disputed", "Resolved", "Settled"] as const;
/** VotingV2.RequestStatus */
export const DVM_STATUSES = ["NotRequested", "Active", "Resolved", "Future", "ToDelete"] as const;

export type OoStateName = (typeof OO_STATES)[number];
export type DvmStatusName = (typeof DVM_STATUSES)[number];

/** OptimisticOracleV2Interface.State by number (0..6), else null. */
export const ooStateName = (state: number | null): OoStateName | null => (state === null ? null : (OO_STATES[state] ?? null));
/** VotingV2.RequestStatus by number (0..4), else null. */
export const dvmStatusEnumName = (status: number | null): DvmStatusName | null => (status === null ? null : (DVM_STATUSES[status] ?? null));

// `deleted`: the DVM request was deleted after rolling past maxRolls (VotingV2.sol line 1064, RequestDeleted); the OO
// request then stays Disputed for good, since the DVM never has its price (docs/oracle-facts.md, "Vocabulary").
export const DISPUTE_STATUSES = ["disputed", "queued", "voting", "dvm_resolved", "resolved", "settled", "deleted"] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];
export type VotePhase = "commit" | "reveal";

export function dvmStatusName(status: number | null): "not_requested" | "active" | "resolved" | "future" | "to_delete" | null {
  if (status === null) return null;
  return (["not_requested", "active", "resolved", "future", "to_delete"] as const)[status] ?? null;
}

/**
 * @param ooState  the OOv2 request state (0..6), or null when the Polygon request is unknown (a legacy mainnet request).
 * @param dvmStatus the DVM's status of the request (0..4), or null when it has not reached mainnet.
 * @returns null when the contracts say the request is not (or no longer) disputed, e.g. a dispute log lost to a reorg.
 */
export function disputeLifecycle(
  ooState: number | null,
  dvmStatus: number | null,
  phase: VotePhase,
): { status: DisputeStatus; vote_phase: VotePhase | null } | null {
  if (ooState === 6) return { status: "settled", vote_phase: null };
  // OO Resolved: the DVM's price reached Polygon (hasPrice), settle not called yet.
  if (ooState === 5) return { status: "resolved", vote_phase: null };
  if (ooState !== null && ooState !== 4) return null;
  // The DVM has its price but it has not reached Polygon yet (the tunnel relays it later): OO still Disputed.
  if (dvmStatus === 2) return { status: "dvm_resolved", vote_phase: null };
  // Active: up for vote this round (including a request rolled into it); the round's phase is the vote's phase.
  if (dvmStatus === 1) return { status: "voting", vote_phase: phase };
  // Future: requested for a later round's vote (VotingV2 queues a request for the round after the current one).
  if (dvmStatus === 3) return { status: "queued", vote_phase: null };
  // Not bridged yet, or past maxRolls and awaiting deletion: disputed, no vote running.
  return { status: "disputed", vote_phase: null };
}
