// The dispute -> market join on both market kinds, on every form a dispute's text reaches us in, and its misses.
import { type Address, type Hex, stringToHex } from "viem";
import { describe, expect, it } from "vitest";
import { LEGACY_UMA_CTF_ADAPTER, NEG_RISK_ADAPTER, NEG_RISK_UMA_CTF_ADAPTERS, STANDARD_UMA_CTF_ADAPTERS } from "@/lib/resolution/addresses";
import { appendInitializer, conditionIdOf, questionIdOf } from "@/lib/resolution/ids";
import { type JoinableMarket, indexMarkets, joinDisputeToMarket, joinKeyOf, questionIdFromAncillary } from "@/lib/resolution/join";
import { linkRequestsToQuestions, negRiskConditionId, negRiskMarketId, negRiskQuestionId } from "@/lib/resolution/neg-risk";
import { legacyBridgedAncillaryData, stampAncillaryData } from "@/lib/oracle/ancillary";

const INITIALIZER: Address = "0x91430CaD2d3975766499717fA0D66A78d814E5c5";
const STANDARD_ADAPTER = STANDARD_UMA_CTF_ADAPTERS[0];
const NEG_RISK_UMA_ADAPTER = NEG_RISK_UMA_CTF_ADAPTERS[0];
const OOV2: Address = "0xeE3Afe347D5C74317041E2618C49534dAf887c24";
/** A NegRiskAdapter other than the legacy one (what a second operator's nrAdapter() may return). */
const OTHER_NR_ADAPTER: Address = "0x00000000000000000000000000000000000a0a0a";

const question = (title: string): Hex =>
  appendInitializer(
    stringToHex(
      `q: title: ${title}, description: Resolves Yes if it happens. res_data: p1: 0, p2: 1, p3: 0.5. Where p1 corresponds to No, p2 to Yes, p3 to unknown.`,
    ),
    INITIALIZER,
  );

// A standard market as Gamma lists it (questionID and conditionId both present).
const standardText = question("Will the standard market resolve Yes?");
const standardQuestionId = questionIdOf(standardText);
const standard: JoinableMarket = {
  id: "101",
  questionID: standardQuestionId,
  conditionId: conditionIdOf(STANDARD_ADAPTER, standardQuestionId),
};

// A neg-risk market: Gamma's questionID is the neg-risk question, negRiskRequestID the UMA adapter's questionID.
const negRiskMarket = negRiskMarketId("0x71523d0f655B41E805Cec45b17163f528B59B820", 0, stringToHex("Who wins the election?"));
const candidateText = question("Will candidate B win the election?");
const candidateRequestId = questionIdOf(candidateText);
const candidateQuestionId = negRiskQuestionId(negRiskMarket, 1);
const candidate: JoinableMarket = {
  id: "202",
  questionID: candidateQuestionId,
  negRiskRequestID: candidateRequestId,
  conditionId: negRiskConditionId(candidateQuestionId),
};

describe("joining a dispute to its market", () => {
  it("joins a standard market by questionID, and by conditionId when Gamma omits questionID", () => {
    const joined = joinDisputeToMarket(
      { questionId: questionIdFromAncillary(standardText), requester: STANDARD_ADAPTER },
      indexMarkets([standard, candidate]),
    );
    expect(joined).toMatchObject({ market: { id: "101" }, method: "question_id", question_id: standardQuestionId });
    const withoutQuestionId = indexMarkets([{ ...standard, questionID: "" }]);
    expect(
      joinDisputeToMarket({ questionId: questionIdFromAncillary(standardText), requester: STANDARD_ADAPTER }, withoutQuestionId),
    ).toMatchObject({
      market: { id: "101" },
      method: "condition_id",
      condition_id: standard.conditionId,
    });
  });

  it("joins a neg-risk market by negRiskRequestID, and through the operator's QuestionPrepared when Gamma has no request id", () => {
    const dispute = { questionId: questionIdFromAncillary(candidateText), requester: NEG_RISK_UMA_ADAPTER };
    expect(joinDisputeToMarket(dispute, indexMarkets([standard, candidate]))).toMatchObject({
      market: { id: "202" },
      method: "neg_risk_request_id",
      condition_id: null,
    });
    const links = linkRequestsToQuestions([
      { marketId: negRiskMarket, questionId: candidateQuestionId, requestId: candidateRequestId, questionIndex: 1 },
    ]);
    const gammaWithoutRequestId = indexMarkets([{ ...candidate, negRiskRequestID: null, questionID: null }]);
    expect(joinDisputeToMarket(dispute, gammaWithoutRequestId, links)).toMatchObject({
      market: { id: "202" },
      method: "neg_risk_operator",
      condition_id: negRiskConditionId(candidateQuestionId, NEG_RISK_ADAPTER),
    });
  });

  it("joins the same market from the DVM's stamped text and from the legacy bridged text", () => {
    const index = indexMarkets([standard, candidate]);
    const stamped = stampAncillaryData(candidateText, NEG_RISK_UMA_ADAPTER);
    const legacy = legacyBridgedAncillaryData(stampAncillaryData(standardText, STANDARD_ADAPTER), OOV2);
    expect(joinDisputeToMarket({ questionId: questionIdFromAncillary(stamped), requester: NEG_RISK_UMA_ADAPTER }, index).market?.id).toBe(
      "202",
    );
    expect(joinDisputeToMarket({ questionId: questionIdFromAncillary(legacy), requester: STANDARD_ADAPTER }, index).market?.id).toBe("101");
  });

  it("says why when no market is found: closed and not listed, no text, or the legacy adapter", () => {
    const closedOnly = indexMarkets([candidate]);
    expect(joinDisputeToMarket({ questionId: questionIdFromAncillary(standardText), requester: STANDARD_ADAPTER }, closedOnly)).toEqual({
      market: null,
      reason: "not_listed",
      question_id: standardQuestionId,
      // The id to look the closed market up by (Gamma `condition_ids=`).
      condition_id: standard.conditionId,
    });
    expect(joinDisputeToMarket({ questionId: null, requester: STANDARD_ADAPTER }, closedOnly)).toMatchObject({
      market: null,
      reason: "no_question_text",
    });
    expect(
      joinDisputeToMarket({ questionId: questionIdFromAncillary(standardText), requester: LEGACY_UMA_CTF_ADAPTER }, closedOnly),
    ).toMatchObject({
      market: null,
      reason: "legacy_adapter",
    });
  });

  it("joins through the oracle row's neg_risk (the operator's question, either condition oracle) and sports (winner first)", () => {
    // A neg-risk market Gamma lists with neither questionID nor negRiskRequestID: only the operator's question leads there.
    const bare: JoinableMarket = { id: "303", conditionId: negRiskConditionId(candidateQuestionId, OTHER_NR_ADAPTER) };
    const row = {
      question_id: candidateRequestId,
      requester: NEG_RISK_UMA_ADAPTER,
      neg_risk: {
        question_id: candidateQuestionId,
        condition_ids: [
          negRiskConditionId(candidateQuestionId, NEG_RISK_ADAPTER),
          negRiskConditionId(candidateQuestionId, OTHER_NR_ADAPTER),
        ],
      },
    };
    expect(joinDisputeToMarket(joinKeyOf(row), indexMarkets([standard, bare]))).toMatchObject({
      market: { id: "303" },
      method: "neg_risk_operator",
    });
    // Without the operator's answer the same market is out of reach.
    expect(joinDisputeToMarket(joinKeyOf({ ...row, neg_risk: null }), indexMarkets([bare])).market).toBeNull();
    const game = {
      question_id: questionIdOf(stringToHex('{"title":"A vs. B"},initializer:91430cad2d3975766499717fa0d66a78d814e5c5')),
      requester: "0xb21182d0494521Cf45DbbeEbb5A3ACAAb6d22093" as Address,
      sports: {
        markets: [
          { condition_id: `0x${"02".repeat(32)}`, market_type: "totals" },
          { condition_id: `0x${"01".repeat(32)}`, market_type: "winner" },
        ],
      },
    };
    const markets = [
      { id: "totals", conditionId: `0x${"02".repeat(32)}` },
      { id: "winner", conditionId: `0x${"01".repeat(32)}` },
    ];
    expect(joinDisputeToMarket(joinKeyOf(game), indexMarkets(markets))).toMatchObject({ market: { id: "winner" }, method: "sports_game" });
    expect(joinDisputeToMarket(joinKeyOf(game), indexMarkets(markets.slice(0, 1)))).toMatchObject({
      market: { id: "totals" },
      method: "sports_game",
    });
  });

  it("never joins on the market_id a question text claims (anyone can initialize a question)", () => {
    const forged = question("Forged question market_id: 101");
    expect(
      joinDisputeToMarket({ questionId: questionIdFromAncillary(forged), requester: STANDARD_ADAPTER }, indexMarkets([standard])).market,
    ).toBeNull();
  });
});
