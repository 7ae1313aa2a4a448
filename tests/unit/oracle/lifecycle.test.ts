// The disputed-assertion lifecycle for every combination of the Optimistic Oracle's state and the DVM's status.
import { describe, expect, it } from "vitest";
import { disputeLifecycle, DVM_STATUSES, dvmStatusEnumName, dvmStatusName, OO_STATES, ooStateName } from "@/lib/oracle/lifecycle";

const OO = Object.fromEntries(OO_STATES.map((s, i) => [s, i])) as Record<(typeof OO_STATES)[number], number>;
const DVM = Object.fromEntries(DVM_STATUSES.map((s, i) => [s, i])) as Record<(typeof DVM_STATUSES)[number], number>;

describe("dispute lifecycle", () => {
  it("maps every OOv2 state × DVM status (and the not-yet-bridged null)", () => {
    const dvmValues = [null, ...Object.values(DVM)];
    for (const phase of ["commit", "reveal"] as const) {
      for (const oo of Object.values(OO)) {
        for (const dvm of dvmValues) {
          const result = disputeLifecycle(oo, dvm, phase);
          const label = `oo=${OO_STATES[oo]} dvm=${dvm === null ? "none" : DVM_STATUSES[dvm]} ${phase}`;
          if (oo === OO.Settled) expect(result, label).toEqual({ status: "settled", vote_phase: null });
          else if (oo === OO.Resolved) expect(result, label).toEqual({ status: "resolved", vote_phase: null });
          else if (oo !== OO.Disputed) expect(result, label).toBeNull();
          else if (dvm === DVM.Resolved) expect(result, label).toEqual({ status: "dvm_resolved", vote_phase: null });
          else if (dvm === DVM.Active) expect(result, label).toEqual({ status: "voting", vote_phase: phase });
          else if (dvm === DVM.Future) expect(result, label).toEqual({ status: "queued", vote_phase: null });
          else expect(result, label).toEqual({ status: "disputed", vote_phase: null });
        }
      }
    }
  });

  it("spells out the cases users meet", () => {
    expect(disputeLifecycle(OO.Disputed, null, "commit")).toEqual({ status: "disputed", vote_phase: null }); // not bridged yet
    // VotingV2 Future: on the DVM for a later round's vote, not `disputed`.
    expect(disputeLifecycle(OO.Disputed, DVM.Future, "commit")).toEqual({ status: "queued", vote_phase: null });
    expect(disputeLifecycle(OO.Disputed, DVM.Active, "reveal")).toEqual({ status: "voting", vote_phase: "reveal" }); // voting (also after a roll)
    // The DVM's price not relayed yet: not the OO's own Resolved.
    expect(disputeLifecycle(OO.Disputed, DVM.Resolved, "commit")).toEqual({ status: "dvm_resolved", vote_phase: null });
    expect(disputeLifecycle(OO.Disputed, DVM.ToDelete, "commit")).toEqual({ status: "disputed", vote_phase: null }); // past maxRolls
    expect(disputeLifecycle(OO.Proposed, DVM.Active, "commit")).toBeNull(); // not disputed as far as the OO knows
    // A legacy mainnet request with no known Polygon request: the DVM alone decides.
    expect(disputeLifecycle(null, DVM.Active, "commit")).toEqual({ status: "voting", vote_phase: "commit" });
    expect(disputeLifecycle(null, DVM.Resolved, "commit")).toEqual({ status: "dvm_resolved", vote_phase: null });
  });

  it("names DVM statuses", () => {
    expect(DVM_STATUSES.map((_, i) => dvmStatusName(i))).toEqual(["not_requested", "active", "resolved", "future", "to_delete"]);
    expect(dvmStatusName(null)).toBeNull();
    // UMA's own names, as the contracts' enums spell them.
    expect(OO_STATES.map((_, i) => ooStateName(i))).toEqual([
      "Invalid",
      "Requested",
      "Proposed",
      "Expired",
      "Disputed",
      "Resolved",
      "Settled",
    ]);
    expect(DVM_STATUSES.map((_, i) => dvmStatusEnumName(i))).toEqual(["NotRequested", "Active", "Resolved", "Future", "ToDelete"]);
  });
});
