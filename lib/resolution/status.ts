// A market's resolution status from the oracle requests its UMA adapter made for it (docs/resolution.md, "Status").
// One question can have two OO requests: UmaCtfAdapter.priceDisputed resets the question on its first dispute and
// asks again with a new timestamp; the market resolves from the latest request, while the disputed one goes to the
// DVM for the bonds. Prices follow UMIP-107's YES_OR_NO_QUERY: p1 = 0, p2 = 1e18, p3 = 0.5e18, p4 = min int256.
import type { Hex } from "viem";
import { type DvmStatusName, type OoStateName, ooStateName } from "@/lib/oracle/lifecycle";
import type { OutcomeView } from "@/lib/oracle/outcomes";
import { isoFromSecondsOrNull } from "@/lib/oracle/time";

// `expired`, `dvm_resolved` and `resolved` are three different states UMA names apart (docs/resolution.md, "Status"):
// an undisputed legacy-OOv2 proposal past liveness, a DVM price not yet bridged back, and the OO's own Resolved.
export const RESOLUTION_STATUSES = [
  "none",
  "reset",
  "proposed",
  "disputed",
  "queued",
  "voting",
  "dvm_resolved",
  "expired",
  "resolved",
  "settled",
  "deleted",
  // Outside the vote (lib/oracle/outcome-fold.ts, docs/oracle-facts.md "Outcomes outside the vote").
  "flagged",
  "paused",
  "manually_resolved",
  "emergency_resolved",
  "emergency_settled",
  "canceled",
] as const;
export type ResolutionStatus = (typeof RESOLUTION_STATUSES)[number];

/** One OO request of the question, as our oracle index knows it. Times are Unix seconds. */
export interface QuestionRequest {
  /** The request's timestamp (its identity next to the ancillary data). */
  requestedAt: number;
  /** OptimisticOracleV2 State: 0 Invalid, 1 Requested, 2 Proposed, 3 Expired, 4 Disputed, 5 Resolved, 6 Settled. */
  ooState: number;
  proposedPrice: bigint | null;
  proposedAt: number | null;
  disputedAt: number | null;
  /** When the request was settled (its Settle log), else null. */
  settledAt?: number | null;
  /** The disputed request's id in our API (the OO request id). */
  disputeId: Hex | null;
  /** The adapter reset the question when this request was disputed (a first dispute): a newer request asks again. */
  reset?: boolean;
  /** The DVM's view once a dispute reached it: `active` while up for vote. */
  dvm: { status: "not_requested" | "active" | "resolved" | "future" | "to_delete" | "deleted" | null; roundId: number | null } | null;
}

export interface Resolution {
  status: ResolutionStatus;
  proposed_price: string | null;
  proposed_outcome: string | null;
  proposed_at: string | null;
  disputed_at: string | null;
  settled_at: string | null;
  dispute_id: Hex | null;
  vote_round: number | null;
  /** UMA's name of the deciding request's OO state (OptimisticOracleV2Interface.State), null when none. */
  oo_state: OoStateName | null;
  /** UMA's name of the dispute's DVM status (VotingV2.RequestStatus), null when no dispute reached the DVM. */
  dvm_status: DvmStatusName | null;
  /** The question's outcome outside the vote when it decides `status` (its event and contract), else null. */
  outcome: OutcomeView | null;
}

const ONE = 10n ** 18n;
const HALF = ONE / 2n;
const TOO_EARLY = -(2n ** 255n);

export interface OutcomeLabels {
  /** Label of p2 (price 1e18): the adapter pays out [1, 0], i.e. the market's first outcome. */
  p2: string;
  /** Label of p1 (price 0): the second outcome. */
  p1: string;
}

/** Labels from the question text's `Where p1 corresponds to X, p2 to Y` (Polymarket's format), else null. */
export function outcomeLabelsFromText(text: string): OutcomeLabels | null {
  const match = /p1 corresponds to (.+?), p2 to (?:an? )?(.+?), p3 to/.exec(text);
  return match ? { p1: match[1].trim(), p2: match[2].trim() } : null;
}

/** Labels from Gamma's outcomes (["Yes", "No"]): index 0 wins on price 1e18. */
export function outcomeLabelsFromOutcomes(outcomes: readonly string[]): OutcomeLabels | null {
  return outcomes.length === 2 ? { p2: outcomes[0], p1: outcomes[1] } : null;
}

/** A proposed or resolved YES_OR_NO_QUERY price in words. */
export function outcomeInWords(price: bigint, labels: OutcomeLabels | null): string {
  if (price === ONE) return labels?.p2 ?? "p2 (1)";
  if (price === 0n) return labels?.p1 ?? "p1 (0)";
  if (price === HALF) return "unknown (50-50)";
  if (price === TOO_EARLY) return "too early";
  return `non-standard price ${formatPrice(price)}`;
}

/** "0.5" -> 5e17: the API's decimal prices back to the oracle's 18-decimal integers. */
export function decimalToWei(value: string): bigint {
  const [whole, fraction = ""] = value.split(".");
  const negative = whole.startsWith("-");
  const wei = BigInt(whole.replace("-", "") || "0") * ONE + BigInt((fraction + "0".repeat(18)).slice(0, 18));
  return negative ? -wei : wei;
}

export function formatPrice(price: bigint): string {
  const negative = price < 0n;
  const abs = negative ? -price : price;
  const fraction = (abs % ONE).toString().padStart(18, "0").replace(/0+$/, "");
  return `${negative ? "-" : ""}${abs / ONE}${fraction ? `.${fraction}` : ""}`;
}

function statusOfRequest(request: QuestionRequest): ResolutionStatus | null {
  switch (request.ooState) {
    case 6:
      return "settled";
    case 5:
      return "resolved";
    // Expired (legacy OOv2 only): proposed, undisputed, past liveness: the price is final (OOv2 hasPrice) and awaits
    // settlement. A Managed OOv2 never reads Expired (docs/oracle-indexer.md, "Per-oracle semantics").
    case 3:
      return "expired";
    case 4:
      if (request.dvm?.status === "resolved") return "dvm_resolved";
      if (request.dvm?.status === "future") return "queued";
      // Deleted past maxRolls (RequestDeleted): no price will come; the OO request stays Disputed.
      if (request.dvm?.status === "deleted") return "deleted";
      return request.dvm?.status === "active" ? "voting" : "disputed";
    case 2:
      return "proposed";
    default:
      return null;
  }
}

/** A market no oracle request concerns. */
export const NO_RESOLUTION: Resolution = {
  status: "none",
  proposed_price: null,
  proposed_outcome: null,
  proposed_at: null,
  disputed_at: null,
  settled_at: null,
  dispute_id: null,
  vote_round: null,
  oo_state: null,
  dvm_status: null,
  outcome: null,
};

const DVM_NAMES: Record<string, DvmStatusName> = {
  not_requested: "NotRequested",
  active: "Active",
  resolved: "Resolved",
  future: "Future",
  to_delete: "ToDelete",
};

/**
 * The market's resolution: the latest request decides the status; a question whose latest request has no proposal
 * yet but an earlier one was disputed (the adapter's reset) is `disputed` (or `voting` while the DVM votes on it).
 * Proposal fields come from the latest proposal, dispute fields from the latest dispute.
 */
export function resolutionOf(
  requests: readonly QuestionRequest[],
  labels: OutcomeLabels | null,
  outcome: OutcomeView | null = null,
): Resolution {
  const byOracle = resolutionOfRequests(requests, labels, outcome?.status === "reset" ? outcome : null);
  // An admin's resolution, a flag or a pause stands over whatever the requests say: a flagged or paused question cannot
  // be resolved from the OO (UmaCtfAdapter.resolve reverts `Paused`; NegRiskOperator.resolveQuestion `OnlyNotFlagged`;
  // UmaSportsOracle settles only a Created game), and a resolution by the admin is final.
  if (!outcome || outcome.status === "reset") return byOracle;
  return { ...byOracle, status: outcome.status, outcome, settled_at: null };
}

function resolutionOfRequests(requests: readonly QuestionRequest[], labels: OutcomeLabels | null, reset: OutcomeView | null): Resolution {
  // A reset outside a dispute (an admin's, or `resolve` on a too-early price) asked again at its block's time
  // (UmaCtfAdapter._reset: `requestTimestamp = block.timestamp`): the new request, unproposed, is the latest unless a
  // request the index knows is as new. Its RequestPrice log is not needed for that.
  const resetAt = reset?.at ? Math.floor(Date.parse(reset.at) / 1000) : null;
  if (reset && resetAt !== null && requests.every((r) => r.requestedAt < resetAt)) {
    const before = requests.length ? resolutionOfRequests(requests, labels, null) : NO_RESOLUTION;
    return { ...before, status: "reset", oo_state: "Requested", settled_at: null, outcome: reset };
  }
  if (!requests.length) return NO_RESOLUTION;
  const ordered = [...requests].sort((a, b) => a.requestedAt - b.requestedAt);
  const latest = ordered[ordered.length - 1];
  const proposal = [...ordered].reverse().find((r) => r.proposedPrice !== null) ?? null;
  const dispute = [...ordered].reverse().find((r) => r.disputedAt !== null) ?? null;
  // The latest request we know was disputed for the first time: the adapter reset the question in that transaction
  // (UmaCtfAdapter.priceDisputed) and asked again; the new request has no proposal yet, and the market waits for one,
  // not for this dispute's vote (docs/resolution.md, "Status").
  let status = latest.reset ? "reset" : statusOfRequest(latest);
  // The latest request not proposed yet after the adapter's reset: the disputed one decides (its DVM vote).
  const decidedByDispute = status === null && dispute !== null;
  if (status === null) {
    const ofDispute = dispute ? statusOfRequest(dispute) : null;
    status = dispute ? (ofDispute === "voting" || ofDispute === "queued" ? ofDispute : "disputed") : "none";
  }
  const deciding = decidedByDispute ? dispute : latest;
  return {
    status,
    proposed_price: proposal ? formatPrice(proposal.proposedPrice!) : null,
    proposed_outcome: proposal ? outcomeInWords(proposal.proposedPrice!, labels) : null,
    proposed_at: isoFromSecondsOrNull(proposal?.proposedAt ?? null),
    disputed_at: isoFromSecondsOrNull(dispute?.disputedAt ?? null),
    settled_at: status === "settled" ? isoFromSecondsOrNull(latest.settledAt ?? null) : null,
    dispute_id: dispute?.disputeId ?? null,
    vote_round: dispute?.dvm?.roundId ?? null,
    oo_state: status === "none" ? null : status === "reset" ? "Requested" : ooStateName(deciding.ooState),
    dvm_status: dispute?.dvm?.status ? (DVM_NAMES[dispute.dvm.status] ?? null) : null,
    outcome: null,
  };
}
