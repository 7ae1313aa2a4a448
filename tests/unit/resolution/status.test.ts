// A market's resolution status through a question's whole lifecycle, including the adapter's reset on a first dispute.
import { describe, expect, it } from "vitest";
import {
  type QuestionRequest,
  formatPrice,
  outcomeInWords,
  outcomeLabelsFromOutcomes,
  outcomeLabelsFromText,
  resolutionOf,
} from "@/lib/resolution/status";

const ONE = 10n ** 18n;
const YES_NO = outcomeLabelsFromOutcomes(["Yes", "No"]);
const T0 = 1_780_000_000;

const request = (overrides: Partial<QuestionRequest>): QuestionRequest => ({
  requestedAt: T0,
  ooState: 1,
  proposedPrice: null,
  proposedAt: null,
  disputedAt: null,
  disputeId: null,
  dvm: null,
  ...overrides,
});

const proposed = request({ ooState: 2, proposedPrice: ONE, proposedAt: T0 + 600 });
const disputed = { ...proposed, ooState: 4, disputedAt: T0 + 1200, disputeId: "0xd1" as const };
const reset = request({ requestedAt: T0 + 1200 });

describe("resolution status", () => {
  it("walks none -> proposed -> disputed (reset) -> proposed again -> disputed -> voting -> resolved -> settled", () => {
    const status = (requests: QuestionRequest[]) => resolutionOf(requests, YES_NO).status;
    expect(status([])).toBe("none");
    expect(status([request({})])).toBe("none");
    expect(status([proposed])).toBe("proposed");
    // First dispute: the adapter asks again at once; no new proposal yet, so the market is disputed.
    expect(status([disputed, reset])).toBe("disputed");
    expect(status([{ ...disputed, dvm: { status: "active", roundId: 10_301 } }, reset])).toBe("voting");
    const reproposed = { ...reset, ooState: 2, proposedPrice: 0n, proposedAt: T0 + 3000 };
    expect(status([disputed, reproposed])).toBe("proposed");
    const secondDispute = { ...reproposed, ooState: 4, disputedAt: T0 + 4000, disputeId: "0xd2" as const };
    expect(status([disputed, secondDispute])).toBe("disputed");
    expect(status([disputed, { ...secondDispute, dvm: { status: "active", roundId: 10_302 } }])).toBe("voting");
    // The DVM has a price, Polygon not yet (OO still Disputed): dvm_resolved; queued for a later round: queued.
    expect(status([disputed, { ...secondDispute, dvm: { status: "resolved", roundId: 10_302 } }])).toBe("dvm_resolved");
    expect(status([disputed, { ...secondDispute, dvm: { status: "future", roundId: 10_303 } }])).toBe("queued");
    expect(status([{ ...disputed, dvm: { status: "future", roundId: 10_303 } }, reset])).toBe("queued");
    expect(status([disputed, { ...secondDispute, ooState: 5 }])).toBe("resolved");
    expect(status([disputed, { ...secondDispute, ooState: 6 }])).toBe("settled");
    // An undisputed legacy-OOv2 proposal past its liveness has a final price: expired (OO Expired) until settled.
    expect(status([{ ...proposed, ooState: 3 }])).toBe("expired");
  });

  it("a first dispute the adapter reset (QuestionReset in its transaction) leaves the market reset, whatever its vote", () => {
    const resetDispute = { ...disputed, reset: true, dvm: { status: "active" as const, roundId: 10_301 } };
    // The new request (Requested, no proposal) is not in the index: the reset dispute is the latest request known.
    expect(resolutionOf([resetDispute], YES_NO)).toMatchObject({ status: "reset", oo_state: "Requested", dispute_id: "0xd1" });
    // Once the new request is proposed, it decides; a second dispute (no reset) goes to the vote, which decides.
    const reproposed = { ...reset, ooState: 2, proposedPrice: 0n, proposedAt: T0 + 3000 };
    expect(resolutionOf([resetDispute, reproposed], YES_NO).status).toBe("proposed");
    const secondDispute = {
      ...reproposed,
      ooState: 4,
      disputedAt: T0 + 4000,
      disputeId: "0xd2" as const,
      dvm: { status: "active" as const, roundId: 10_302 },
    };
    expect(resolutionOf([resetDispute, secondDispute], YES_NO)).toMatchObject({ status: "voting", dispute_id: "0xd2" });
  });

  it("reports the latest proposal in words and the latest dispute with its vote round", () => {
    const secondDispute = {
      ...reset,
      ooState: 4,
      proposedPrice: 0n,
      proposedAt: T0 + 3000,
      disputedAt: T0 + 4000,
      disputeId: "0xd2" as const,
      dvm: { status: "active" as const, roundId: 10_302 },
    };
    expect(resolutionOf([disputed, secondDispute], YES_NO)).toEqual({
      status: "voting",
      proposed_price: "0",
      proposed_outcome: "No",
      proposed_at: new Date((T0 + 3000) * 1000).toISOString(),
      disputed_at: new Date((T0 + 4000) * 1000).toISOString(),
      settled_at: null,
      dispute_id: "0xd2",
      vote_round: 10_302,
      oo_state: "Disputed",
      dvm_status: "Active",
      outcome: null,
    });
  });

  it("names outcomes from the question text first, Gamma's outcomes second, and the special prices always", () => {
    const text =
      "q: title: Lakers vs. Celtics, description: … res_data: p1: 0, p2: 1, p3: 0.5. Where p1 corresponds to Celtics, p2 to Lakers, p3 to unknown/50-50.";
    const labels = outcomeLabelsFromText(text);
    expect(labels).toEqual({ p1: "Celtics", p2: "Lakers" });
    expect(outcomeInWords(ONE, labels)).toBe("Lakers");
    expect(outcomeInWords(0n, labels)).toBe("Celtics");
    expect(outcomeLabelsFromText("Where p1 corresponds to No, p2 to a Yes, p3 to unknown")).toEqual({ p1: "No", p2: "Yes" });
    expect(outcomeInWords(ONE / 2n, YES_NO)).toBe("unknown (50-50)");
    expect(outcomeInWords(-(2n ** 255n), YES_NO)).toBe("too early");
    expect(outcomeInWords(ONE, null)).toBe("p2 (1)");
    expect(outcomeLabelsFromOutcomes(["A", "B", "C"])).toBeNull();
    expect(formatPrice(ONE / 4n)).toBe("0.25");
    expect(formatPrice(-(2n * ONE))).toBe("-2");
  });
});
