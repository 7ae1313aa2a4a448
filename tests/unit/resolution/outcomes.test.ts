// A market's resolution and the stream's question-level transitions when the question's own contracts decide outside
// the vote (lib/resolution/status.ts, lib/resolution/outcome-transitions.ts; docs/resolution.md "Status").
import type { Hex } from "viem";
import { describe, expect, it } from "vitest";
import type { OutcomeView } from "@/lib/oracle/outcomes";
import { diffOutcomes, type QuestionFacts, questionKey } from "@/lib/resolution/outcome-transitions";
import { type QuestionRequest, resolutionOf } from "@/lib/resolution/status";

const T0 = 1_780_000_000;
const iso = (s: number) => new Date(s * 1000).toISOString();
const YES_NO = { p2: "Yes", p1: "No" };
const outcome = (status: OutcomeView["status"], at: number, contract: OutcomeView["contract"] = "UmaCtfAdapter"): OutcomeView => ({
  status,
  contract,
  address: "0x157Ce2d672854c848c9b79C49a8Cc6cc89176a49",
  event: "QuestionFlagged",
  at: iso(at),
  tx_hash: `0x${"77".repeat(32)}`,
});
const proposal: QuestionRequest = {
  requestedAt: T0,
  ooState: 2,
  proposedPrice: 10n ** 18n,
  proposedAt: T0 + 60,
  disputedAt: null,
  disputeId: null,
  dvm: null,
};
const voting: QuestionRequest = { ...proposal, ooState: 4, disputedAt: T0 + 120, disputeId: "0xd1", dvm: { status: "active", roundId: 9 } };

describe("a market's resolution with an outcome outside the vote", () => {
  it("a flag, a pause or an admin's resolution stands over the requests, which keep their proposal and dispute facts", () => {
    const flagged = resolutionOf([voting], YES_NO, outcome("flagged", T0 + 500));
    expect(flagged).toMatchObject({
      status: "flagged",
      dispute_id: "0xd1",
      oo_state: "Disputed",
      dvm_status: "Active",
      proposed_outcome: "Yes",
    });
    expect(flagged.outcome).toMatchObject({ status: "flagged", contract: "UmaCtfAdapter" });
    expect(resolutionOf([proposal], YES_NO, outcome("paused", T0 + 500)).status).toBe("paused");
    expect(resolutionOf([voting], YES_NO, outcome("manually_resolved", T0 + 900))).toMatchObject({
      status: "manually_resolved",
      settled_at: null,
    });
    // No request indexed at all (flagged before any proposal): the outcome alone decides.
    expect(resolutionOf([], YES_NO, outcome("emergency_resolved", T0, "NegRiskOperator"))).toMatchObject({
      status: "emergency_resolved",
      oo_state: null,
      outcome: { contract: "NegRiskOperator" },
    });
  });

  it("a reset outside a dispute is a new request, latest until a newer one is proposed", () => {
    const settledTooEarly: QuestionRequest = { ...voting, ooState: 6, settledAt: T0 + 800 };
    expect(resolutionOf([settledTooEarly], YES_NO, outcome("reset", T0 + 800))).toMatchObject({
      status: "reset",
      oo_state: "Requested",
      settled_at: null,
      dispute_id: "0xd1",
      outcome: { status: "reset" },
    });
    const reproposed: QuestionRequest = { ...proposal, requestedAt: T0 + 800, proposedAt: T0 + 900 };
    expect(resolutionOf([settledTooEarly, reproposed], YES_NO, outcome("reset", T0 + 800))).toMatchObject({
      status: "proposed",
      outcome: null,
    });
    expect(resolutionOf([], YES_NO, outcome("reset", T0)).status).toBe("reset");
  });

  it("without an outcome nothing changes", () => {
    expect(resolutionOf([voting], YES_NO)).toMatchObject({ status: "voting", outcome: null });
  });
});

describe("question-level transitions", () => {
  const id: Hex = `0x${"a1".repeat(32)}`;
  const subject = { kind: "question" as const, address: "0x157Ce2d672854c848c9b79C49a8Cc6cc89176a49", id };
  const facts = { block_number: 10, polygon_block_number: 20, as_of: iso(T0 + 1000) };
  const question = (status: QuestionFacts["status"], at: number): QuestionFacts => ({
    key: questionKey(subject),
    subject,
    question_id: subject.id,
    status,
    outcome: status === "none" ? null : outcome(status, at),
    at: iso(at),
    dispute: null,
    market: null,
  });

  it("publishes a new outcome, a change of outcome and its lifting once each; a question never in one says nothing", () => {
    const first = diffOutcomes([question("flagged", T0)], new Map(), facts);
    expect(first).toEqual([
      expect.objectContaining({
        scope: "question",
        transition: "flagged",
        from: null,
        to: expect.objectContaining({ status: "flagged" }),
        at: iso(T0),
      }),
    ]);
    const published = new Map([[questionKey(subject), { status: "flagged", block_number: 9, polygon_block_number: 19 }]]);
    expect(diffOutcomes([question("flagged", T0)], published, facts)).toEqual([]);
    const resolved = diffOutcomes([question("manually_resolved", T0 + 100)], published, facts);
    expect(resolved.map((t) => [t.transition, t.from?.status, t.since_polygon_block_number])).toEqual([
      ["manually_resolved", "flagged", 19],
    ]);
    expect(diffOutcomes([question("none", T0 + 100)], published, facts).map((t) => [t.transition, t.outcome])).toEqual([["none", null]]);
    expect(diffOutcomes([question("none", T0)], new Map(), facts)).toEqual([]);
  });
});
