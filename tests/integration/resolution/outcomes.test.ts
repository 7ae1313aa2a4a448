// Outcomes outside the vote end to end on the local chains (docs/resolution.md "Status", docs/stream.md "Resolution"):
// the seeded questions' own contracts act — the V3.1 adapter flags Q4 and later resolves it by emergency
// (`emergencyResolve`), pauses and unpauses Q7, resets Q2 after a new proposal (admin `reset`); the NegRiskOperator
// flags and emergency-resolves Q3's neg-risk question; the DVM deletes Q6's request — and after each step one indexer
// pass and one sampler pass run through the cron routes. Each outcome must show as its own status on the dispute row,
// on the market's `resolution` and as one `resolution` stream event.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Address, type Hex, keccak256, toHex } from "viem";
import { mainnet, polygon } from "viem/chains";
import { compileContracts } from "@/sim/chain/compile";
import { ancillaryOf, disputedQuestion, negRiskMarketIds } from "@/sim/polymarket/disputed";
import { openSse, type SseClient, type SseMessage } from "../../helpers/sse";
import { type Stack, startStack } from "../../helpers/stack";
import { driver, findDvmRequest, ONE, YES_OR_NO } from "../../helpers/chain-driver";

let stack: Stack;
let cronSecret: string;

beforeAll(async () => {
  stack = await startStack({ env: { STREAM_HEARTBEAT_S: "1" } });
  await prepareQ3OnOperator();
  cronSecret = JSON.parse(readFileSync(path.join(stack.app.dataDir, "secrets.json"), "utf8")).CRON_SECRET as string;
  expect((await stack.samplePass()).status).toBe(200);
}, 300_000);

afterAll(async () => {
  await stack?.stop();
});

interface Outcome {
  status: string;
  contract: string;
  event: string;
  tx_hash: string;
}
interface Row {
  id: Hex;
  title: string;
  status: string;
  question_id: Hex;
  requester: Address;
  requested_at: string;
  unread: string[];
  question_outcome: Outcome | null;
  dvm: { request_id: string; status: string | null } | null;
  neg_risk: { operator: Address; question_id: Hex } | null;
  market: { id: string; event_slug: string; condition_id: string } | null;
}

/**
 * The first NegRiskOperator prepares Q3's neg-risk question for its adapter's request (prepareQuestion: one question per
 * requestId, the market's next index), at Q3's slot as the simulator lists it, before any indexer pass asks for it.
 */
async function prepareQ3OnOperator() {
  const q3 = disputedQuestion("Q3");
  const ids = negRiskMarketIds(q3.negRisk!.eventTitle, q3.negRisk!.slot, ancillaryOf(q3));
  const poly = driver(stack.chains.anvilUrls.polygon, polygon);
  const NRO = compileContracts().MockNegRiskOperator.abi;
  const operator = stack.chains.addresses.negRiskOperators[0];
  for (let slot = 0; slot < q3.negRisk!.slot; slot++) {
    await poly.send(operator, NRO, "seedPrepareQuestion", [ids.negRiskMarketID, "0x", keccak256(toHex(`sibling-${slot}`))]);
  }
  await poly.send(operator, NRO, "seedPrepareQuestion", [ids.negRiskMarketID, "0x", ids.negRiskRequestID]);
}

const get = async <T>(p: string) =>
  (await (await fetch(`${stack.app.url}${p}`, { headers: { authorization: `Bearer ${stack.key}` } })).json()) as T;
const rows = async () => (await get<{ data: Row[] }>("/api/oracle/disputes")).data;
const rowOf = (list: Row[], key: string) => list.find((d) => d.title === disputedQuestion(key).title)!;

/** One indexer pass and one sampler pass. */
async function passes() {
  const pass = await fetch(`${stack.app.url}/api/cron/oracle`, { headers: { authorization: `Bearer ${cronSecret}` } });
  expect(pass.status).toBe(200);
  expect((await stack.samplePass()).status).toBe(200);
}

/** The market's `resolution` as /events/{slug} shows it. */
async function resolutionOf(row: Row) {
  const event = await get<{ data: { markets: { condition_id: string; resolution: { status: string; outcome: Outcome | null } }[] } }>(
    `/api/predmkt/events/${row.market!.event_slug}`,
  );
  return event.data.markets.find((m) => m.condition_id === row.market!.condition_id)!.resolution;
}

const questionEvents = (messages: SseMessage[], questionId: string) =>
  messages.filter((m) => m.event === "resolution" && m.data.scope === "question" && m.data.question_id === questionId.toLowerCase());

async function waitForQuestion(stream: SseClient, questionId: string, n: number, what: string) {
  await stream.waitFor((m) => questionEvents(m, questionId).length >= n, 60_000, what);
  return questionEvents(stream.messages, questionId);
}

describe("outcomes outside the vote", () => {
  it("flagged, paused, emergency-resolved (adapter and operator), reset by the admin, lifted, and deleted by the DVM", async () => {
    const live = await openSse(`${stack.app.url}/api/predmkt/stream?api_key=${stack.key}&topics=resolution`);
    expect(live.status).toBe(200);
    await passes();
    const before = await rows();
    const [q2, q3, q4, q6, q7] = ["Q2", "Q3", "Q4", "Q6", "Q7"].map((k) => rowOf(before, k));
    for (const r of [q2, q3, q4, q6, q7]) {
      expect(r.market, r.title).not.toBeNull();
      expect(r.question_outcome).toBeNull();
    }
    const q3Ids = negRiskMarketIds(
      disputedQuestion("Q3").negRisk!.eventTitle,
      disputedQuestion("Q3").negRisk!.slot,
      ancillaryOf(disputedQuestion("Q3")),
    );
    expect(q3.neg_risk).toMatchObject({ question_id: q3Ids.questionID });
    const q7Before = (await resolutionOf(q7)).status;

    const artifacts = compileContracts();
    const poly = driver(stack.chains.anvilUrls.polygon, polygon);
    const eth = driver(stack.chains.anvilUrls.ethereum, mainnet);
    const A = artifacts.MockUmaCtfAdapter.abi;
    const OO = artifacts.MockOptimisticOracleV2.abi;
    const { optimisticOracleV2, votingV2 } = stack.chains.addresses;

    // Q2's first dispute reset it (a new request at the dispute's time); someone proposes on that request, then the
    // admin resets the question again (UmaCtfAdapter.reset): a third request, not proposed yet.
    const q2Question = (await poly.pub.readContract({
      address: q2.requester,
      abi: A,
      functionName: "getQuestion",
      args: [q2.question_id],
    })) as {
      requestTimestamp: bigint;
      ancillaryData: Hex;
    };
    const head = (await poly.pub.getBlock()).timestamp;
    await poly.advanceTo(head + 60n);
    await poly.send(optimisticOracleV2, OO, "seedProposePrice", [
      q2.requester,
      "0x00000000000000000000000000000000000d1e01",
      YES_OR_NO,
      q2Question.requestTimestamp,
      q2Question.ancillaryData,
      ONE,
    ]);
    await passes();
    expect((await resolutionOf(q2)).status).toBe("proposed");

    await poly.advanceTo(head + 120n);
    const reset = await poly.send(q2.requester, A, "reset", [q2.question_id]);
    const flag = await poly.send(q4.requester, A, "flag", [q4.question_id]);
    await poly.send(q7.requester, A, "pause", [q7.question_id]);
    const NRO = artifacts.MockNegRiskOperator.abi;
    await poly.send(q3.neg_risk!.operator, NRO, "flagQuestion", [q3.neg_risk!.question_id]);
    const operatorResolved = await poly.send(q3.neg_risk!.operator, NRO, "emergencyResolveQuestion", [q3.neg_risk!.question_id, true]);
    // Q6's DVM request rolled past maxRolls: VotingV2 deletes it (RequestDeleted).
    const q6Request = await findDvmRequest(eth, votingV2, artifacts.MockVotingV2.abi, q6.dvm!.request_id);
    await eth.send(votingV2, artifacts.MockVotingV2.abi, "seedDelete", [YES_OR_NO, q6Request.time, q6Request.ancillaryData]);
    await passes();

    let after = await rows();
    expect(rowOf(after, "Q4").question_outcome).toMatchObject({
      status: "flagged",
      contract: "UmaCtfAdapter",
      event: "QuestionFlagged",
      tx_hash: flag.transactionHash,
    });
    expect(rowOf(after, "Q7").question_outcome).toMatchObject({ status: "paused", event: "QuestionPaused" });
    expect(rowOf(after, "Q3").question_outcome).toMatchObject({
      status: "emergency_resolved",
      contract: "NegRiskOperator",
      event: "QuestionEmergencyResolved",
      tx_hash: operatorResolved.transactionHash,
    });
    expect(rowOf(after, "Q2").question_outcome).toMatchObject({ status: "reset", event: "QuestionReset", tx_hash: reset.transactionHash });
    // The row's own status stays its request's: Q4's first dispute still goes its way on the DVM.
    expect(rowOf(after, "Q4").status).toBe(q4.status);
    expect(rowOf(after, "Q6")).toMatchObject({ status: "deleted", dvm: { status: "deleted" } });

    expect(await resolutionOf(q4)).toMatchObject({ status: "flagged", outcome: { event: "QuestionFlagged" } });
    expect((await resolutionOf(q7)).status).toBe("paused");
    expect(await resolutionOf(q3)).toMatchObject({ status: "emergency_resolved", outcome: { contract: "NegRiskOperator" } });
    expect(await resolutionOf(q2)).toMatchObject({ status: "reset", outcome: { event: "QuestionReset" } });

    for (const [r, status] of [
      [q4, "flagged"],
      [q7, "paused"],
      [q2, "reset"],
    ] as const) {
      const [event] = await waitForQuestion(live, r.question_id, 1, `${r.title}: ${status}`);
      expect(event.data).toMatchObject({ transition: status, from: null, to: { status }, dispute_id: r.id, market: { id: r.market!.id } });
    }
    const [operatorEvent] = await waitForQuestion(live, q3.neg_risk!.question_id, 1, "Q3's operator: emergency_resolved");
    expect(operatorEvent.data).toMatchObject({
      transition: "emergency_resolved",
      subject: { kind: "neg_risk_question" },
      outcome: { contract: "NegRiskOperator" },
      dispute_id: q3.id,
      market: { id: q3.market!.id, resolution_status: "emergency_resolved" },
    });
    await live.waitFor(
      (m) => m.some((x) => x.event === "resolution" && x.data.dispute_id === q6.id && x.data.transition === "deleted"),
      60_000,
      "Q6 deleted",
    );

    // An hour later (the safety period) the admin resolves Q4 by emergency (the V3.1 adapter's name); Q7 is unpaused.
    await poly.advanceTo(head + 120n + 3700n);
    await poly.send(q4.requester, A, "emergencyResolve", [q4.question_id, [1n, 0n]]);
    await poly.send(q7.requester, A, "unpause", [q7.question_id]);
    await passes();
    after = await rows();
    expect(rowOf(after, "Q4").question_outcome).toMatchObject({ status: "emergency_resolved", event: "QuestionEmergencyResolved" });
    expect(rowOf(after, "Q7").question_outcome).toBeNull();
    expect((await resolutionOf(q4)).status).toBe("emergency_resolved");
    expect((await resolutionOf(q7)).status).toBe(q7Before);
    const q4Events = await waitForQuestion(live, q4.question_id, 2, "Q4 emergency_resolved");
    expect(q4Events.map((m) => [(m.data.from as { status: string } | null)?.status ?? null, m.data.transition])).toEqual([
      [null, "flagged"],
      ["flagged", "emergency_resolved"],
    ]);
    const q7Events = await waitForQuestion(live, q7.question_id, 2, "Q7 unpaused");
    expect(q7Events[1].data).toMatchObject({ transition: "none", from: { status: "paused" }, to: { status: "none" }, outcome: null });

    // A pass that changes nothing publishes nothing more for these questions.
    const count = live.messages.length;
    await passes();
    const beats = live.comments.length;
    await live.waitFor(() => live.comments.length >= beats + 2, 10_000, "two heartbeats");
    expect(live.messages.length).toBe(count);
    live.close();
  }, 300_000);
});
