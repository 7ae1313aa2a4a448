// Outcomes outside the vote that the seeded world has no market for, played on the local chains and read back through
// the index (sources: sim/chain/SOURCES.md; values: docs/oracle-facts.md "Outcomes outside the vote"):
//   - the sports oracle: a disputed game paused and emergency-settled by the admin, one of its markets paused and
//     emergency-resolved, a second game canceled by the OO's canceled value through the settle callback;
//   - the v4 adapter (Managed OOv2): a question flagged, then resolved manually after the safety period;
//   - a NegRiskOperator's flag lifted again (unflagQuestion);
//   - an admin's reset, standing until the new request is proposed and resolved through the oracle (QuestionResolved).
// Each shows on the dispute row (`question_outcome`), in the index's outcomes with its markets' ids, and as one
// question-level `resolution` stream transition.
import { type Address, encodePacked, type Hex, keccak256, stringToHex, type TransactionReceipt } from "viem";
import { polygon } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadEnv } from "@/lib/env";
import { oracleConfigFromEnv } from "@/lib/oracle/config";
import { createOracleContext, type OracleContext } from "@/lib/oracle/context";
import { runIndexerPass } from "@/lib/oracle/indexer";
import { readOutcomeSubjects } from "@/lib/oracle/outcomes";
import { getOracleDisputes } from "@/lib/oracle/service";
import { publishResolutionTransitions } from "@/lib/resolution/push";
import { type LocalChains, startLocalChains } from "@/sim/chain";
import { compileContracts } from "@/sim/chain/compile";
import { POLYMARKET_ADAPTERS, polymarketAncillary, SPORTS_ORACLE, UMA_CTF_ADAPTER_V4 } from "@/sim/chain/seed";
import { freshDb } from "./helpers";
import { driver, ONE, YES_OR_NO } from "@/tests/helpers/chain-driver";

vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

let chains: LocalChains;
let ctx: OracleContext;
let closeDb: () => Promise<void>;
let artifacts: ReturnType<typeof compileContracts>;
let poly: ReturnType<typeof driver>;

const MULTIPLE_VALUES = stringToHex("MULTIPLE_VALUES", { size: 32 });
const someone = (n: number): Address => `0x${(0xfed000 + n).toString(16).padStart(40, "0")}`;
const blockTime = async (receipt: TransactionReceipt) => (await poly.pub.getBlock({ blockNumber: receipt.blockNumber })).timestamp;
const gameData = (title: string) =>
  stringToHex(`{"title":"${title}","description":"Final scores.","labels":["Home","Away"]},initializer:${someone(1).slice(2)}`);

beforeAll(async () => {
  chains = await startLocalChains({ logChunkSize: 50 });
  artifacts = compileContracts();
  poly = driver(chains.anvilUrls.polygon, polygon);
  const db = await freshDb();
  closeDb = db.close;
  ctx = createOracleContext("outcomes", oracleConfigFromEnv(loadEnv({ ...process.env, ...chains.env })), async () => db.db);
}, 90_000);

afterAll(async () => {
  await closeDb?.();
  await chains?.stop();
});

describe("outcomes outside the vote on the local chains", { shuffle: false }, () => {
  it("the sports oracle: emergency-settled game, emergency-resolved market, canceled game; the v4 admin's resolution; a lifted flag", async () => {
    const S = artifacts.MockUmaSportsOracle.abi;
    const OO = artifacts.MockOptimisticOracleV2.abi;
    const oo = chains.addresses.optimisticOracleV2;
    // A disputed game with two markets: the first dispute resets it (GameReset in the dispute's transaction).
    const game = gameData("Outcome FC vs. Chain United");
    const gameId = keccak256(game);
    const created = await blockTime(await poly.send(SPORTS_ORACLE, S, "seedCreateGame", [game]));
    await poly.send(SPORTS_ORACLE, S, "createMarket", [gameId, 0, 0, 0n]);
    const spreads = await poly.send(SPORTS_ORACLE, S, "createMarket", [gameId, 1, 0, 1_500_000n]);
    const spreadsId = spreads.logs[0].topics[1]!;
    await poly.advanceTo(created + 60n);
    await poly.send(oo, OO, "seedProposePrice", [SPORTS_ORACLE, someone(2), MULTIPLE_VALUES, created, game, 3n]);
    await poly.advanceTo(created + 120n);
    await poly.send(oo, OO, "seedDisputePrice", [SPORTS_ORACLE, someone(3), MULTIPLE_VALUES, created, game]);
    await poly.send(SPORTS_ORACLE, S, "pauseGame", [gameId]);
    const settled = await poly.send(SPORTS_ORACLE, S, "emergencySettleGame", [gameId, 2, 1]);
    await poly.send(SPORTS_ORACLE, S, "pauseMarket", [spreadsId]);
    await poly.send(SPORTS_ORACLE, S, "emergencyResolveMarket", [spreadsId, [0n, 1n]]);

    // A second game the OO answers "canceled" (type(int256).max): the settle callback cancels it.
    const other = gameData("Rained Out vs. Nobody");
    const otherAt = await blockTime(await poly.send(SPORTS_ORACLE, S, "seedCreateGame", [other]));
    await poly.advanceTo(otherAt + 60n);
    await poly.send(oo, OO, "seedProposePrice", [SPORTS_ORACLE, someone(4), MULTIPLE_VALUES, otherAt, other, 2n ** 255n - 1n]);
    await poly.advanceTo(otherAt + 60n + 7300n);
    await poly.send(oo, OO, "seedSettle", [SPORTS_ORACLE, MULTIPLE_VALUES, otherAt, other]);

    // The v4 adapter: flagged, then resolved manually once the safety period (1 h) passed.
    const A = artifacts.MockUmaCtfAdapter.abi;
    const question = polymarketAncillary("Will the v4 admin resolve this by hand?", "Outcomes test.");
    const questionId = keccak256(question);
    await poly.send(UMA_CTF_ADAPTER_V4, A, "seedInitialize", [question, someone(5), 0n]);
    const flagged = await poly.send(UMA_CTF_ADAPTER_V4, A, "flag", [questionId]);
    await poly.advanceTo((await blockTime(flagged)) + 3601n);
    const manual = await poly.send(UMA_CTF_ADAPTER_V4, A, "resolveManually", [questionId, [1n, 0n]]);

    // A NegRiskOperator flags a question and lifts the flag again.
    const NRO = artifacts.MockNegRiskOperator.abi;
    const operator = chains.addresses.negRiskOperators[1];
    const nrQuestion = `0x${"ab".repeat(31)}01` as Hex;
    await poly.send(operator, NRO, "flagQuestion", [nrQuestion]);
    await poly.send(operator, NRO, "unflagQuestion", [nrQuestion]);

    expect((await runIndexerPass(ctx)).status).toBe("ok");
    const head = (await poly.pub.getBlock()).number;
    const subjects = await readOutcomeSubjects(ctx, head);
    const find = (kind: string, id: string) => subjects.find((s) => s.subject === kind && s.id === id.toLowerCase());
    const condition = (marketId: Hex) => keccak256(encodePacked(["address", "bytes32", "uint256"], [SPORTS_ORACLE, marketId, 2n]));
    expect(find("game", gameId)).toMatchObject({
      status: "emergency_settled",
      contract: "UmaSportsOracle",
      event: "GameEmergencySettled",
      tx_hash: settled.transactionHash,
    });
    // The game's outcome concerns both its markets (their MarketCreated conditions).
    expect(find("game", gameId)!.condition_ids).toHaveLength(2);
    expect(find("game", gameId)!.condition_ids).toContain(condition(spreadsId));
    expect(find("sports_market", spreadsId)).toMatchObject({ status: "emergency_resolved", condition_ids: [condition(spreadsId)] });
    expect(find("game", keccak256(other))).toMatchObject({ status: "canceled", event: "GameCanceled" });
    expect(find("question", questionId)).toMatchObject({
      status: "manually_resolved",
      event: "QuestionManuallyResolved",
      tx_hash: manual.transactionHash,
      condition_ids: [keccak256(encodePacked(["address", "bytes32", "uint256"], [UMA_CTF_ADAPTER_V4, questionId, 2n]))],
    });
    expect(find("neg_risk_question", nrQuestion)).toMatchObject({ status: "none", event: "QuestionUnflagged" });

    // The disputed game's row says what its contract decided; its own status stays its request's.
    const row = (await getOracleDisputes(ctx)).body.data.find((d) => d.question_id === gameId)!;
    expect(row).toMatchObject({ status: "disputed", question_reset: true, question_outcome: { status: "emergency_settled" } });

    // The stream: one question-level transition per outcome standing (a lifted flag never published says nothing).
    const published = await publishResolutionTransitions(ctx);
    const questionLevel = published.transitions.filter((t) => t.scope === "question");
    const byId = (id: string) => questionLevel.filter((t) => t.question_id === id.toLowerCase()).map((t) => t.transition);
    expect(byId(gameId)).toEqual(["emergency_settled"]);
    expect(byId(spreadsId)).toEqual(["emergency_resolved"]);
    expect(byId(keccak256(other))).toEqual(["canceled"]);
    expect(byId(questionId)).toEqual(["manually_resolved"]);
    expect(byId(nrQuestion)).toEqual([]);
    const gameEvent = questionLevel.find((t) => t.question_id === gameId.toLowerCase())!;
    expect(gameEvent).toMatchObject({ dispute_id: row.id, from: null, outcome: { contract: "UmaSportsOracle" } });
    // Published once: the next run finds nothing new.
    expect((await publishResolutionTransitions(ctx)).transitions.filter((t) => t.scope === "question")).toEqual([]);
  });

  it("an admin's reset stands until the question resolves through the oracle, then is lifted (none) on the stream", async () => {
    const A = artifacts.MockUmaCtfAdapter.abi;
    const OO = artifacts.MockOptimisticOracleV2.abi;
    const oo = chains.addresses.optimisticOracleV2;
    const adapter = POLYMARKET_ADAPTERS[0];
    const question = polymarketAncillary("Will the admin's reset be lifted?", "Outcomes test.");
    const questionId = keccak256(question);
    const initialized = await blockTime(await poly.send(adapter, A, "seedInitialize", [question, someone(6), 0n]));
    // Later than the first request: the new one is asked at the reset's block time (an OO request is unique per time).
    await poly.advanceTo(initialized + 30n);
    const reset = await poly.send(adapter, A, "reset", [questionId]);
    const asked = await blockTime(reset);
    expect((await runIndexerPass(ctx)).status).toBe("ok");
    const subjectOf = async () =>
      (await readOutcomeSubjects(ctx, (await poly.pub.getBlock()).number)).find((s) => s.subject === "question" && s.id === questionId);
    expect(await subjectOf()).toMatchObject({ status: "reset", event: "QuestionReset", tx_hash: reset.transactionHash });
    const transitionsOf = async () =>
      (await publishResolutionTransitions(ctx)).transitions.filter(
        (t): t is Extract<typeof t, { scope: "question" }> => t.scope === "question" && t.question_id === questionId,
      );
    expect((await transitionsOf()).map((t) => t.transition)).toEqual(["reset"]);

    // The new request (asked at the reset's block time) is proposed, not disputed, and resolved: QuestionResolved.
    await poly.advanceTo(asked + 60n);
    await poly.send(oo, OO, "seedProposePrice", [adapter, someone(7), YES_OR_NO, asked, question, ONE]);
    await poly.advanceTo(asked + 60n + 7300n);
    await poly.send(adapter, A, "resolve", [questionId]);
    expect((await runIndexerPass(ctx)).status).toBe("ok");
    expect(await subjectOf()).toMatchObject({ status: "none", event: "QuestionResolved" });
    const lifted = await transitionsOf();
    expect(lifted.map((t) => [t.from?.status, t.transition, t.outcome])).toEqual([["reset", "none", null]]);
  });
});
