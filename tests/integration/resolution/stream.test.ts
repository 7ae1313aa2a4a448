// The live stream's `resolution` topic end to end on the local chains: the production server (its cron routes run the
// indexer passes, each followed by the publisher), the seeded dispute Q5 driven through the rest of its lifecycle
// (disputed → voting in its round's commit phase → reveal phase → resolved by the DVM → settled on Polygon), and a
// stream client that must receive exactly that sequence, once; a client resuming with Last-Event-ID gets the ones it
// missed, and a pass that changes nothing publishes nothing.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Hex } from "viem";
import { mainnet, polygon } from "viem/chains";
import { compileContracts } from "@/sim/chain/compile";
import { PHASE_LENGTH, ROUND_LENGTH } from "@/sim/chain/seed";
import { ancillaryOf, disputedQuestion } from "@/sim/polymarket/disputed";
import { openSse, type SseClient, type SseMessage } from "../../helpers/sse";
import { type Stack, startStack } from "../../helpers/stack";
import { driver, findDvmRequest, ONE, YES_OR_NO } from "../../helpers/chain-driver";

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

const streamUrl = (query: string) => `${stack.app.url}/api/predmkt/stream?api_key=${stack.key}&${query}`;

async function oraclePass() {
  const res = await fetch(`${stack.app.url}/api/cron/oracle`, { headers: { authorization: `Bearer ${cronSecret}` } });
  expect(res.status).toBe(200);
}

/** Waits until one more heartbeat has arrived after this call: everything published before it has been delivered. */
async function settle(stream: SseClient) {
  const beats = stream.comments.filter((c) => c.startsWith("heartbeat")).length;
  await stream.waitFor(() => stream.comments.filter((c) => c.startsWith("heartbeat")).length >= beats + 2, 10_000, "two heartbeats");
}

const ofDispute = (messages: SseMessage[], id: string) => messages.filter((m) => m.event === "resolution" && m.data.dispute_id === id);
const step = (m: SseMessage) => {
  const to = m.data.to as { status: string; vote_phase: string | null };
  return `${m.data.transition as string}:${to.status}/${to.vote_phase ?? "-"}`;
};

describe("the stream's resolution topic through a dispute's lifecycle", () => {
  it("delivers disputed -> voting (commit) -> reveal -> resolved -> settled once each, and replays the missed ones", async () => {
    const live = await openSse(streamUrl("topics=resolution"));
    expect(live.status).toBe(200);
    // The first pass publishes every dispute the index holds (first sightings: `from` is null).
    await oraclePass();
    const q5 = disputedQuestion("Q5");
    const list = (await (
      await fetch(`${stack.app.url}/api/oracle/disputes`, { headers: { authorization: `Bearer ${stack.key}` } })
    ).json()) as {
      data: {
        id: Hex;
        title: string;
        requested_at: string;
        unread: string[];
        dvm: { request_id: string } | null;
        market: { id: string; event_slug: string; condition_id: string } | null;
      }[];
    };
    const row = list.data.find((d) => d.title === q5.title)!;
    const readable = list.data.filter((d) => d.unread.length === 0);
    await live.waitFor((m) => m.length >= readable.length, 60_000, "every indexed dispute's first sighting");
    const [first] = ofDispute(live.messages, row.id);
    expect(first.data).toMatchObject({
      transition: "queued",
      from: null,
      to: { status: "queued", vote_phase: null },
      market: {
        id: row.market!.id,
        condition_id: row.market!.condition_id,
        event_slug: row.market!.event_slug,
        // The adapter reset Q5's question on this first dispute (UmaCtfAdapter.priceDisputed): the market waits for a
        // new proposal, whatever this vote decides (docs/resolution.md, "Status").
        resolution_status: "reset",
      },
    });
    expect(typeof first.data.block_number).toBe("number");
    // The index reads the DVM's state, not the log that queued the request: no time is claimed for it.
    expect(first.data.at).toBeNull();

    // A pass that changes nothing publishes nothing.
    await oraclePass();
    await settle(live);
    expect(live.messages.length).toBe(readable.length);

    const artifacts = compileContracts();
    const eth = driver(stack.chains.anvilUrls.ethereum, mainnet);
    const poly = driver(stack.chains.anvilUrls.polygon, polygon);
    const { votingV2, optimisticOracleV2 } = stack.chains.addresses;
    const request = await findDvmRequest(eth, votingV2, artifacts.MockVotingV2.abi, row.dvm!.request_id);
    const roundStart = BigInt(request.roundId) * BigInt(ROUND_LENGTH);
    const expectQ5 = async (n: number, what: string) => {
      await oraclePass();
      await live.waitFor((m) => ofDispute(m, row.id).length >= n, 60_000, what);
    };

    await eth.advanceTo(roundStart + 60n);
    await expectQ5(2, "voting");
    await eth.advanceTo(roundStart + BigInt(PHASE_LENGTH) + 60n);
    await expectQ5(3, "reveal phase");
    await eth.send(votingV2, artifacts.MockVotingV2.abi, "seedResolve", [YES_OR_NO, request.time, request.ancillaryData, ONE]);
    await expectQ5(4, "dvm_resolved");
    const requestedAt = BigInt(Date.parse(row.requested_at) / 1000);
    const OO = artifacts.MockOptimisticOracleV2.abi;
    await poly.send(optimisticOracleV2, OO, "seedPushDvmPrice", [q5.adapter, YES_OR_NO, requestedAt, ancillaryOf(q5), ONE]);
    await poly.send(optimisticOracleV2, OO, "seedSettle", [q5.adapter, YES_OR_NO, requestedAt, ancillaryOf(q5)]);
    await expectQ5(5, "settled");
    await settle(live);
    live.close();

    const q5Messages = ofDispute(live.messages, row.id);
    expect(q5Messages.map(step)).toEqual([
      "queued:queued/-",
      "voting:voting/commit",
      "reveal:voting/reveal",
      "dvm_resolved:dvm_resolved/-",
      "settled:settled/-",
    ]);
    // Each transition starts where the previous one ended, with the chain time where the index knows it.
    for (let i = 1; i < q5Messages.length; i++) expect(q5Messages[i].data.from).toEqual(q5Messages[i - 1].data.to);
    expect(q5Messages[1].data.at).toBe(new Date(Number(roundStart) * 1000).toISOString());
    expect(q5Messages[2].data.at).toBe(new Date((Number(roundStart) + PHASE_LENGTH) * 1000).toISOString());
    // The first dispute's vote decides its bonds, not the market: the market stays reset throughout.
    expect(q5Messages.map((m) => (m.data.market as { resolution_status: string }).resolution_status)).toEqual([
      "reset",
      "reset",
      "reset",
      "reset",
      "reset",
    ]);
    // No message twice, and cursors strictly increase.
    const keys = live.messages.map((m) => `${m.data.dispute_id as string}:${step(m)}`);
    expect(new Set(keys).size).toBe(keys.length);
    const cursors = live.messages.map((m) => parseInt(m.id!, 36));
    for (let i = 1; i < cursors.length; i++) expect(cursors[i]).toBeGreaterThan(cursors[i - 1]);

    // A client that saw only the first message of Q5's market resumes: it gets the four it missed, in order, once.
    const resumed = await openSse(streamUrl(`topics=resolution&market=${row.market!.id}`), { "last-event-id": first.id! });
    expect(resumed.status).toBe(200);
    await resumed.waitFor((m) => ofDispute(m, row.id).length >= 4, 30_000, "the missed transitions");
    await settle(resumed);
    resumed.close();
    expect(ofDispute(resumed.messages, row.id).map((m) => m.id)).toEqual(q5Messages.slice(1).map((m) => m.id));
    expect(resumed.messages.every((m) => (m.data.market as { id: string }).id === row.market!.id)).toBe(true);
  }, 300_000);
});
