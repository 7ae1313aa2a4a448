// The contracts' own call order and bookkeeping, played on the local chains and read back through the index (each
// behaviour's source line is in sim/chain/SOURCES.md):
//   - a first dispute of a question its adapter asked resets it in the dispute's transaction (UmaCtfAdapter
//     .priceDisputed): one row marked `question_reset`, the market `reset` until the new request is proposed; a second
//     dispute only marks the refund and its vote decides the market;
//   - the child tunnel bridges a (identifier, DVM time, stamped text) only once: a second dispute with the same one
//     shares the first's DVM request, and stays one row;
//   - roll counts as VotingV2 counts them (`_getActualRollCount`), processed or not, and the current round for an Active
//     request (getPriceRequestStatuses);
//   - a neg-risk dispute joins through the NegRiskOperator's questionIds() (a market Gamma lists without a request id),
//     a sports dispute through its game's MarketCreated markets;
//   - State 3 stored for a Managed OOv2 proposal (before its semantics were known) is repaired to Proposed.
import {
  type Abi,
  type Address,
  decodeEventLog,
  encodeAbiParameters,
  encodePacked,
  getAddress,
  type Hex,
  keccak256,
  stringToHex,
  type TransactionReceipt,
} from "viem";
import { mainnet, polygon } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadEnv } from "@/lib/env";
import { legacyBridgedAncillaryData, stampAncillaryData } from "@/lib/oracle/ancillary";
import { oracleConfigFromEnv } from "@/lib/oracle/config";
import { createOracleContext, type OracleContext } from "@/lib/oracle/context";
import { runIndexerPass } from "@/lib/oracle/indexer";
import { readIndexedProposals } from "@/lib/oracle/proposals";
import { getOracleDisputes, getOracleRounds } from "@/lib/oracle/service";
import { indexMarkets, joinDisputeToMarket, joinKeyOf } from "@/lib/resolution/join";
import { resolutionsByConditionId } from "@/lib/resolution/market-status";
import { type LocalChains, startLocalChains } from "@/sim/chain";
import { compileContracts } from "@/sim/chain/compile";
import { LEGACY_NEG_RISK_ADAPTER, POLYMARKET_ADAPTERS, polymarketAncillary, ROOT_TUNNEL_ADDRESS, SPORTS_ORACLE } from "@/sim/chain/seed";
import { freshDb } from "./helpers";
import { driver, ONE, YES_OR_NO } from "@/tests/helpers/chain-driver";

vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

let chains: LocalChains;
let ctx: OracleContext;
let closeDb: () => Promise<void>;
let artifacts: ReturnType<typeof compileContracts>;
let eth: ReturnType<typeof driver>;
let poly: ReturnType<typeof driver>;

const someone = (n: number): Address => `0x${(0xdef000 + n).toString(16).padStart(40, "0")}`;
const idOf = (identifier: Hex, time: bigint, ancillary: Hex) =>
  keccak256(encodeAbiParameters([{ type: "bytes32" }, { type: "uint256" }, { type: "bytes" }], [identifier, time, ancillary]));

beforeAll(async () => {
  chains = await startLocalChains({ logChunkSize: 50 });
  artifacts = compileContracts();
  eth = driver(chains.anvilUrls.ethereum, mainnet);
  poly = driver(chains.anvilUrls.polygon, polygon);
  const db = await freshDb();
  closeDb = db.close;
  ctx = createOracleContext("reality", oracleConfigFromEnv(loadEnv({ ...process.env, ...chains.env })), async () => db.db);
}, 90_000);

afterAll(async () => {
  await closeDb?.();
  await chains?.stop();
});

/** The events of a receipt in log order, each as `<contract>.<event>` (contracts named by the test). */
function eventsOf(receipt: TransactionReceipt, contracts: Record<string, { address: string; abi: Abi }>): string[] {
  return receipt.logs.map((log) => {
    const [name, c] = Object.entries(contracts).find(([, c]) => c.address.toLowerCase() === log.address.toLowerCase())!;
    return `${name}.${decodeEventLog({ abi: c.abi, data: log.data, topics: log.topics }).eventName}`;
  });
}

const blockTime = async (receipt: TransactionReceipt) => (await poly.pub.getBlock({ blockNumber: receipt.blockNumber })).timestamp;

describe("the contracts' own order and bookkeeping, read back", () => {
  it("a first dispute resets the question in its own transaction; the second goes to the vote", async () => {
    const adapter = POLYMARKET_ADAPTERS[0];
    const oo = chains.addresses.optimisticOracleV2;
    const A = artifacts.MockUmaCtfAdapter.abi;
    const OO = artifacts.MockOptimisticOracleV2.abi;
    const contracts = {
      tunnel: { address: chains.addresses.childTunnel, abi: artifacts.MockOracleChildTunnel.abi },
      oo: { address: oo, abi: OO },
      adapter: { address: adapter, abi: A },
    };
    const ancillary = polymarketAncillary("Will the reset question be asked twice?", "Reality test.");
    const questionId = keccak256(ancillary);
    const first = await blockTime(await poly.send(adapter, A, "seedInitialize", [ancillary, someone(1), 5_000_000n]));
    // Polygon's blocks are seconds apart; anvil may mine several in one second, and a reset in the request's own second
    // would ask for the very same request (the real OO refuses it: "requestPrice: Invalid").
    await poly.advanceTo(first + 60n);
    await poly.send(oo, OO, "seedProposePrice", [adapter, someone(2), YES_OR_NO, first, ancillary, ONE]);
    await poly.advanceTo(first + 120n);
    const dispute1 = await poly.send(oo, OO, "seedDisputePrice", [adapter, someone(3), YES_OR_NO, first, ancillary]);
    // OptimisticOracleV2.disputePriceFor: the oracle (tunnel) first, DisputePrice, then the requester's callback, in
    // which the adapter asks again (RequestPrice) and says so (QuestionReset).
    expect(eventsOf(dispute1, contracts)).toEqual([
      "tunnel.PriceRequestBridged",
      "tunnel.PriceRequestAdded",
      "oo.DisputePrice",
      "oo.RequestPrice",
      "adapter.QuestionReset",
    ]);
    const second = await blockTime(dispute1);
    expect(
      await poly.pub.readContract({ address: oo, abi: OO, functionName: "getState", args: [adapter, YES_OR_NO, second, ancillary] }),
    ).toBe(1);
    expect((await runIndexerPass(ctx)).status).toBe("ok");
    const market = { condition_id: "0x00000000000000000000000000000000000000000000000000000000000000d1", outcomes: ["Yes", "No"] };
    const iso = (s: number | null) => (s === null ? null : new Date(s * 1000).toISOString());
    const statusOfMarket = async () => {
      const rows = (await getOracleDisputes(ctx)).body.data.filter((d) => d.question_id === questionId);
      const proposals = (await readIndexedProposals(ctx)).filter((p) => p.question_id === questionId);
      const joined = proposals.map((p) => ({
        ...p,
        requested_at: iso(p.requested_at),
        proposed_at: iso(p.proposed_at),
        disputed_at: iso(p.disputed_at),
        settled_at: iso(p.settled_at),
        market,
      }));
      return {
        rows,
        resolution: resolutionsByConditionId(
          rows.map((r) => ({ ...r, market })),
          joined,
        ).get(market.condition_id)!,
      };
    };
    let { rows, resolution } = await statusOfMarket();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ question_reset: true, status: "disputed", dispute_tx_hash: dispute1.transactionHash });
    // The market waits for a proposal on the new request, not for this dispute's vote.
    expect([resolution.status, resolution.oo_state]).toEqual(["reset", "Requested"]);

    await poly.advanceTo(second + 60n);
    await poly.send(oo, OO, "seedProposePrice", [adapter, someone(4), YES_OR_NO, second, ancillary, 0n]);
    expect((await runIndexerPass(ctx)).status).toBe("ok");
    expect((await statusOfMarket()).resolution.status).toBe("proposed");
    await poly.advanceTo(second + 120n);

    const dispute2 = await poly.send(oo, OO, "seedDisputePrice", [adapter, someone(5), YES_OR_NO, second, ancillary]);
    // A question reset once is not reset again: the adapter only marks the reward for refund.
    expect(eventsOf(dispute2, contracts)).toEqual(["tunnel.PriceRequestBridged", "tunnel.PriceRequestAdded", "oo.DisputePrice"]);
    const question = (await poly.pub.readContract({ address: adapter, abi: A, functionName: "getQuestion", args: [questionId] })) as {
      reset: boolean;
      refund: boolean;
      requestTimestamp: bigint;
    };
    expect(question).toMatchObject({ reset: true, refund: true, requestTimestamp: second });
    expect((await runIndexerPass(ctx)).status).toBe("ok");
    ({ rows, resolution } = await statusOfMarket());
    expect(rows).toHaveLength(2);
    const byTx = new Map(rows.map((r) => [r.dispute_tx_hash, r]));
    expect(byTx.get(dispute1.transactionHash)?.question_reset).toBe(true);
    expect(byTx.get(dispute2.transactionHash)?.question_reset).toBe(false);
    expect(resolution).toMatchObject({ status: "disputed", oo_state: "Disputed", dispute_id: byTx.get(dispute2.transactionHash)!.id });
  });

  it("the tunnel bridges one DVM request once: a second dispute with the same DVM time shares it and stays one row", async () => {
    const requester = POLYMARKET_ADAPTERS[1];
    const oo = chains.addresses.optimisticOracleV2;
    const tunnel = chains.addresses.childTunnel;
    const T = artifacts.MockOracleChildTunnel.abi;
    const ancillary = polymarketAncillary("Will two disputes share one DVM request?", "Reality test.");
    // Two requests of one question proposed in the same second: the DVM time (the proposal time) is the same.
    const proposalTime = 1_781_000_000n;
    const receipt = await poly.send(oo, artifacts.MockOptimisticOracleV2.abi, "seedBulkDisputes", [
      requester,
      YES_OR_NO,
      [proposalTime - 600n, proposalTime - 300n],
      [proposalTime, proposalTime],
      [ancillary, ancillary],
      someone(6),
      someone(7),
    ]);
    const bridged = receipt.logs
      .filter((l) => l.address.toLowerCase() === tunnel.toLowerCase())
      .map((l) => decodeEventLog({ abi: T, data: l.data, topics: l.topics }))
      .filter((l) => l.eventName === "PriceRequestBridged") as unknown as { args: { ancillaryData: Hex; parentRequestId: Hex } }[];
    expect(bridged).toHaveLength(1);
    const compressed = (await poly.pub.readContract({
      address: tunnel,
      abi: T,
      functionName: "compressAncillaryData",
      args: [bridged[0].args.ancillaryData, oo, receipt.blockNumber],
      blockNumber: receipt.blockNumber,
    })) as Hex;
    expect(idOf(YES_OR_NO, proposalTime, compressed)).toBe(bridged[0].args.parentRequestId);
    await eth.send(chains.addresses.votingV2, artifacts.MockVotingV2.abi, "seedRequest", [
      ROOT_TUNNEL_ADDRESS,
      YES_OR_NO,
      proposalTime,
      compressed,
    ]);
    expect((await runIndexerPass(ctx)).status).toBe("ok");
    const rows = (await getOracleDisputes(ctx)).body.data.filter(
      (d) => d.question_id === keccak256(ancillary) || d.dvm?.request_id === bridged[0].args.parentRequestId,
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatchObject({
        status: "queued",
        dispute_tx_hash: receipt.transactionHash,
        dvm: { request_id: bridged[0].args.parentRequestId },
      });
    }
  });

  it("roll counts as VotingV2 counts them, processed or not; an Active request is in the current round", async () => {
    const V = artifacts.MockVotingV2.abi;
    const voting = chains.addresses.votingV2;
    const current = Number(await eth.pub.readContract({ address: voting, abi: V, functionName: "getCurrentRoundId" }));
    // DVM requests of Polymarket questions in the legacy cleartext form (their Polygon side is not needed here).
    const make = (key: string) => {
      const ancillary = polymarketAncillary(`Will the roll test ${key} roll?`, "Reality test.");
      const text = legacyBridgedAncillaryData(stampAncillaryData(ancillary, POLYMARKET_ADAPTERS[0]), chains.addresses.optimisticOracleV2);
      return { key, time: 1_781_100_000n + BigInt(key.length), text, title: `Will the roll test ${key} roll?` };
    };
    const lazy = make("lazy");
    const processed = make("processed");
    const overdue = make("overdue-unprocessed");
    const dropped = make("overdue-processed");
    await eth.send(voting, V, "seedBulkPending", [
      YES_OR_NO,
      [lazy.time, processed.time, overdue.time, dropped.time],
      [lazy.text, processed.text, overdue.text, dropped.text],
      [current - 2, current - 3, current - 6, current - 6],
    ]);
    // Processing now: three rounds passed count as three rolls in one RequestRolled; six pass maxRolls (4): deleted.
    await eth.send(voting, V, "seedRoll", [YES_OR_NO, processed.time, processed.text]);
    await eth.send(voting, V, "seedRoll", [YES_OR_NO, dropped.time, dropped.text]);
    expect((await runIndexerPass(ctx)).status).toBe("ok");
    const rows = (await getOracleDisputes(ctx)).body.data;
    const row = (r: { title: string }) => rows.find((d) => d.title === r.title)!;
    expect(row(lazy)).toMatchObject({ status: "voting", dvm_status: "Active", roll_count: 2, dvm: { round_id: current } });
    expect(row(processed)).toMatchObject({ status: "voting", dvm_status: "Active", roll_count: 3, dvm: { round_id: current } });
    expect(row(overdue)).toMatchObject({ status: "disputed", dvm_status: "ToDelete", roll_count: 6, dvm: { round_id: current - 6 } });
    expect(row(dropped)).toMatchObject({ status: "deleted", roll_count: 6, dvm: { status: "deleted" } });
    // The Active ones agree with the contract's own getPendingRequests().rollCount.
    const pending = (await eth.pub.readContract({ address: voting, abi: V, functionName: "getPendingRequests" })) as {
      rollCount: number;
      ancillaryData: Hex;
    }[];
    expect(pending.find((p) => p.ancillaryData === lazy.text)?.rollCount).toBe(2);
    expect(pending.find((p) => p.ancillaryData === processed.text)?.rollCount).toBe(3);
    // The active round's requests: VotingV2's own count (the processed roll is in it) plus the lazy request, rolled
    // into this round but not processed yet (only processing counts a roll).
    const [, , , , toVote] = (await eth.pub.readContract({ address: voting, abi: V, functionName: "rounds", args: [BigInt(current)] })) as [
      Address,
      bigint,
      bigint,
      bigint,
      number,
    ];
    const active = (await getOracleRounds(ctx)).body.data.find((r) => r.round_id === current)!;
    expect(active.requests).toBe(Number(toVote) + 1);
  });

  it("a neg-risk dispute joins through the operator's question (nrAdapter() and the legacy adapter), with no Gamma request id", async () => {
    const adapter = POLYMARKET_ADAPTERS[2];
    const oo = chains.addresses.optimisticOracleV2;
    const OO = artifacts.MockOptimisticOracleV2.abi;
    const operatorV4 = chains.addresses.negRiskOperators[1];
    const ancillary = polymarketAncillary("Will candidate C win the neg-risk reality election?", "Reality test.");
    const questionID = keccak256(ancillary);
    const asked = await blockTime(
      await poly.send(adapter, artifacts.MockUmaCtfAdapter.abi, "seedInitialize", [ancillary, someone(10), 0n]),
    );
    // The operator prepares the question with the adapter's questionID as its requestId (NegRiskOperator.prepareQuestion).
    const marketId = `0x${"ab".repeat(31)}00` as Hex;
    await poly.send(operatorV4, artifacts.MockNegRiskOperator.abi, "seedPrepareQuestion", [marketId, "0x", questionID]);
    await poly.send(operatorV4, artifacts.MockNegRiskOperator.abi, "seedPrepareQuestion", [marketId, "0x01", keccak256("0x01")]);
    await poly.advanceTo(asked + 60n);
    await poly.send(oo, OO, "seedProposePrice", [adapter, someone(11), YES_OR_NO, asked, ancillary, ONE]);
    await poly.advanceTo(asked + 120n);
    await poly.send(oo, OO, "seedDisputePrice", [adapter, someone(12), YES_OR_NO, asked, ancillary]);
    expect((await runIndexerPass(ctx)).status).toBe("ok");
    const row = (await getOracleDisputes(ctx)).body.data.find((d) => d.question_id === questionID)!;
    const nrAdapter = (await poly.pub.readContract({
      address: operatorV4,
      abi: artifacts.MockNegRiskOperator.abi,
      functionName: "nrAdapter",
    })) as Address;
    const conditionOf = (oracle: Address, id: Hex) => keccak256(encodePacked(["address", "bytes32", "uint256"], [oracle, id, 2n]));
    expect(row.neg_risk).toEqual({
      operator: getAddress(operatorV4),
      question_id: marketId,
      market_id: marketId,
      condition_ids: [conditionOf(nrAdapter, marketId), conditionOf(LEGACY_NEG_RISK_ADAPTER, marketId)],
    });
    // A market Gamma lists without `negRiskRequestID` (the sampler never stored it): joined by the operator's question.
    const gammaMarket = { id: "nr-1", conditionId: conditionOf(nrAdapter, marketId), questionID: null, negRiskRequestID: null };
    expect(joinDisputeToMarket(joinKeyOf(row), indexMarkets([gammaMarket]))).toMatchObject({
      market: { id: "nr-1" },
      method: "neg_risk_operator",
    });
  });

  it("a sports dispute is listed with its game's markets and joins by game id; its first dispute resets the game", async () => {
    const sports = SPORTS_ORACLE;
    const S = artifacts.MockUmaSportsOracle.abi;
    const OO = artifacts.MockOptimisticOracleV2.abi;
    const oo = chains.addresses.optimisticOracleV2;
    const MULTIPLE_VALUES = stringToHex("MULTIPLE_VALUES", { size: 32 });
    const game = stringToHex(
      `{"title":"Reality FC vs. Test United","description":"Final scores of the match.","labels":["Reality FC","Test United"]},initializer:${someone(13).slice(2)}`,
    );
    const gameId = keccak256(game);
    const created = await blockTime(await poly.send(sports, S, "seedCreateGame", [game]));
    for (const [type, line] of [
      [0, 0n],
      [1, 1_500_000n],
      [2, 2_500_000n],
    ] as const) {
      await poly.send(sports, S, "createMarket", [gameId, type, 0, line]);
    }
    await poly.advanceTo(created + 60n);
    await poly.send(oo, OO, "seedProposePrice", [sports, someone(14), MULTIPLE_VALUES, created, game, 3n]);
    await poly.advanceTo(created + 120n);
    const dispute = await poly.send(oo, OO, "seedDisputePrice", [sports, someone(15), MULTIPLE_VALUES, created, game]);
    expect((await runIndexerPass(ctx)).status).toBe("ok");
    const row = (await getOracleDisputes(ctx)).body.data.find((d) => d.question_id === gameId)!;
    expect(row).toMatchObject({
      title: "Reality FC vs. Test United",
      identifier: "MULTIPLE_VALUES",
      question_reset: true,
      dispute_tx_hash: dispute.transactionHash,
    });
    expect(row.sports?.game_id).toBe(gameId);
    expect(row.sports?.markets.map((m) => [m.market_type, m.line])).toEqual([
      ["winner", "0"],
      ["spreads", "1500000"],
      ["totals", "2500000"],
    ]);
    const winner = row.sports!.markets[0];
    // UmaSportsOracle._prepareMarket: the condition's oracle is the sports oracle, its question the market id.
    expect(winner.condition_id).toBe(keccak256(encodePacked(["address", "bytes32", "uint256"], [sports, winner.market_id, 2n])));
    const markets = row.sports!.markets.map((m, i) => ({ id: `game-${i}`, conditionId: m.condition_id }));
    expect(joinDisputeToMarket(joinKeyOf(row), indexMarkets(markets))).toMatchObject({ market: { id: "game-0" }, method: "sports_game" });
  });

  it("State 3 stored for a Managed OOv2 proposal is repaired: the proposal reads as proposed again", async () => {
    const db = await ctx.db();
    const managed = chains.addresses.managedOptimisticOracleV2.toLowerCase();
    const questionId = keccak256(polymarketAncillary("Will the stale expired row be repaired?", "Reality test."));
    const requestId = keccak256(questionId);
    await db.oracleRequest.create({
      data: {
        chainId: 137,
        requestId,
        oracle: managed,
        requester: POLYMARKET_ADAPTERS[0].toLowerCase(),
        questionId,
        requestedAt: 1_781_200_000n,
        proposer: someone(8).toLowerCase(),
        proposedPrice: ONE.toString(),
        proposedAt: 1_781_200_060n,
        proposedBlock: 1n,
        expiresAt: 1_781_207_260n,
        // What markExpired wrote for every oracle before the Managed OOv2's semantics were known.
        state: 3,
        stateBlock: 1n,
      },
    });
    // A context new to this process: the repair runs on its first pass.
    const fresh = createOracleContext(`reality-repair-${Date.now()}`, ctx.config, ctx.db);
    expect((await runIndexerPass(fresh)).status).toBe("ok");
    expect(await db.oracleRequest.findUnique({ where: { chainId_requestId: { chainId: 137, requestId } } })).toMatchObject({
      state: null,
      stateBlock: null,
    });
    expect((await readIndexedProposals(fresh)).find((p) => p.id === requestId)?.oo_state).toBe(2);
  });
});
