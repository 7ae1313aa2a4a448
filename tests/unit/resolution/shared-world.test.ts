// The local chains and the Polymarket simulator share one world: every question the chains dispute is a market the
// simulator lists, found by the join (lib/resolution, written from the contracts independently of the simulator)
// from the dispute's ancillary bytes alone, on standard and neg-risk markets, and one of them closed.
import { describe, expect, it } from "vitest";
import { type Hex, hexToString } from "viem";
import { adapterKind } from "@/lib/resolution/ids";
import { indexMarkets, joinDisputeToMarket, questionIdFromAncillary } from "@/lib/resolution/join";
import { legacyBridgedAncillaryData, stampAncillaryData } from "@/lib/oracle/ancillary";
import { deriveProxyWallet, deriveSafeWallet } from "@/lib/resolution/wallets";
import { ancillaryOf, DISPUTED_QUESTIONS, VOTER_WALLETS } from "@/sim/polymarket/disputed";
import { World } from "@/sim/polymarket/world";

const world = new World({ seed: 7, scale: "demo", anchorMs: Date.UTC(2026, 10, 25) });
const markets = world.markets.map((m) => ({ ...m, id: m.id }));
const index = indexMarkets(markets);

describe("one world for the chains and the simulator", () => {
  it("lists a market for every disputed question, joined from the question's bytes", () => {
    const methods: string[] = [];
    for (const question of DISPUTED_QUESTIONS) {
      const ancillary = ancillaryOf(question);
      expect(hexToString(ancillary)).toContain(",initializer:");
      const join = joinDisputeToMarket({ questionId: questionIdFromAncillary(ancillary), requester: question.adapter }, index);
      expect(join.market, question.key).not.toBeNull();
      if (!join.market) continue;
      methods.push(`${question.key}:${join.method}`);
      expect(join.market.question).toBe(question.title);
      expect(world.events[join.market.eventIndex].negRisk).toBe(question.negRisk !== null);
      expect(join.market.closed).toBe(question.closed !== null);
    }
    // Standard markets join by Gamma's questionID, neg-risk ones by Gamma's negRiskRequestID.
    expect(methods).toEqual([
      "Q6:neg_risk_request_id",
      "Q1:question_id",
      "Q2:question_id",
      "Q3:neg_risk_request_id",
      "Q4:question_id",
      "Q5:question_id",
      "Q7:question_id",
    ]);
  });

  it("derives the condition ids as the contracts do, so a market without questionID still joins", () => {
    const byCondition = indexMarkets(markets.map((m) => ({ id: m.id, conditionId: m.conditionId })));
    for (const question of DISPUTED_QUESTIONS.filter((q) => adapterKind(q.adapter) === "standard")) {
      const join = joinDisputeToMarket(
        { questionId: questionIdFromAncillary(ancillaryOf(question)), requester: question.adapter },
        byCondition,
      );
      expect(join.market?.id, question.key).toBeDefined();
      expect(join.market && "method" in join ? join.method : null).toBe("condition_id");
    }
  });

  it("joins from the texts the DVM receives: stamped with the requester, and the legacy tunnel's cleartext form", () => {
    const q = DISPUTED_QUESTIONS.find((d) => d.key === "Q3")!;
    const stamped: Hex = stampAncillaryData(ancillaryOf(q), q.adapter);
    const legacy = legacyBridgedAncillaryData(stamped, "0xee3Afe347D5C74317041E2618C49534dAf887c24");
    for (const form of [stamped, legacy]) {
      const join = joinDisputeToMarket({ questionId: questionIdFromAncillary(form), requester: q.adapter }, index);
      expect(join.market?.question).toBe(q.title);
    }
  });

  it("leaves the generated world alone: the disputed events come after it", () => {
    const first = world.events.findIndex((e) => e.title === "Fed decision in June 2026?");
    expect(first).toBe(world.events.length - DISPUTED_QUESTIONS.length);
  });

  it("gives the voters' wallets the addresses Polymarket's factories derive from the stakers, holding the disputed markets", () => {
    const derive = { proxy: deriveProxyWallet, safe: deriveSafeWallet, same_address: (a: `0x${string}`) => a };
    for (const voter of VOTER_WALLETS) {
      expect(voter.wallet).toBe(derive[voter.kind](voter.staker));
      const wallet = world.walletByAddress.get(voter.wallet.toLowerCase())!;
      const held = [...world.positionsOfWallet(wallet)].map((p) => world.markets[world.posMarket[p]].question);
      expect(held.sort()).toEqual(
        DISPUTED_QUESTIONS.filter((q) => voter.holds.includes(q.key))
          .map((q) => q.title)
          .sort(),
      );
    }
  });
});
