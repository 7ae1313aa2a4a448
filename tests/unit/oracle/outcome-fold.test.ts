// The fold of the Polymarket contracts' own events into each question's outcome outside the vote
// (lib/oracle/outcome-fold.ts), one contract function at a time, in chain order (sources: docs/oracle-facts.md,
// "Outcomes outside the vote").
import type { Address, Hex } from "viem";
import { describe, expect, it } from "vitest";
import { decidingOutcome, foldOutcomes, foldSubjects, type OutcomeContract, type OutcomeLog } from "@/lib/oracle/outcome-fold";

const ADAPTER: Address = "0x157ce2d672854c848c9b79c49a8cc6cc89176a49";
const OPERATOR: Address = "0x71523d0f655b41e805cec45b17163f528b59b820";
const SPORTS: Address = "0xb21182d0494521cf45dbbeebb5a3acaab6d22093";
const Q: Hex = `0x${"a1".repeat(32)}`;
const GAME: Hex = `0x${"b2".repeat(32)}`;
const MARKET: Hex = `0x${"c3".repeat(32)}`;

let block = 100n;
function log(contract: OutcomeContract, event: string, id: Hex = Q, extra: Partial<OutcomeLog> = {}): OutcomeLog {
  block += 1n;
  const address = contract === "NegRiskOperator" ? OPERATOR : contract === "UmaSportsOracle" ? SPORTS : ADAPTER;
  return {
    contract,
    address,
    event,
    id,
    blockNumber: block,
    logIndex: 0,
    txHash: `0x${block.toString(16).padStart(64, "0")}`,
    at: block * 2n,
    ...extra,
  };
}
const adapter = (event: string, extra?: Partial<OutcomeLog>) => log("UmaCtfAdapter", event, Q, extra);
const statusOf = (logs: OutcomeLog[]) => foldSubjects(logs).map((s) => s.status);

describe("outcomes outside the vote: the adapter (UmaCtfAdapter)", () => {
  it("flag pauses and flags; unflag undoes both; unpause alone leaves the flag", () => {
    expect(statusOf([adapter("QuestionFlagged")])).toEqual(["flagged"]);
    expect(statusOf([adapter("QuestionFlagged"), adapter("QuestionUnflagged")])).toEqual(["none"]);
    // unpause clears `paused` only: manualResolutionTimestamp still marks the question flagged.
    expect(statusOf([adapter("QuestionFlagged"), adapter("QuestionUnpaused")])).toEqual(["flagged"]);
    expect(statusOf([adapter("QuestionPaused")])).toEqual(["paused"]);
    expect(statusOf([adapter("QuestionPaused"), adapter("QuestionUnpaused")])).toEqual(["none"]);
  });

  it("the admin's resolution is final and named by the version's event; the oracle's is no outcome of ours", () => {
    const flagged = adapter("QuestionFlagged");
    const manual = adapter("QuestionManuallyResolved");
    expect(foldOutcomes([flagged, manual])).toEqual([
      expect.objectContaining({
        subject: "question",
        status: "manually_resolved",
        event: "QuestionManuallyResolved",
        tx_hash: manual.txHash,
      }),
    ]);
    expect(statusOf([adapter("QuestionFlagged"), adapter("QuestionEmergencyResolved")])).toEqual(["emergency_resolved"]);
    expect(statusOf([adapter("QuestionResolved")])).toEqual(["none"]);
    expect(foldOutcomes([adapter("QuestionResolved")])).toEqual([]);
  });

  it("a reset outside a dispute stands until the question resolves; a dispute's own reset is the dispute row's", () => {
    const reset = adapter("QuestionReset");
    expect(foldOutcomes([reset])).toEqual([expect.objectContaining({ status: "reset", at: reset.at, block_number: reset.blockNumber })]);
    expect(statusOf([adapter("QuestionReset", { inDispute: true })])).toEqual(["none"]);
    expect(statusOf([adapter("QuestionReset"), adapter("QuestionResolved")])).toEqual(["none"]);
    // A pause over a reset: the question cannot resolve while paused, whatever was asked.
    expect(statusOf([adapter("QuestionReset"), adapter("QuestionPaused")])).toEqual(["paused"]);
  });

  it("a question the oracle resolved stays resolved under a later flag or pause (v2's flag and pause check no `resolved`)", () => {
    expect(statusOf([adapter("QuestionResolved"), adapter("QuestionFlagged")])).toEqual(["none"]);
    expect(statusOf([adapter("QuestionResolved"), adapter("QuestionPaused")])).toEqual(["none"]);
    // A flagged question unpaused can be resolved by the oracle (resolve checks `paused` only): the flag no longer stands.
    expect(statusOf([adapter("QuestionFlagged"), adapter("QuestionUnpaused"), adapter("QuestionResolved")])).toEqual(["none"]);
  });

  it("folds in chain order whatever order the logs come in", () => {
    const flagged = adapter("QuestionFlagged");
    const unflagged = adapter("QuestionUnflagged");
    expect(statusOf([unflagged, flagged])).toEqual(["none"]);
  });
});

describe("outcomes outside the vote: the NegRiskOperator and the sports oracle", () => {
  it("the operator's flag and emergency resolution are the neg-risk question's, apart from the adapter's", () => {
    const outcomes = foldOutcomes([log("NegRiskOperator", "QuestionFlagged"), adapter("QuestionPaused")]);
    expect(outcomes.map((o) => [o.subject, o.contract, o.status])).toEqual([
      ["neg_risk_question", "NegRiskOperator", "flagged"],
      ["question", "UmaCtfAdapter", "paused"],
    ]);
    expect(statusOf([log("NegRiskOperator", "QuestionFlagged"), log("NegRiskOperator", "QuestionUnflagged")])).toEqual(["none"]);
    expect(statusOf([log("NegRiskOperator", "QuestionFlagged"), log("NegRiskOperator", "QuestionEmergencyResolved")])).toEqual([
      "emergency_resolved",
    ]);
  });

  it("a game: paused, emergency-settled, canceled, settled by the OO, or reset; a market: paused and emergency-resolved", () => {
    const game = (event: string) => log("UmaSportsOracle", event, GAME);
    expect(statusOf([game("GamePaused")])).toEqual(["paused"]);
    expect(statusOf([game("GamePaused"), game("GameUnpaused")])).toEqual(["none"]);
    expect(statusOf([game("GamePaused"), game("GameEmergencySettled")])).toEqual(["emergency_settled"]);
    expect(statusOf([game("GameCanceled")])).toEqual(["canceled"]);
    expect(statusOf([game("GameReset"), game("GameSettled")])).toEqual(["none"]);
    const market = (event: string) => log("UmaSportsOracle", event, MARKET);
    const outcomes = foldOutcomes([market("MarketPaused"), market("MarketEmergencyResolved"), game("GamePaused")]);
    expect(outcomes.map((o) => [o.subject, o.status])).toEqual([
      ["sports_market", "emergency_resolved"],
      ["game", "paused"],
    ]);
  });

  it("where several stand on one market, a resolution beats a flag, a flag a pause, a pause a reset; the later one on a tie", () => {
    const at = (status: "reset" | "paused" | "flagged" | "emergency_resolved", n: bigint) => ({ status, block_number: n });
    expect(decidingOutcome([at("reset", 9n), at("flagged", 1n), at("paused", 5n)])?.status).toBe("flagged");
    expect(decidingOutcome([at("flagged", 9n), at("emergency_resolved", 1n)])?.status).toBe("emergency_resolved");
    expect(decidingOutcome([at("paused", 1n), at("paused", 7n)])?.block_number).toBe(7n);
    expect(decidingOutcome([])).toBeNull();
  });

  it("the gate's own outcome (the operator's, the sports market's) decides over any upstream, even a resolution", () => {
    // NegRiskOperator.resolveQuestion reverts while flagged: the adapter's manual payouts are only its report.
    const adapterResolved = { subject: "question" as const, status: "manually_resolved" as const, block_number: 9n };
    const operatorFlagged = { subject: "neg_risk_question" as const, status: "flagged" as const, block_number: 1n };
    expect(decidingOutcome([adapterResolved, operatorFlagged])).toBe(operatorFlagged);
    // UmaSportsOracle.resolveMarket needs the market Created: a paused market of a canceled game is not resolved.
    const gameCanceled = { subject: "game" as const, status: "canceled" as const, block_number: 9n };
    const marketPaused = { subject: "sports_market" as const, status: "paused" as const, block_number: 1n };
    expect(decidingOutcome([gameCanceled, marketPaused])).toBe(marketPaused);
    // Between upstream outcomes the rank still decides.
    const adapterPaused = { subject: "question" as const, status: "paused" as const, block_number: 12n };
    expect(decidingOutcome([adapterResolved, adapterPaused])).toBe(adapterResolved);
  });
});
