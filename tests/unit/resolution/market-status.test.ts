// Markets' resolution from joined dispute rows: one entry per disputed market, latest dispute wins, others absent.
import { describe, expect, it } from "vitest";
import { type DisputeOfMarket, resolutionsByConditionId } from "@/lib/resolution/market-status";
import { decimalToWei } from "@/lib/resolution/status";

const market = { condition_id: "0xABC", outcomes: ["Yes", "No"] };
const row = (overrides: Partial<DisputeOfMarket>): DisputeOfMarket => ({
  id: "0x01",
  status: "disputed",
  proposed_price: "1",
  requested_at: "2026-05-27T10:00:00.000Z",
  proposed_at: "2026-05-27T10:05:00.000Z",
  disputed_at: "2026-05-27T11:00:00.000Z",
  dvm: null,
  market,
  ...overrides,
});

describe("market resolution from disputes", () => {
  it("gives each disputed market its status, proposal in words, dispute and vote round", () => {
    const first = row({ id: "0x01" });
    const second = row({
      id: "0x02",
      status: "voting",
      proposed_price: "0",
      requested_at: "2026-05-27T11:00:00.000Z",
      proposed_at: "2026-05-27T12:00:00.000Z",
      disputed_at: "2026-05-27T13:00:00.000Z",
      dvm: { status: "active", round_id: 10_301 },
    });
    const byCondition = resolutionsByConditionId([first, second, row({ id: "0x03", market: null })]);
    expect([...byCondition.keys()]).toEqual(["0xabc"]);
    expect(byCondition.get("0xabc")).toEqual({
      status: "voting",
      proposed_price: "0",
      proposed_outcome: "No",
      proposed_at: "2026-05-27T12:00:00.000Z",
      disputed_at: "2026-05-27T13:00:00.000Z",
      settled_at: null,
      dispute_id: "0x02",
      vote_round: 10_301,
      oo_state: "Disputed",
      dvm_status: "Active",
      outcome: null,
    });
  });

  it("an undisputed proposal is proposed, then settled with its Settle time; a disputed request is not counted twice", () => {
    const market = { condition_id: "0xdef", outcomes: ["Yes", "No"] };
    const proposal = {
      id: "0x0p" as const,
      oo_state: 2 as const,
      proposed_price: "1",
      requested_at: "2026-05-27T10:00:00.000Z",
      proposed_at: "2026-05-27T10:05:00.000Z",
      disputed_at: null,
      settled_at: null,
      market,
    };
    expect(resolutionsByConditionId([], [proposal]).get("0xdef")).toMatchObject({
      status: "proposed",
      proposed_outcome: "Yes",
      proposed_at: "2026-05-27T10:05:00.000Z",
      settled_at: null,
    });
    // A legacy OOv2 proposal past liveness: `expired` (OO Expired), not the OO's Resolved.
    expect(resolutionsByConditionId([], [{ ...proposal, oo_state: 3 }]).get("0xdef")).toMatchObject({
      status: "expired",
      oo_state: "Expired",
    });
    const settled = { ...proposal, oo_state: 6 as const, settled_at: "2026-05-27T12:05:00.000Z" };
    expect(resolutionsByConditionId([], [settled]).get("0xdef")).toMatchObject({
      status: "settled",
      settled_at: "2026-05-27T12:05:00.000Z",
    });
    // The same request listed as a dispute: the dispute's view wins.
    const asDispute = row({ id: "0x0p", market });
    expect(resolutionsByConditionId([asDispute], [settled]).get("0xdef")?.status).toBe(asDispute.status);
  });

  it("follows a dispute to resolved and settled", () => {
    expect(resolutionsByConditionId([row({ status: "resolved", dvm: { status: "resolved", round_id: 7 } })]).get("0xabc")).toMatchObject({
      status: "resolved",
      oo_state: "Resolved",
      dvm_status: "Resolved",
    });
    // The DVM's price not yet on Polygon; a request queued for a later round.
    expect(
      resolutionsByConditionId([row({ status: "dvm_resolved", oo_state: "Disputed", dvm: { status: "resolved", round_id: 7 } })]).get(
        "0xabc",
      ),
    ).toMatchObject({ status: "dvm_resolved", oo_state: "Disputed", dvm_status: "Resolved" });
    expect(resolutionsByConditionId([row({ status: "deleted", dvm: { status: "deleted", round_id: 8 } })]).get("0xabc")?.status).toBe(
      "deleted",
    );
    expect(resolutionsByConditionId([row({ status: "queued", dvm: { status: "future", round_id: 8 } })]).get("0xabc")).toMatchObject({
      status: "queued",
      dvm_status: "Future",
    });
    expect(resolutionsByConditionId([row({ status: "settled" })]).get("0xabc")?.status).toBe("settled");
  });

  it("reads decimal prices back exactly", () => {
    expect(decimalToWei("0.5")).toBe(5n * 10n ** 17n);
    expect(decimalToWei("-57896044618658097711785492504343953926634992332820282019728.792003956564819968")).toBe(-(2n ** 255n));
  });
});
