// A question disputed twice, end to end on the local chains (docs/resolution.md "Status"): the seeded Q5's first
// dispute reset it (UmaCtfAdapter.priceDisputed: a new request at the dispute's time) and is queued on the DVM; someone
// proposes on the new request, someone disputes that (the adapter only marks the refund: the second dispute's vote
// decides the market), the root tunnel brings it to VotingV2, and both go up for vote in their round. One row per
// dispute, each with its own status; the market follows the second; the stream says so per dispute.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeEventLog, encodeAbiParameters, type Hex, keccak256 } from "viem";
import { mainnet, polygon } from "viem/chains";
import { compileContracts } from "@/sim/chain/compile";
import { ROOT_TUNNEL_ADDRESS, ROUND_LENGTH } from "@/sim/chain/seed";
import { disputedQuestion } from "@/sim/polymarket/disputed";
import { openSse, type SseMessage } from "../../helpers/sse";
import { type Stack, startStack } from "../../helpers/stack";
import { driver, findDvmRequest, YES_OR_NO } from "../../helpers/chain-driver";

let stack: Stack;
let cronSecret: string;

beforeAll(async () => {
  stack = await startStack({ env: { STREAM_HEARTBEAT_S: "1" } });
  cronSecret = JSON.parse(readFileSync(path.join(stack.app.dataDir, "secrets.json"), "utf8")).CRON_SECRET as string;
  expect((await stack.samplePass()).status).toBe(200);
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

interface Row {
  id: Hex;
  title: string;
  status: string;
  question_id: Hex;
  question_reset: boolean;
  requester: Hex;
  dispute_tx_hash: Hex | null;
  dvm: { request_id: string; status: string | null; round_id: number | null } | null;
  market: { event_slug: string; condition_id: string } | null;
}

const get = async <T>(p: string) =>
  (await (await fetch(`${stack.app.url}${p}`, { headers: { authorization: `Bearer ${stack.key}` } })).json()) as T;

async function passes() {
  const pass = await fetch(`${stack.app.url}/api/cron/oracle`, { headers: { authorization: `Bearer ${cronSecret}` } });
  expect(pass.status).toBe(200);
  expect((await stack.samplePass()).status).toBe(200);
}

async function stateOf(questionId: Hex, market: NonNullable<Row["market"]>) {
  const rows = (await get<{ data: Row[] }>("/api/oracle/disputes")).data.filter((d) => d.question_id === questionId);
  const event = await get<{
    data: { markets: { condition_id: string; resolution: { status: string; dispute_id: string | null; dvm_status: string | null } }[] };
  }>(`/api/predmkt/events/${market.event_slug}`);
  return { rows, resolution: event.data.markets.find((m) => m.condition_id === market.condition_id)!.resolution };
}

const ofDispute = (messages: SseMessage[], id: string) =>
  messages.filter((m) => m.event === "resolution" && m.data.scope === "dispute" && m.data.dispute_id === id).map((m) => m.data.transition);

describe("a question disputed again after its reset", () => {
  it("re-proposed and disputed: two rows, the second bridged and voted, the market following the second", async () => {
    const live = await openSse(`${stack.app.url}/api/predmkt/stream?api_key=${stack.key}&topics=resolution`);
    await passes();
    const first = (await get<{ data: Row[] }>("/api/oracle/disputes")).data.find((d) => d.title === disputedQuestion("Q5").title)!;
    expect(first).toMatchObject({ question_reset: true, status: "queued" });
    const market = first.market!;
    expect((await stateOf(first.question_id, market)).resolution.status).toBe("reset");

    const artifacts = compileContracts();
    const poly = driver(stack.chains.anvilUrls.polygon, polygon);
    const eth = driver(stack.chains.anvilUrls.ethereum, mainnet);
    const OO = artifacts.MockOptimisticOracleV2.abi;
    const T = artifacts.MockOracleChildTunnel.abi;
    const { optimisticOracleV2: oo, childTunnel, votingV2 } = stack.chains.addresses;
    const question = (await poly.pub.readContract({
      address: first.requester,
      abi: artifacts.MockUmaCtfAdapter.abi,
      functionName: "getQuestion",
      args: [first.question_id],
    })) as { requestTimestamp: bigint; ancillaryData: Hex; reset: boolean };
    expect(question.reset).toBe(true);

    // The new request is proposed, then disputed: the adapter marks the refund only (no new request, no reset).
    const head = (await poly.pub.getBlock()).timestamp;
    await poly.advanceTo(head + 60n);
    const args = [first.requester, YES_OR_NO, question.requestTimestamp, question.ancillaryData] as const;
    await poly.send(oo, OO, "seedProposePrice", [first.requester, "0x00000000000000000000000000000000000d2e02", ...args.slice(1), 0n]);
    await passes();
    expect((await stateOf(first.question_id, market)).resolution.status).toBe("proposed");
    await poly.advanceTo(head + 120n);
    const dispute = await poly.send(oo, OO, "seedDisputePrice", [
      first.requester,
      "0x00000000000000000000000000000000000d2e03",
      ...args.slice(1),
    ]);
    const [bridged] = dispute.logs
      .filter((l) => l.address.toLowerCase() === childTunnel.toLowerCase())
      .map((l) => decodeEventLog({ abi: T, data: l.data, topics: l.topics }))
      .filter((l) => l.eventName === "PriceRequestBridged") as unknown as { args: { time: bigint; ancillaryData: Hex } }[];
    const compressed = (await poly.pub.readContract({
      address: childTunnel,
      abi: T,
      functionName: "compressAncillaryData",
      args: [bridged.args.ancillaryData, oo, dispute.blockNumber],
      blockNumber: dispute.blockNumber,
    })) as Hex;
    // The root tunnel brings it to VotingV2 on mainnet (the seed plays the bridge, as for the seeded disputes).
    await eth.send(votingV2, artifacts.MockVotingV2.abi, "seedRequest", [ROOT_TUNNEL_ADDRESS, YES_OR_NO, bridged.args.time, compressed]);
    const secondDvmId = keccak256(
      encodeAbiParameters([{ type: "bytes32" }, { type: "uint256" }, { type: "bytes" }], [YES_OR_NO, bridged.args.time, compressed]),
    );
    await passes();

    let { rows, resolution } = await stateOf(first.question_id, market);
    expect(rows).toHaveLength(2);
    const second = rows.find((r) => r.dispute_tx_hash === dispute.transactionHash)!;
    expect(second).toMatchObject({ question_reset: false, status: "queued", dvm: { request_id: secondDvmId, status: "future" } });
    expect(rows.find((r) => r.id === first.id)).toMatchObject({ question_reset: true, status: "queued" });
    // The second dispute's vote decides the market now.
    expect(resolution).toMatchObject({ status: "queued", dispute_id: second.id, dvm_status: "Future" });

    // Both requests' round begins: up for vote.
    const request = await findDvmRequest(eth, votingV2, artifacts.MockVotingV2.abi, secondDvmId);
    await eth.advanceTo(BigInt(request.roundId) * BigInt(ROUND_LENGTH) + 60n);
    await passes();
    ({ rows, resolution } = await stateOf(first.question_id, market));
    expect(rows.map((r) => [r.id === first.id ? "first" : "second", r.status, r.dvm?.round_id]).sort()).toEqual([
      ["first", "voting", request.roundId],
      ["second", "voting", request.roundId],
    ]);
    expect(resolution).toMatchObject({ status: "voting", dispute_id: second.id, dvm_status: "Active" });

    await live.waitFor((m) => ofDispute(m, second.id).length >= 2 && ofDispute(m, first.id).length >= 2, 60_000, "both disputes voting");
    expect(ofDispute(live.messages, second.id)).toEqual(["queued", "voting"]);
    expect(ofDispute(live.messages, first.id)).toEqual(["queued", "voting"]);
    live.close();
  }, 300_000);
});
