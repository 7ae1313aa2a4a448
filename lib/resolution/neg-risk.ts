// Neg-risk (multi-outcome) markets: Polymarket/neg-risk-ctf-adapter `src/libraries/NegRiskIdLib.sol`,
// `src/NegRiskOperator.sol`, `src/modules/MarketDataManager.sol` (docs/resolution.md, "Neg-risk markets").
//   marketId   = keccak256(abi.encode(oracle, feeBips, metadata)) with the last byte zeroed
//   questionId = marketId + questionIndex (the last byte is the index)
//   conditionId = getConditionId(NegRiskAdapter, questionId, 2)
// The UMA adapter's questionID of such a market is NOT its questionId: it is the `requestId` the NegRiskOperator
// stored when the question was prepared (`QuestionPrepared(marketId, questionId, requestId, questionIndex, data)`),
// and Gamma shows it as the market's `negRiskRequestID`.
import { type Address, type Hex, encodeAbiParameters, keccak256, pad, toHex } from "viem";
import { NEG_RISK_ADAPTER } from "./addresses";
import { conditionIdOf } from "./ids";

const MASK = (1n << 256n) - 256n; // bytes32(type(uint256).max) << 8

/** NegRiskIdLib.getMarketId(oracle, feeBips, metadata). */
export function negRiskMarketId(oracle: Address, feeBips: number, metadata: Hex): Hex {
  const hash = keccak256(
    encodeAbiParameters([{ type: "address" }, { type: "uint256" }, { type: "bytes" }], [oracle, BigInt(feeBips), metadata]),
  );
  return pad(toHex(BigInt(hash) & MASK), { size: 32 });
}

/** NegRiskIdLib.getMarketId(questionId): the question id with its index byte zeroed (Gamma's `negRiskMarketID`). */
export function negRiskMarketIdOf(questionId: Hex): Hex {
  return pad(toHex(BigInt(questionId) & MASK), { size: 32 });
}

/** NegRiskIdLib.getQuestionIndex. */
export function negRiskQuestionIndex(questionId: Hex): number {
  return Number(BigInt(questionId) & 0xffn);
}

/** NegRiskIdLib.getQuestionId(marketId, index). */
export function negRiskQuestionId(marketId: Hex, questionIndex: number): Hex {
  if (!Number.isInteger(questionIndex) || questionIndex < 0 || questionIndex > 255) throw new RangeError("questionIndex is a uint8");
  return pad(toHex(BigInt(marketId) + BigInt(questionIndex)), { size: 32 });
}

/** NegRiskAdapter.getConditionId(questionId): the CTF condition's oracle is the NegRiskAdapter itself. */
export function negRiskConditionId(questionId: Hex, negRiskAdapter: Address = NEG_RISK_ADAPTER): Hex {
  return conditionIdOf(negRiskAdapter, questionId);
}

interface PreparedQuestion {
  marketId: Hex;
  questionId: Hex;
  requestId: Hex;
  questionIndex: number;
}

export interface NegRiskLink extends PreparedQuestion {
  conditionId: Hex;
}

/**
 * requestId (lowercase) -> the neg-risk question it resolves, from decoded QuestionPrepared events. The operator
 * refuses a second question for one requestId (QuestionWithRequestIdAlreadyPrepared), so the map is a function; a
 * zero requestId (a placeholder question with no oracle request, as in the repo's own Integration.t.sol) is skipped.
 */
export function linkRequestsToQuestions(prepared: readonly PreparedQuestion[], negRiskAdapter: Address = NEG_RISK_ADAPTER) {
  const links = new Map<string, NegRiskLink>();
  for (const question of prepared) {
    if (BigInt(question.requestId) === 0n) continue;
    const key = question.requestId.toLowerCase();
    if (links.has(key)) continue;
    links.set(key, { ...question, conditionId: negRiskConditionId(question.questionId, negRiskAdapter) });
  }
  return links;
}
