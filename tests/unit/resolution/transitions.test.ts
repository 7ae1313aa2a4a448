// The stream's `resolution` topic: the pure diff of the oracle index's disputes against the last published state
// (every transition kind, its chain time, unread rows skipped), and the publisher over the embedded database (one
// stream row per transition, nothing twice on a re-run or after a restart, an older answer never published over a
// newer one, and the rows read back as the stream's messages with its filters).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Address, stringToHex } from "viem";
import { type Db, getDb } from "@/lib/db/client";
import { loadEnv } from "@/lib/env";
import { oracleConfigFromEnv } from "@/lib/oracle/config";
import { createOracleContext, type OracleContext } from "@/lib/oracle/context";
import { storeSnapshot } from "@/lib/oracle/snapshots";
import { STANDARD_UMA_CTF_ADAPTERS } from "@/lib/resolution/addresses";
import { appendInitializer, conditionIdOf, questionIdOf } from "@/lib/resolution/ids";
import { publishResolutionTransitions } from "@/lib/resolution/push";
import { diffResolutions, type IndexedDispute, type PassFacts, type PublishedState, stateOf } from "@/lib/resolution/transitions";
import { toMessages } from "@/lib/stream/messages";
import { readEvents } from "@/lib/stream/read";
import { matches, type StreamFilter } from "@/lib/stream/types";

const ADAPTER: Address = STANDARD_UMA_CTF_ADAPTERS[2];
const ROUND = 86_400 * 2;
const iso = (s: number) => new Date(s * 1000).toISOString();
const DISPUTED = 1_790_000_000;
const ROUND_ID = Math.ceil(DISPUTED / ROUND);
const rounds = new Map([
  [ROUND_ID, { starts_at: iso(ROUND_ID * ROUND), ends_at: iso((ROUND_ID + 1) * ROUND) }],
  [ROUND_ID + 1, { starts_at: iso((ROUND_ID + 1) * ROUND), ends_at: iso((ROUND_ID + 2) * ROUND) }],
]);
const facts = (block: number): PassFacts => ({
  block_number: block,
  polygon_block_number: block * 10,
  as_of: iso(DISPUTED + block),
  rounds,
});

function dispute(id: string, over: Partial<IndexedDispute> = {}): IndexedDispute {
  return {
    id: `0x${id.repeat(64)}`,
    question_id: null,
    title: `Question ${id}`,
    status: "disputed",
    vote_phase: null,
    roll_count: 0,
    proposed_price: "1",
    proposed_at: iso(DISPUTED - 600),
    disputed_at: iso(DISPUTED),
    dispute_tx_hash: `0x${"e".repeat(64)}`,
    dvm: { round_id: ROUND_ID },
    unread: [],
    ...over,
  };
}

const publishedFrom = (d: IndexedDispute, block: number): [string, PublishedState] => [
  d.id.toLowerCase(),
  { ...stateOf(d), block_number: block, polygon_block_number: block * 10 },
];

describe("diffResolutions", () => {
  const noMarket = () => null;

  it("names each step of the lifecycle, with the chain time where the index knows it", () => {
    const steps: [IndexedDispute, string, string | null][] = [
      [dispute("a"), "disputed", iso(DISPUTED)],
      [dispute("a", { status: "voting", vote_phase: "commit" }), "voting", iso(ROUND_ID * ROUND)],
      [dispute("a", { status: "voting", vote_phase: "reveal" }), "reveal", iso(ROUND_ID * ROUND + ROUND / 2)],
      [
        dispute("a", { status: "voting", vote_phase: "commit", roll_count: 1, dvm: { round_id: ROUND_ID + 1 } }),
        "rolled",
        iso((ROUND_ID + 1) * ROUND),
      ],
      [
        dispute("a", { status: "voting", vote_phase: "reveal", roll_count: 1, dvm: { round_id: ROUND_ID + 1 } }),
        "reveal",
        iso((ROUND_ID + 1) * ROUND + ROUND / 2),
      ],
      [dispute("a", { status: "resolved", roll_count: 1, dvm: { round_id: ROUND_ID + 1 } }), "resolved", null],
      [dispute("a", { status: "settled", roll_count: 1, dvm: { round_id: ROUND_ID + 1 } }), "settled", null],
    ];
    let published = new Map<string, PublishedState>();
    let previous: IndexedDispute | null = null;
    steps.forEach(([d, kind, at], i) => {
      const [t, ...rest] = diffResolutions([d], published, facts(i + 1), noMarket);
      expect(rest).toEqual([]);
      expect(t).toMatchObject({
        dispute_id: d.id,
        transition: kind,
        at,
        to: stateOf(d),
        block_number: i + 1,
        polygon_block_number: (i + 1) * 10,
      });
      expect(t.from).toEqual(previous ? stateOf(previous) : null);
      expect(t.since_block_number).toBe(previous ? i : null);
      // The same answer again: nothing.
      published = new Map([publishedFrom(d, i + 1)]);
      expect(diffResolutions([d], published, facts(i + 2), noMarket)).toEqual([]);
      previous = d;
    });
  });

  it("goes straight from the last published state to the new one when a pass missed a step", () => {
    const before = dispute("b");
    const [t] = diffResolutions([dispute("b", { status: "resolved" })], new Map([publishedFrom(before, 1)]), facts(2), noMarket);
    expect(t).toMatchObject({ transition: "resolved", from: { status: "disputed" }, to: { status: "resolved" } });
  });

  it("skips a row whose contract state could not be read, and a dispute listed twice is published once", () => {
    const published = new Map([publishedFrom(dispute("c", { status: "voting", vote_phase: "commit" }), 1)]);
    expect(diffResolutions([dispute("c", { unread: ["dvm_status"] })], published, facts(2), noMarket)).toEqual([]);
    expect(diffResolutions([dispute("d"), dispute("d")], new Map(), facts(2), noMarket)).toHaveLength(1);
  });

  it("orders several disputes of one pass by dispute time", () => {
    const late = dispute("e", { disputed_at: iso(DISPUTED + 60) });
    const early = dispute("f", { disputed_at: iso(DISPUTED - 60) });
    expect(diffResolutions([late, early], new Map(), facts(1), noMarket).map((t) => t.dispute_id)).toEqual([early.id, late.id]);
  });
});

// One publisher's story over one database: each step starts from the state the one before left (the published
// transitions), so the steps keep their order when CI shuffles the suite.
describe("publishResolutionTransitions (embedded database)", { shuffle: false }, () => {
  let db: Db;
  let ctx: OracleContext;
  const text = "q: title: Will the pushed market resolve?, description: p1 corresponds to No, p2 to Yes, p3 to unknown/50-50.";
  const questionId = questionIdOf(appendInitializer(stringToHex(text), ADAPTER));
  const conditionId = conditionIdOf(ADAPTER, questionId).toLowerCase();
  let block = 100;

  const row = (over: Partial<IndexedDispute> = {}) => ({
    ...dispute("9", { question_id: questionId, title: "Will the pushed market resolve?" }),
    description: text,
    requester: ADAPTER,
    requested_at: iso(DISPUTED - 3600),
    ...over,
  });
  async function store(rows: object[], builtAtBlock = ++block) {
    const body = {
      data: rows,
      meta: {
        source: "chain",
        as_of: iso(DISPUTED + builtAtBlock),
        block_number: builtAtBlock,
        polygon_block_number: builtAtBlock * 10,
        backfill_complete: true,
      },
    };
    await storeSnapshot(ctx, "disputes", body, BigInt(builtAtBlock));
  }
  const resolutionRows = async () =>
    (await db.streamEvent.findMany({ where: { topic: "resolution" }, orderBy: { seq: "asc" } })).map(
      (e) => e.payload as Record<string, any>,
    );

  beforeAll(async () => {
    db = await getDb();
    ctx = createOracleContext("push-test", oracleConfigFromEnv(loadEnv({ ...process.env })), async () => db);
    await db.market.create({
      data: {
        id: "700",
        conditionId,
        eventId: "70",
        eventSlug: "pushed-event",
        slug: "pushed-market",
        question: "Will the pushed market resolve?",
        active: true,
        closed: false,
        open: true,
        seenAt: new Date(DISPUTED * 1000),
      },
    });
    await db.outcome.create({ data: { tokenId: "771", marketId: "700", index: 0, name: "Yes", price: 0.5 } });
    await db.outcome.create({ data: { tokenId: "772", marketId: "700", index: 1, name: "No", price: 0.5 } });
    await storeSnapshot(
      ctx,
      "rounds",
      { data: [...rounds].map(([round_id, r]) => ({ round_id, ...r })), meta: { backfill_complete: true } },
      1n,
    );
  });
  afterAll(async () => {
    await db.resolutionStreamState.deleteMany();
  });

  it("publishes nothing before the index has an answer", async () => {
    expect((await publishResolutionTransitions(ctx)).status).toBe("no_answer");
  });

  it("publishes each transition once, with its market, and survives a restart", async () => {
    await store([row()]);
    const first = await publishResolutionTransitions(ctx);
    expect(first.transitions).toHaveLength(1);
    expect(first.transitions[0]).toMatchObject({
      transition: "disputed",
      from: null,
      proposed_outcome: "Yes",
      market: { id: "700", condition_id: conditionId, event_slug: "pushed-event", slug: "pushed-market", resolution_status: "disputed" },
    });
    // The same answer again, and again from a new context (a restarted process): nothing more.
    expect((await publishResolutionTransitions(ctx)).transitions).toEqual([]);
    const restarted = createOracleContext("push-test", oracleConfigFromEnv(loadEnv({ ...process.env })), async () => db);
    expect((await publishResolutionTransitions(restarted)).transitions).toEqual([]);

    await store([row({ status: "voting", vote_phase: "commit" })]);
    await store([row({ status: "voting", vote_phase: "reveal" })]);
    // Only the newest answer counts: the commit phase was never published, the reveal is.
    const reveal = await publishResolutionTransitions(restarted);
    expect(reveal.transitions.map((t) => [t.transition, t.from?.status, t.to.vote_phase])).toEqual([["voting", "disputed", "reveal"]]);
    expect(reveal.transitions[0].market?.resolution_status).toBe("voting");
    const stored = await resolutionRows();
    expect(stored.map((p) => p.transition)).toEqual(["disputed", "voting"]);
    expect(stored[1]).toMatchObject({ since_block_number: block - 2, block_number: block });
  });

  it("never publishes an answer older than one already published (a slower publisher of an earlier pass)", async () => {
    const older = {
      body: {
        data: [row({ status: "settled" })],
        meta: { as_of: iso(DISPUTED), block_number: 1, polygon_block_number: 10, backfill_complete: true },
      },
      builtAt: new Date(Date.now() - 60_000),
      blockNumber: 1n,
      complete: true,
    };
    expect(await publishResolutionTransitions(ctx, older as never)).toEqual({ status: "stale", transitions: [] });
    expect((await resolutionRows()).map((p) => p.transition)).toEqual(["disputed", "voting"]);
  });

  it("reads back as stream messages that the topic and market filters select", async () => {
    await store([row({ status: "resolved" })]);
    const { transitions } = await publishResolutionTransitions(ctx);
    expect(transitions.map((t) => t.transition)).toEqual(["resolved"]);
    const filter: StreamFilter = { topics: ["resolution"], minUsd: 100, marketId: "700", eventSlug: "pushed-event" };
    const page = await readEvents(db, 0, Number.MAX_SAFE_INTEGER, 100, filter);
    const messages = await toMessages(db, page.events, false);
    expect(messages.map((m) => [m.event, m.data.transition, m.marketId, m.eventSlug])).toEqual([
      ["resolution", "disputed", "700", "pushed-event"],
      ["resolution", "voting", "700", "pushed-event"],
      ["resolution", "resolved", "700", "pushed-event"],
    ]);
    expect(messages.every((m) => matches(filter, m))).toBe(true);
    expect(messages.some((m) => matches({ ...filter, topics: ["trade", "tick"] }, m))).toBe(false);
    expect(messages.some((m) => matches({ ...filter, marketId: "701" }, m))).toBe(false);
    // Cursors of the log's seq: strictly increasing, after every earlier message.
    for (let i = 1; i < messages.length; i++) expect(messages[i].cursor).toBeGreaterThan(messages[i - 1].cursor);
    expect((await readEvents(db, 0, Number.MAX_SAFE_INTEGER, 100, { ...filter, topics: ["trade"] })).events).toEqual([]);
  });
});
