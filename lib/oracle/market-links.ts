// What ties a neg-risk or sports dispute to its markets, beside the standard rule (docs/oracle-indexer.md, "Neg-risk
// and sports joins"):
//   - neg-risk: the adapter's questionID is a NegRiskOperator's requestId; `operator.questionIds(questionID)` names the
//     neg-risk question, whose CTF condition's oracle is the operator's `nrAdapter()` (and, for the first operator, the
//     NegRiskAdapter UMA's monitor calls legacy). UMA's monitor reads exactly these, both operators in turn (protocol
//     monitor-v2 monitor-polymarket/common.ts `getNegRiskConditionIds`). A prepared question never changes
//     (prepareQuestion refuses a second one per requestId), so a link found once is kept from the previous answer;
//   - sports: the sports oracle's gameId is keccak256 of the request's ancillary data (UmaSportsOracle.createGame), and
//     each of the game's markets is announced by MarketCreated(marketId, gameId, conditionId, …) (indexed logs).
import { type Address, encodePacked, getAddress, type Hex, keccak256 } from "viem";
import { negRiskOperatorAbi } from "./abi";
import { LEGACY_NEG_RISK_ADAPTER } from "./config";
import type { OracleContext } from "./context";
import { lower, type SportsMarket } from "./dispute-sources";
import { boundedMulticall } from "./multicall";

export interface NegRiskLink {
  /** The operator whose questionIds(questionID) answered first. */
  operator: Address;
  /** The neg-risk question id (market id + index; Gamma's `questionID` of the market). */
  question_id: Hex;
  /** Its market id (the question id with the index byte zeroed; Gamma's `negRiskMarketID`). */
  market_id: Hex;
  /** getConditionId(adapter, question_id, 2) for the operator's nrAdapter() and the legacy NegRiskAdapter. */
  condition_ids: Hex[];
}

export interface SportsLink {
  game_id: Hex;
  markets: SportsMarket[];
}

const MASK = (1n << 256n) - 256n;
const ZERO = `0x${"0".repeat(64)}`;
const conditionIdOf = (oracle: Address, questionId: Hex) =>
  keccak256(encodePacked(["address", "bytes32", "uint256"], [oracle, questionId, 2n]));

// Questions no operator knew: asked again after a while, not on every pass.
const misses = ((globalThis as unknown as { __predmktNegRiskMisses?: Map<string, number> }).__predmktNegRiskMisses ??= new Map<
  string,
  number
>());
const MISS_RETRY_MS = 10 * 60_000;

/**
 * Neg-risk links by questionID (lower case) for these questionIDs: kept from `known` (the previous answer), else read
 * on Polygon at `block` (one sub-call per operator and question, plus each operator's nrAdapter()). A failed read
 * leaves the question unlinked for this pass.
 */
export async function readNegRiskLinks(
  ctx: OracleContext,
  questionIds: readonly Hex[],
  block: bigint,
  known: ReadonlyMap<string, NegRiskLink>,
): Promise<Map<string, NegRiskLink>> {
  const links = new Map<string, NegRiskLink>();
  const toRead: string[] = [];
  for (const id of new Set(questionIds.map(lower))) {
    const kept = known.get(id);
    if (kept) links.set(id, kept);
    else if (Date.now() - (misses.get(id) ?? 0) >= MISS_RETRY_MS) toRead.push(id);
  }
  const operators = ctx.config.negRiskOperators;
  if (!toRead.length || !operators.length) return links;
  const reads = await boundedMulticall(
    ctx.clients.polygon,
    "polygon",
    [
      ...operators.map((address) => ({ address, abi: negRiskOperatorAbi, functionName: "nrAdapter" })),
      ...toRead.flatMap((id) =>
        operators.map((address) => ({ address, abi: negRiskOperatorAbi, functionName: "questionIds", args: [id] })),
      ),
    ],
    { blockNumber: block },
  );
  const adapters = operators.map((_, i) => (reads[i].ok ? getAddress(reads[i].value as Address) : null));
  toRead.forEach((id, k) => {
    for (const [j, operator] of operators.entries()) {
      const read = reads[operators.length + k * operators.length + j];
      if (!read.ok || lower(read.value as Hex) === ZERO) continue;
      const questionId = read.value as Hex;
      const oracles = [...new Set([adapters[j], LEGACY_NEG_RISK_ADAPTER].filter((a): a is Address => a !== null))];
      links.set(id, {
        operator,
        question_id: questionId,
        market_id: `0x${(BigInt(questionId) & MASK).toString(16).padStart(64, "0")}`,
        condition_ids: oracles.map((oracle) => conditionIdOf(oracle, questionId)),
      });
      return;
    }
    misses.set(id, Date.now());
  });
  return links;
}

/** The game's markets (the sports oracle's MarketCreated logs); null when none is indexed. */
export function sportsLink(gameId: Hex, markets: ReadonlyMap<string, SportsMarket[]>): SportsLink | null {
  const found = markets.get(lower(gameId));
  return found?.length ? { game_id: gameId, markets: found } : null;
}
