// The DVM lifecycle details /disputes and /summary must get right, each played on the local chains on top of the seed:
//   - a legacy bridged question disputed twice (same text, two times) links each dispute to its own DVM request;
//   - roll_count is VotingV2's actual roll count (getPendingRequests), not the lagging RequestRolled logs;
//   - a request deleted after too many rolls (RequestDeleted) is marked deleted;
//   - request counts come from getNumberOfPriceRequestsPostUpdate (a concluded vote counts as resolved before
//     VotingV2 processes it lazily);
//   - a bridged dispute whose Polygon dispute log is not found gets its disputed_at from the PriceRequestBridged log
//     of the same transaction;
//   - a dispute emitted in the real log order (the tunnel's PriceRequestBridged BEFORE DisputePrice, as
//     OptimisticOracleV2.disputePriceFor calls the oracle first) is one row that reaches `voting` with its round and
//     reveals;
//   - a Managed OOv2 proposal past liveness stays `proposed` (its getState reads Proposed until a resolver settles),
//     honours the request manager's custom liveness, and still accepts a dispute, which is indexed like any other.
import { type Abi, decodeEventLog, encodeAbiParameters, getAddress, type Hex, keccak256 } from "viem";
import { mainnet, polygon } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadEnv } from "@/lib/env";
import { legacyBridgedAncillaryData, stampAncillaryData } from "@/lib/oracle/ancillary";
import { oracleConfigFromEnv } from "@/lib/oracle/config";
import { createOracleContext, type OracleContext } from "@/lib/oracle/context";
import { readDisputeVote } from "@/lib/oracle/dispute-vote";
import { runIndexerPass } from "@/lib/oracle/indexer";
import { readIndexedProposals } from "@/lib/oracle/proposals";
import { getOracleDisputes, getOracleSummary } from "@/lib/oracle/service";
import { resolutionsByConditionId } from "@/lib/resolution/market-status";
import { type LocalChains, startLocalChains } from "@/sim/chain";
import { compileContracts } from "@/sim/chain/compile";
import {
  PHASE_LENGTH,
  POLYMARKET_ADAPTERS,
  polymarketAncillary,
  ROOT_TUNNEL_ADDRESS,
  ROUND_LENGTH,
  UMA_CTF_ADAPTER_V4,
} from "@/sim/chain/seed";
import { freshDb } from "./helpers";
import { account, driver, YES_OR_NO } from "@/tests/helpers/chain-driver";

// Each test indexes real local chains (anvil) from scratch: on a loaded shared machine that takes tens of seconds.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

let chains: LocalChains;
let ctx: OracleContext;
let closeDb: () => Promise<void>;
let V: Abi;
let OO: Abi;
let T: Abi;
let MOO: Abi;

let eth: ReturnType<typeof driver>;
let poly: ReturnType<typeof driver>;

const idOf = (identifier: Hex, time: bigint, ancillary: Hex) =>
  keccak256(encodeAbiParameters([{ type: "bytes32" }, { type: "uint256" }, { type: "bytes" }], [identifier, time, ancillary]));

beforeAll(async () => {
  chains = await startLocalChains({ logChunkSize: 50 });
  const artifacts = compileContracts();
  V = artifacts.MockVotingV2.abi;
  OO = artifacts.MockOptimisticOracleV2.abi;
  T = artifacts.MockOracleChildTunnel.abi;
  MOO = artifacts.MockManagedOptimisticOracleV2.abi;
  eth = driver(chains.anvilUrls.ethereum, mainnet);
  poly = driver(chains.anvilUrls.polygon, polygon);
  const db = await freshDb();
  closeDb = db.close;
  ctx = createOracleContext("lifecycle", oracleConfigFromEnv(loadEnv({ ...process.env, ...chains.env })), async () => db.db);
}, 90_000);

afterAll(async () => {
  await closeDb?.();
  await chains?.stop();
});

/** A Polymarket question requested, proposed and disputed on the seeded OOv2 at `time`. */
async function disputeOnPolygon(text: string, time: bigint, key: string) {
  const ancillary = polymarketAncillary(text, `Lifecycle test ${key}.`);
  const requester = POLYMARKET_ADAPTERS[0];
  const oo = chains.addresses.optimisticOracleV2;
  const someone = (n: number) => `0x${(0xabc000 + n).toString(16).padStart(40, "0")}`;
  await poly.send(oo, OO, "seedRequestPrice", [requester, YES_OR_NO, time, ancillary, someone(1), 5_000_000n]);
  await poly.send(oo, OO, "seedProposePrice", [requester, someone(2), YES_OR_NO, time, ancillary, 10n ** 18n]);
  const receipt = await poly.send(oo, OO, "seedDisputePrice", [requester, someone(3), YES_OR_NO, time, ancillary]);
  return { ancillary, requester, receipt };
}

// One chain for the whole file, and later tests move its clock past earlier tests' rounds: they run in order.
describe("DVM lifecycle details", { shuffle: false }, () => {
  it("a legacy bridged question disputed twice: each dispute links to the DVM request with its own time", async () => {
    const text = "Will the lifecycle test question resolve twice?";
    const times = [1_780_000_000n, 1_780_100_000n];
    const ids: Hex[] = [];
    for (const [i, time] of times.entries()) {
      const { ancillary, requester, receipt } = await disputeOnPolygon(text, time, `twice-${i}`);
      // The DVM time of an event-based request is its proposal time, as the bridging log of the dispute says.
      const log = receipt.logs.find((l) => l.address.toLowerCase() === chains.addresses.childTunnel.toLowerCase())!;
      const dvmTime = (decodeEventLog({ abi: T, data: log.data, topics: log.topics }) as unknown as { args: { time: bigint } }).args.time;
      expect(dvmTime).not.toBe(time);
      // The pre-2025 tunnel: mainnet gets the stamped text plus its origin, in cleartext, at that time.
      const legacy = legacyBridgedAncillaryData(stampAncillaryData(ancillary, requester), chains.addresses.optimisticOracleV2);
      await eth.send(chains.addresses.votingV2, V, "seedRequest", [ROOT_TUNNEL_ADDRESS, YES_OR_NO, dvmTime, legacy]);
      ids.push(idOf(YES_OR_NO, dvmTime, legacy));
    }
    expect((await runIndexerPass(ctx)).status).toBe("ok");
    const rows = (await getOracleDisputes(ctx)).body.data.filter((d) => d.title === text);
    expect(rows).toHaveLength(2);
    const byTime = new Map(rows.map((r) => [r.requested_at, r.dvm?.request_id]));
    expect(byTime.get(new Date(Number(times[0]) * 1000).toISOString())).toBe(ids[0]);
    expect(byTime.get(new Date(Number(times[1]) * 1000).toISOString())).toBe(ids[1]);
    for (const row of rows) expect(row.dvm?.ancillary_form).toBe("legacy");
  });

  it("a bridged dispute whose dispute log is not found takes disputed_at from the PriceRequestBridged log of its transaction", async () => {
    const text = "Will the tunnel-only question keep its dispute time?";
    const time = 1_780_200_000n;
    // Whoever calls the tunnel is the child requester; this one emits no DisputePrice (an oracle we do not scan).
    const stamped = stampAncillaryData(polymarketAncillary(text, "Tunnel only."), POLYMARKET_ADAPTERS[0]);
    const receipt = await poly.send(chains.addresses.childTunnel, T, "requestPrice", [YES_OR_NO, time, stamped]);
    const block = await poly.pub.getBlock({ blockNumber: receipt.blockNumber });
    const [log] = receipt.logs;
    const bridged = decodeEventLog({ abi: T, data: log.data, topics: log.topics }) as unknown as { args: { parentRequestId: Hex } };
    const compressed = (await poly.pub.readContract({
      address: chains.addresses.childTunnel,
      abi: T,
      functionName: "compressAncillaryData",
      args: [stamped, account.address, receipt.blockNumber],
      blockNumber: receipt.blockNumber,
    })) as Hex;
    expect(idOf(YES_OR_NO, time, compressed)).toBe(bridged.args.parentRequestId);
    await eth.send(chains.addresses.votingV2, V, "seedRequest", [ROOT_TUNNEL_ADDRESS, YES_OR_NO, time, compressed]);
    expect((await runIndexerPass(ctx)).status).toBe("ok");
    const row = (await getOracleDisputes(ctx)).body.data.find((d) => d.title === text);
    expect(row).toBeDefined();
    expect(row!.disputed_at).toBe(new Date(Number(block.timestamp) * 1000).toISOString());
    expect(row!.dvm).toMatchObject({ request_id: bridged.args.parentRequestId, ancillary_form: "compressed" });
  });

  it("roll_count, deletion and request counts follow VotingV2's lazy processing", async () => {
    const before = (await getOracleDisputes(ctx)).body.data;
    const q5 = before.find((d) => d.title === "Will it snow in Paris in July 2026?")!;
    const q6 = before.find((d) => d.title === "Will the Fed cut rates at its June 2026 meeting?")!;
    const q4 = before.find((d) => d.title === "Will Lyon's metro line E open before 2030?")!;
    // Q5 waits for the next round; nothing has rolled it yet.
    expect([q5.status, q5.dvm_status, q5.roll_count]).toEqual(["queued", "Future", 0]);
    const added = await eth.pub.getContractEvents({ address: chains.addresses.votingV2, abi: V, eventName: "RequestAdded", fromBlock: 0n });
    const argsOf = (id: Hex) => {
      const log = added.find((l) => {
        const a = l.args as { identifier: Hex; time: bigint; ancillaryData: Hex };
        return idOf(a.identifier, a.time, a.ancillaryData) === id;
      })!;
      const a = log.args as { identifier: Hex; time: bigint; ancillaryData: Hex };
      return [a.identifier, a.time, a.ancillaryData] as const;
    };
    // Q6 is deleted after its rolls; Q4's vote (this round) concludes without anyone processing the queue.
    await eth.send(chains.addresses.votingV2, V, "seedDelete", [...argsOf(q6.dvm!.request_id)]);
    await eth.send(chains.addresses.votingV2, V, "seedConcludeVote", [...argsOf(q4.dvm!.request_id)]);
    // Two rounds later, with no transaction in between: Q5 was up for vote last round and rolled, lazily.
    const head = await eth.pub.getBlock();
    const currentRound = head.timestamp / BigInt(ROUND_LENGTH);
    await eth.advanceTo((currentRound + 2n) * BigInt(ROUND_LENGTH) + 100n);
    await poly.advanceTo((currentRound + 2n) * BigInt(ROUND_LENGTH) + 100n);
    expect((await runIndexerPass(ctx)).status).toBe("ok");

    const after = (await getOracleDisputes(ctx)).body.data;
    const q5After = after.find((d) => d.title === q5.title)!;
    // No RequestRolled log exists for it: the count is getPendingRequests()'s actual roll count.
    expect(q5After).toMatchObject({ status: "voting", roll_count: 1 });
    const q6After = after.find((d) => d.title === q6.title)!;
    // Deleted past maxRolls: its own status, while the OO request still reads Disputed.
    expect([q6After.status, q6After.oo_state, q6After.dvm?.status]).toEqual(["deleted", "Disputed", "deleted"]);
    const q4After = after.find((d) => d.title === q4.title)!;
    // The DVM has its price, Polygon does not yet: dvm_resolved (OO still Disputed), not the OO's own Resolved.
    expect([q4After.status, q4After.oo_state, q4After.dvm_status]).toEqual(["dvm_resolved", "Disputed", "Resolved"]);

    const summary = (await getOracleSummary(ctx)).body;
    const [plainPending, plainResolved] = (await eth.pub.readContract({
      address: chains.addresses.votingV2,
      abi: V,
      functionName: "getNumberOfPriceRequests",
    })) as readonly [bigint, bigint];
    // The plain count still holds Q4 as pending; the summary (PostUpdate) counts it resolved.
    expect(summary.meta.counts_stale).toBe(false);
    expect(summary.data.pending_requests).toBe(Number(plainPending) - 1);
    expect(summary.data.resolved_requests).toBe(Number(plainResolved) + 1);
  });

  // Runs last: it moves the clock a round on.
  it("a dispute emitted in the real order (bridging log first) is one row that reaches voting with its round and reveals", async () => {
    const text = "Will the real-order dispute stay one row?";
    const { ancillary, requester, receipt } = await disputeOnPolygon(text, 1_780_300_000n, "real-order");
    const oo = chains.addresses.optimisticOracleV2.toLowerCase();
    const tunnel = chains.addresses.childTunnel.toLowerCase();
    const bridgedLog = receipt.logs.find((l) => l.address.toLowerCase() === tunnel)!;
    const disputeLog = receipt.logs.find((l) => l.address.toLowerCase() === oo)!;
    // OptimisticOracleV2.disputePriceFor: _getOracle().requestPrice(...) first, emit DisputePrice after.
    expect(bridgedLog.logIndex).toBeLessThan(disputeLog.logIndex);
    const bridged = (
      decodeEventLog({ abi: T, data: bridgedLog.data, topics: bridgedLog.topics }) as unknown as {
        args: { time: bigint; ancillaryData: Hex; parentRequestId: Hex };
      }
    ).args;
    expect(bridged.ancillaryData).toBe(stampAncillaryData(ancillary, requester));
    const compressed = (await poly.pub.readContract({
      address: chains.addresses.childTunnel,
      abi: T,
      functionName: "compressAncillaryData",
      args: [bridged.ancillaryData, chains.addresses.optimisticOracleV2, receipt.blockNumber],
      blockNumber: receipt.blockNumber,
    })) as Hex;
    expect(idOf(YES_OR_NO, bridged.time, compressed)).toBe(bridged.parentRequestId);
    // The root tunnel's request on mainnet: voted next round. Move into that round's reveal phase and reveal.
    await eth.send(chains.addresses.votingV2, V, "seedRequest", [ROOT_TUNNEL_ADDRESS, YES_OR_NO, bridged.time, compressed]);
    const voteRound = (await eth.pub.getBlock()).timestamp / BigInt(ROUND_LENGTH) + 1n;
    const revealAt = voteRound * BigInt(ROUND_LENGTH) + BigInt(PHASE_LENGTH) + 100n;
    await eth.advanceTo(revealAt);
    await poly.advanceTo(revealAt);
    const voter = "0x00000000000000000000000000000000000a11ce";
    await eth.send(chains.addresses.votingV2, V, "seedReveal", [voter, voter, YES_OR_NO, bridged.time, compressed, 10n ** 18n]);
    expect((await runIndexerPass(ctx)).status).toBe("ok");

    const rows = (await getOracleDisputes(ctx)).body.data.filter(
      (d) => d.title === text || d.dvm?.request_id.toLowerCase() === bridged.parentRequestId.toLowerCase(),
    );
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row).toMatchObject({
      status: "voting",
      vote_phase: "reveal",
      dispute_tx_hash: receipt.transactionHash,
      dvm: { request_id: bridged.parentRequestId, round_id: Number(voteRound), ancillary_form: "compressed" },
    });
    expect(row.proposer).not.toBeNull();
    expect(row.disputer).not.toBeNull();
    const vote = await readDisputeVote(ctx, bridged.parentRequestId);
    expect(vote.reveals.map((r) => [r.voter.toLowerCase(), r.round_id])).toEqual([[voter, Number(voteRound)]]);
  });

  it("a Managed OOv2 proposal past liveness stays proposed (custom liveness honoured) and accepts a dispute", async () => {
    // The v4 adapter asks the Managed OOv2 (its dispute callback answers only its own oracle).
    const requester = UMA_CTF_ADAPTER_V4;
    const managed = chains.addresses.managedOptimisticOracleV2;
    const legacy = chains.addresses.optimisticOracleV2;
    const someone = (n: number) => `0x${(0xbcd000 + n).toString(16).padStart(40, "0")}`;
    const managedText = polymarketAncillary("Will the managed proposal stay open?", "Managed OOv2 test.");
    const legacyText = polymarketAncillary("Will the legacy proposal expire?", "Legacy OOv2 test.");
    const time = 1_780_400_000n;
    // A request manager's liveness, set before the proposal (ManagedOptimisticOracleV2.requestManagerSetCustomLiveness).
    await poly.send(managed, MOO, "requestManagerSetCustomLiveness", [requester, YES_OR_NO, managedText, 3_600n]);
    await poly.send(managed, MOO, "seedRequestPrice", [requester, YES_OR_NO, time, managedText, someone(1), 5_000_000n]);
    const proposal = await poly.send(managed, MOO, "seedProposePrice", [requester, someone(2), YES_OR_NO, time, managedText, 10n ** 18n]);
    const proposedAt = (await poly.pub.getBlock({ blockNumber: proposal.blockNumber })).timestamp;
    const proposeLog = decodeEventLog({ abi: MOO, data: proposal.logs[0].data, topics: proposal.logs[0].topics }) as unknown as {
      args: { expirationTimestamp: bigint };
    };
    expect(proposeLog.args.expirationTimestamp).toBe(proposedAt + 3_600n);
    await poly.send(legacy, OO, "seedRequestPrice", [requester, YES_OR_NO, time, legacyText, someone(1), 5_000_000n]);
    await poly.send(legacy, OO, "seedProposePrice", [requester, someone(2), YES_OR_NO, time, legacyText, 10n ** 18n]);
    // Past both liveness periods (3,600 s custom, 7,200 s default).
    await poly.advanceTo(proposedAt + 7_300n);
    const args = (text: Hex) => [requester, YES_OR_NO, time, text] as const;
    expect(await poly.pub.readContract({ address: managed, abi: MOO, functionName: "getState", args: args(managedText) })).toBe(2);
    expect(await poly.pub.readContract({ address: legacy, abi: OO, functionName: "getState", args: args(legacyText) })).toBe(3);
    expect((await runIndexerPass(ctx)).status).toBe("ok");

    const proposals = await readIndexedProposals(ctx);
    const managedProposal = proposals.find((p) => p.question_id === keccak256(managedText))!;
    const legacyProposal = proposals.find((p) => p.question_id === keccak256(legacyText))!;
    expect(managedProposal.oo_state).toBe(2);
    expect(legacyProposal.oo_state).toBe(3);
    const market = (id: string) => ({ condition_id: id, outcomes: ["Yes", "No"] });
    const iso = (t: number | null) => (t === null ? null : new Date(t * 1000).toISOString());
    const asOfMarket = (p: typeof managedProposal, id: string) => ({
      ...p,
      requested_at: iso(p.requested_at),
      proposed_at: iso(p.proposed_at),
      disputed_at: iso(p.disputed_at),
      settled_at: iso(p.settled_at),
      market: market(id),
    });
    const statuses = resolutionsByConditionId([], [asOfMarket(managedProposal, "0xaa"), asOfMarket(legacyProposal, "0xbb")]);
    expect(statuses.get("0xaa")?.status).toBe("proposed");
    expect(statuses.get("0xbb")?.status).toBe("expired");

    // Still disputable past liveness (_getStateForDispute reads Proposed); the legacy OOv2 refuses.
    const dispute = await poly.send(managed, MOO, "seedDisputePrice", [requester, someone(3), YES_OR_NO, time, managedText]);
    await expect(poly.send(legacy, OO, "seedDisputePrice", [requester, someone(3), YES_OR_NO, time, legacyText])).rejects.toThrow(
      /seedDisputePrice reverted/,
    );
    expect((await runIndexerPass(ctx)).status).toBe("ok");
    const rows = (await getOracleDisputes(ctx)).body.data.filter((d) => d.question_id === keccak256(managedText));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "disputed", dispute_tx_hash: dispute.transactionHash, oracle_address: getAddress(managed) });
    expect((await readIndexedProposals(ctx)).find((p) => p.question_id === keccak256(managedText))!.oo_state).toBe(4);
  });
});
