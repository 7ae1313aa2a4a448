// One disputed market's `resolution` through the rest of its lifecycle on the local chains: the seeded Q5 is disputed
// and bridged (queued for the next round); the chain moves into that round (voting), the DVM resolves it (resolved),
// its price reaches Polygon and the request is settled (settled). After each step one indexer pass and one sampler
// pass run through the cron routes, and the market in /api/predmkt/events/{slug} says so.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mainnet, polygon } from "viem/chains";
import { compileContracts } from "@/sim/chain/compile";
import { ROUND_LENGTH } from "@/sim/chain/seed";
import { ancillaryOf, disputedQuestion } from "@/sim/polymarket/disputed";
import { type Stack, startStack } from "../../helpers/stack";
import { driver, findDvmRequest, ONE, YES_OR_NO } from "../../helpers/chain-driver";

let stack: Stack;
let cronSecret: string;

beforeAll(async () => {
  stack = await startStack();
  cronSecret = JSON.parse(readFileSync(path.join(stack.app.dataDir, "secrets.json"), "utf8")).CRON_SECRET as string;
  expect((await stack.samplePass()).status).toBe(200);
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

const get = async <T>(p: string) =>
  (await (await fetch(`${stack.app.url}${p}`, { headers: { authorization: `Bearer ${stack.key}` } })).json()) as T;

/** One indexer pass and one sampler pass, then Q5's market resolution as /events/{slug} shows it. */
async function resolutionAfterPasses(slug: string, conditionId: string) {
  const pass = await fetch(`${stack.app.url}/api/cron/oracle`, { headers: { authorization: `Bearer ${cronSecret}` } });
  expect(pass.status).toBe(200);
  expect((await stack.samplePass()).status).toBe(200);
  const event = await get<{ data: { markets: { condition_id: string; resolution: { status: string; vote_round: number | null } }[] } }>(
    `/api/predmkt/events/${slug}`,
  );
  return event.data.markets.find((m) => m.condition_id === conditionId)!.resolution;
}

/** The dispute's own status, as /api/oracle/disputes lists it. */
async function disputeStatus(id: string) {
  const list = await get<{ data: { id: string; status: string }[] }>("/api/oracle/disputes");
  return list.data.find((d) => d.id === id)?.status;
}

describe("a market's resolution through a dispute's lifecycle", () => {
  it("stays reset (the adapter asked again) while its first dispute goes queued -> voting -> resolved -> settled", async () => {
    const q5 = disputedQuestion("Q5");
    const list = await get<{
      data: {
        id: string;
        title: string;
        requested_at: string;
        dvm: { request_id: string } | null;
        market: { event_slug: string; condition_id: string };
      }[];
    }>("/api/oracle/disputes");
    const row = list.data.find((d) => d.title === q5.title)!;
    const { event_slug: slug, condition_id: conditionId } = row.market;
    // Disputed and bridged: the DVM holds the request for its next round (VotingV2 Future). It is the question's first
    // dispute, so the adapter reset the question (UmaCtfAdapter.priceDisputed): the market waits for a new proposal and
    // stays reset while this vote, which decides only the bonds, runs its course (docs/resolution.md, "Status").
    expect(await resolutionAfterPasses(slug, conditionId)).toMatchObject({ status: "reset", oo_state: "Requested", dvm_status: "Future" });
    expect(await disputeStatus(row.id)).toBe("queued");

    const artifacts = compileContracts();
    const eth = driver(stack.chains.anvilUrls.ethereum, mainnet);
    const poly = driver(stack.chains.anvilUrls.polygon, polygon);
    const { votingV2, optimisticOracleV2 } = stack.chains.addresses;
    const request = await findDvmRequest(eth, votingV2, artifacts.MockVotingV2.abi, row.dvm!.request_id);

    // The round it is queued for begins: up for vote.
    await eth.advanceTo(BigInt(request.roundId) * BigInt(ROUND_LENGTH) + 60n);
    expect(await resolutionAfterPasses(slug, conditionId)).toMatchObject({ status: "reset", vote_round: Number(request.roundId) });
    expect(await disputeStatus(row.id)).toBe("voting");

    // The DVM resolves it Yes.
    await eth.send(votingV2, artifacts.MockVotingV2.abi, "seedResolve", [YES_OR_NO, request.time, request.ancillaryData, ONE]);
    // A DVM price not yet bridged back to Polygon (docs/resolution.md, "Status").
    expect(await resolutionAfterPasses(slug, conditionId)).toMatchObject({ status: "reset", dvm_status: "Resolved" });
    expect(await disputeStatus(row.id)).toBe("dvm_resolved");

    // The price reaches Polygon and the Optimistic Oracle request is settled.
    const requestedAt = BigInt(Date.parse(row.requested_at) / 1000);
    const OO = artifacts.MockOptimisticOracleV2.abi;
    await poly.send(optimisticOracleV2, OO, "seedPushDvmPrice", [q5.adapter, YES_OR_NO, requestedAt, ancillaryOf(q5), ONE]);
    await poly.send(optimisticOracleV2, OO, "seedSettle", [q5.adapter, YES_OR_NO, requestedAt, ancillaryOf(q5)]);
    expect(await resolutionAfterPasses(slug, conditionId)).toMatchObject({ status: "reset" });
    expect(await disputeStatus(row.id)).toBe("settled");
  }, 240_000);
});
