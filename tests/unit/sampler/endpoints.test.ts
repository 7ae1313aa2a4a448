// Every sampled endpoint's route handler, called directly (as the gateway would), over data written by real sampler
// passes against a hand-made upstream whose prices and times are exact.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as abnormalGET } from "@/app/api/predmkt/abnormal/route";
import { GET as categoriesGET } from "@/app/api/predmkt/categories/route";
import { GET as changesGET } from "@/app/api/predmkt/events/[slug]/changes/route";
import { GET as eventGET } from "@/app/api/predmkt/events/[slug]/route";
import { GET as eventsGET } from "@/app/api/predmkt/events/route";
import { GET as liveGET } from "@/app/api/predmkt/live/route";
import { GET as historyGET } from "@/app/api/predmkt/markets/[id]/history/route";
import { GET as moversGET } from "@/app/api/predmkt/movers/route";
import { GET as statsGET } from "@/app/api/predmkt/stats/route";
import { GET as tradesGET } from "@/app/api/predmkt/trades/route";
import { GET as whalesGET } from "@/app/api/predmkt/whales/route";
import { callJson, type RouteHandler } from "@/tests/helpers/handler";
import { closeDb, type Db, getDb } from "@/lib/db/client";
import { runPass } from "@/lib/sampler/pass";
import { event, FakeWorld, market, trade } from "./fake-world";

const T0 = Date.parse("2026-11-01T00:00:00Z");
const at = (minutes: number) => () => new Date(T0 + minutes * 60_000);
const iso = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
let db: Db;
let world: FakeWorld;
const WHALE = "0x00000000000000000000000000000000000000aa";

function buildWorld(): FakeWorld {
  const w = new FakeWorld();
  w.events = [
    event(1, [market(11, "1", [0.6, 0.4]), market(12, "1", [0.1, 0.9])]),
    event(2, [market(21, "2", [0.5, 0.5])], { liquidity_usd: 99_999 }),
    event(3, [market(31, "3", [0.25, 0.75])]),
  ];
  const cond = w.events[0].markets[0].condition_id!;
  w.trades = [
    trade(4, cond, T0 / 1000 - 5, 5_000),
    trade(3, cond, T0 / 1000 - 10),
    trade(2, cond, T0 / 1000 - 20),
    trade(1, cond, T0 / 1000 - 30),
  ];
  const m = w.events[0].markets[0];
  w.holdersByCondition.set(m.condition_id!, [
    {
      token_id: m.outcomes[0].token_id!,
      outcome_index: 0,
      holders: [
        {
          wallet: WHALE,
          pseudonym: "Big-Fish",
          name: null,
          token_id: m.outcomes[0].token_id!,
          outcome_index: 0,
          shares: 10_000,
          verified: null,
          avg_price: 0.5,
          entry_cost_usd: null,
          total_pnl_usd: null,
        },
      ],
    },
  ]);
  return w;
}

function setYes(marketId: string, yes: number) {
  const m = world.events.flatMap((e) => e.markets).find((x) => x.id === marketId)!;
  m.outcomes[0].price = yes;
  m.outcomes[1].price = Math.round((1 - yes) * 100) / 100;
}

beforeAll(async () => {
  db = await getDb();
  await db.$executeRawUnsafe(
    "TRUNCATE events, markets, outcomes, price_samples, trades, whale_positions, sampler_runs, sampler_lease, sampler_state RESTART IDENTITY",
  );
});
afterAll(closeDb);

describe("before the first sampler pass", () => {
  it("answers empty data with as_of null and a note, never an error", async () => {
    // An empty store, whichever of this file's tests ran first. Emptied under a running server, like a pass of
    // another process: the server sees it within PASS_POLL_MS (lib/predmkt/pass-clock.ts).
    await db.$executeRawUnsafe(
      "TRUNCATE events, markets, outcomes, price_samples, trades, whale_positions, sampler_runs, sampler_lease, sampler_state RESTART IDENTITY",
    );
    await vi.waitFor(async () => expect((await callJson(statsGET, "/api/predmkt/stats")).body.meta.as_of).toBeNull(), { timeout: 5_000 });
    const stats = await callJson(statsGET, "/api/predmkt/stats");
    expect(stats.status).toBe(200);
    expect(stats.body.data).toMatchObject({ active_events: 0, active_markets: 0, volume_24h_usd: 0, liquidity_usd: 0 });
    expect(stats.body.meta).toMatchObject({ source: "sampled", as_of: null, note: "no sampler pass has completed yet" });
    for (const [handler, path] of [
      [categoriesGET, "/api/predmkt/categories"],
      [eventsGET, "/api/predmkt/events"],
      [moversGET, "/api/predmkt/movers"],
      [abnormalGET, "/api/predmkt/abnormal"],
      [whalesGET, "/api/predmkt/whales"],
      [tradesGET, "/api/predmkt/trades"],
      [liveGET, "/api/predmkt/live"],
    ] as const) {
      const res = await callJson(handler, path);
      expect(res.status, path).toBe(200);
      expect(res.body.data, path).toEqual([]);
      expect(res.body.meta, path).toMatchObject({ source: "sampled", as_of: null, note: "no sampler pass has completed yet" });
    }
    const detail = await callJson(eventGET, "/api/predmkt/events/event-1", { slug: "event-1" });
    expect(detail.status).toBe(404);
    expect(detail.body.detail).toMatch(/no sampler pass has completed yet/);
  });
});

describe("after sampler passes", () => {
  beforeAll(async () => {
    world = buildWorld();
    expect((await runPass({ db, source: world, now: at(0) })).status).toBe("ok");
    setYes("11", 0.65);
    expect((await runPass({ db, source: world, now: at(30) })).status).toBe("ok");
    // Older history for market 11's Yes outcome, as the rollup tiers would hold it after weeks of sampling. Written
    // before the last pass: sampled answers are computed when a pass lands, as the sampler is the only writer.
    const yes = await db.outcome.findFirstOrThrow({ where: { marketId: "11", index: 0 } });
    await db.priceSample.createMany({
      data: [
        { outcomeId: yes.id, resolutionS: 900, t: new Date(T0 + 90 * 60_000 - 7 * 86_400_000 - 900_000), price: 0.4 },
        { outcomeId: yes.id, resolutionS: 3600, t: new Date(T0 + 90 * 60_000 - 30 * 86_400_000 - 3_600_000), price: 0.9 },
      ],
    });
    await db.outcome.update({ where: { id: yes.id }, data: { firstSampledAt: new Date(T0 - 31 * 86_400_000) } });
    setYes("11", 0.7);
    setYes("12", 0.15);
    setYes("21", 0.2);
    expect((await runPass({ db, source: world, now: at(90) })).status).toBe("ok");
  });

  it("stats", async () => {
    const { status, body } = await callJson(statsGET, "/api/predmkt/stats");
    expect(status).toBe(200);
    expect(body.data).toEqual({
      active_events: 3,
      active_markets: 4,
      volume_24h_usd: 7_500,
      volume_usd: 75_000,
      liquidity_usd: 100_539,
      categories: 2,
    });
    expect(body.meta).toMatchObject({ source: "sampled", as_of: iso(90) });
    expect(body.meta.note).toBeUndefined();
  });

  it("categories", async () => {
    const { body } = await callJson(categoriesGET, "/api/predmkt/categories");
    expect(body.data).toEqual([
      { slug: "politics", label: "Politics", event_count: 2, volume_24h_usd: 5_400, liquidity_usd: 540 },
      { slug: "crypto", label: "Crypto", event_count: 1, volume_24h_usd: 2_100, liquidity_usd: 99_999 },
    ]);
  });

  it("events: sorting, filtering, search, paging", async () => {
    const slugs = async (qs: string) =>
      (await callJson(eventsGET, `/api/predmkt/events${qs}`)).body.data.map((e: { slug: string }) => e.slug);
    expect(await slugs("")).toEqual(["event-3", "event-1", "event-2"]);
    expect(await slugs("?order=volume")).toEqual(["event-3", "event-1", "event-2"]);
    expect(await slugs("?order=liquidity")).toEqual(["event-2", "event-3", "event-1"]);
    expect(await slugs("?category=politics")).toEqual(["event-3", "event-1"]);
    expect(await slugs("?q=NUMBER%202")).toEqual(["event-2"]);
    expect(await slugs("?q=nothing-like-this")).toEqual([]);
    // Wildcards are literal characters in a title search.
    expect(await slugs("?q=%25")).toEqual([]);
    expect(await slugs("?q=_")).toEqual([]);
    expect(await slugs("?q=r%203")).toEqual(["event-3"]);

    const first = await callJson(eventsGET, "/api/predmkt/events?limit=2");
    expect(first.body.meta).toMatchObject({ limit: 2, offset: 0, total: 3, count: 2 });
    const second = await callJson(eventsGET, "/api/predmkt/events?limit=2&offset=2");
    expect(second.body.data.map((e: { slug: string }) => e.slug)).toEqual(["event-2"]);
    expect(second.body.meta).toMatchObject({ total: 3, count: 1 });
    const past = await callJson(eventsGET, "/api/predmkt/events?offset=3");
    expect(past.status).toBe(200);
    expect(past.body.data).toEqual([]);
    expect(past.body.meta).toMatchObject({ total: 3, count: 0, offset: 3 });
    const filtered = await callJson(eventsGET, "/api/predmkt/events?category=crypto&limit=1");
    expect(filtered.body.meta.total).toBe(1);
    expect(first.body.data[0]).toMatchObject({
      slug: "event-3",
      title: "Event number 3",
      category: "politics",
      category_label: "Politics",
      volume_24h_usd: 3_100,
      volume_usd: 31_000,
      liquidity_usd: 310,
      end_date: "2027-01-01T00:00:00.000Z",
      market_count: 1,
    });
  });

  it("event detail with every market and current probabilities", async () => {
    const { status, body } = await callJson(eventGET, "/api/predmkt/events/event-1", { slug: "event-1" });
    expect(status).toBe(200);
    expect(body.data.markets.map((m: { id: string }) => m.id)).toEqual(["11", "12"]);
    expect(body.data.markets[0].outcomes).toEqual([
      { index: 0, name: "Yes", token_id: world.events[0].markets[0].outcomes[0].token_id, probability: 0.7 },
      { index: 1, name: "No", token_id: world.events[0].markets[0].outcomes[1].token_id, probability: 0.3 },
    ]);
    expect(body.meta.as_of).toBe(iso(90));
    expect((await callJson(eventGET, "/api/predmkt/events/no-such-event", { slug: "no-such-event" })).status).toBe(404);
  });

  it("changes for each window; a boundary exactly on a sample; outcomes without a sample that old are left out", async () => {
    const changes = async (window: string) =>
      (await callJson(changesGET, `/api/predmkt/events/event-1/changes?window=${window}`, { slug: "event-1" })).body;
    const hour = await changes("1h");
    // start = minute 30, exactly the second pass: its prices are "then".
    expect(hour.data.map((c: { market_id: string; outcome: string; change: number }) => [c.market_id, c.outcome, c.change])).toEqual([
      ["11", "Yes", 0.05],
      ["11", "No", -0.05],
      ["12", "Yes", 0.05],
      ["12", "No", -0.05],
    ]);
    expect(hour.data[0]).toMatchObject({
      probability_now: 0.7,
      probability_then: 0.65,
      window: "1h",
      then_at: iso(30),
      event_slug: "event-1",
    });
    expect(hour.meta).toMatchObject({ source: "sampled", as_of: iso(90), window: "1h" });
    // Nothing was sampled 24 h before: every outcome is left out rather than guessed.
    expect((await changes("24h")).data).toEqual([]);
    // Only market 11's Yes has rollups a week and a month back.
    const week = await changes("7d");
    expect(week.data.map((c: { market_id: string; change: number }) => [c.market_id, c.change])).toEqual([["11", 0.3]]);
    const month = await changes("30d");
    expect(month.data.map((c: { market_id: string; change: number }) => [c.market_id, c.change])).toEqual([["11", -0.2]]);
    expect((await callJson(changesGET, "/api/predmkt/events/event-1/changes", { slug: "event-1" })).body.meta.window).toBe("24h");
  });

  it("movers for every window value, ranked by absolute change with ties by volume", async () => {
    const hour = await callJson(moversGET, "/api/predmkt/movers?window=1h");
    expect(hour.body.data.map((m: { market_id: string; change: number }) => [m.market_id, m.change])).toEqual([
      ["21", -0.3],
      ["12", 0.05],
      ["11", 0.05],
      ["31", 0],
    ]);
    expect(hour.body.data[0]).toMatchObject({
      outcome: "Yes",
      outcome_index: 0,
      probability_now: 0.2,
      probability_then: 0.5,
      window: "1h",
    });
    expect((await callJson(moversGET, "/api/predmkt/movers?window=1h&limit=1")).body.data).toHaveLength(1);
    for (const window of ["1m", "5m", "15m", "30m", "1h", "4h", "12h", "24h", "7d"]) {
      const res = await callJson(moversGET, `/api/predmkt/movers?window=${window}`);
      expect(res.status, window).toBe(200);
      expect(res.body.meta.window).toBe(window);
      for (const row of res.body.data) expect(row.window).toBe(window);
    }
    // 30 minutes back lands on the second pass; 4 h and more reach before the first sample.
    expect((await callJson(moversGET, "/api/predmkt/movers?window=30m")).body.data).toHaveLength(4);
    expect((await callJson(moversGET, "/api/predmkt/movers?window=4h")).body.data).toEqual([]);
    expect((await callJson(moversGET, "/api/predmkt/movers?window=7d")).body.data.map((m: { market_id: string }) => m.market_id)).toEqual([
      "11",
    ]);
    expect((await callJson(moversGET, "/api/predmkt/movers")).body.meta).toMatchObject({ window: "24h", limit: 20 });
  });

  it("trades: newest first, min_usd, limit", async () => {
    const all = await callJson(tradesGET, "/api/predmkt/trades");
    expect(all.body.data.map((t: { id: string }) => t.id)).toEqual(["trade-4", "trade-3", "trade-2", "trade-1"]);
    expect(all.body.data[0]).toMatchObject({ market_id: "11", event_slug: "event-1", usd_size: 5_000, side: "BUY" });
    expect(all.body.meta).toMatchObject({ source: "sampled", limit: 100, count: 4 });
    expect((await callJson(tradesGET, "/api/predmkt/trades?min_usd=1000")).body.data.map((t: { id: string }) => t.id)).toEqual(["trade-4"]);
    expect((await callJson(tradesGET, "/api/predmkt/trades?limit=2")).body.data).toHaveLength(2);
  });

  it("abnormal trades with score and reason", async () => {
    const { body } = await callJson(abnormalGET, "/api/predmkt/abnormal");
    expect(body.data.map((t: { id: string }) => t.id)).toEqual(["trade-4"]);
    // The sampled day (5,000 + 3 × 100) exceeds Gamma's 24 h figure (1,100), so it is the denominator.
    expect(body.data[0]).toMatchObject({ usd_size: 5_000, share_of_market_24h_volume: 0.943396, robust_z: null });
    expect(body.data[0].score).toBeGreaterThanOrEqual(1);
    expect(body.data[0].reason).toMatch(/too few to judge size.*94% of the market's 24 h volume/);
  });

  it("whales valued at the current price", async () => {
    const { body } = await callJson(whalesGET, "/api/predmkt/whales");
    expect(body.data).toEqual([
      expect.objectContaining({
        wallet: WHALE,
        pseudonym: "Big-Fish",
        market_id: "11",
        shares: 10_000,
        entry_price: 0.5,
        current_price: 0.7,
        value_usd: 7_000,
        unrealized_pnl_usd: 2_000,
      }),
    ]);
    // Refreshed at the first pass and again at minute 90 (more than 10 minutes later), not at minute 30.
    expect(body.meta.as_of).toBe(iso(90));
  });

  it("live ticks: each outcome's latest price change, newest first", async () => {
    const { body } = await callJson(liveGET, "/api/predmkt/live?limit=7");
    expect(body.data).toHaveLength(7);
    const latest = body.data.slice(0, 6);
    expect(latest.every((t: { timestamp: string }) => t.timestamp === iso(90))).toBe(true);
    expect(latest.map((t: { market_id: string }) => t.market_id).sort()).toEqual(["11", "11", "12", "12", "21", "21"]);
    // Market 31 never moved: its tick is its first sample (no previous price); its heartbeat at minute 90 is no tick.
    expect(body.data[6]).toMatchObject({ market_id: "31", timestamp: iso(0), previous_price: null, price: 0.25 });
    const yes11 = latest.find((t: { market_id: string; outcome_index: number }) => t.market_id === "11" && t.outcome_index === 0);
    expect(yes11).toMatchObject({ price: 0.7, previous_price: 0.65 });
  });

  it("history for each window, by market id or condition id", async () => {
    const history = async (id: string, window?: string) =>
      (await callJson(historyGET, `/api/predmkt/markets/${id}/history${window ? `?window=${window}` : ""}`, { id })).body;
    const day = await history("11");
    expect(day.data).toMatchObject({ market_id: "11", outcome: "Yes", resolution_s: 60 });
    expect(day.data.points).toEqual([
      { t: T0 / 1000, p: 0.6 },
      { t: T0 / 1000 + 1800, p: 0.65 },
      { t: T0 / 1000 + 5400, p: 0.7 },
    ]);
    expect(day.meta).toMatchObject({ source: "sampled", as_of: iso(90), window: "24h" });
    const week = await history(world.events[0].markets[0].condition_id!, "7d");
    expect(week.data.resolution_s).toBe(900);
    // The week before, then the completed 15-minute buckets 00:00 and 00:30 (closing prices), then the current price.
    expect(week.data.points.map((p: { p: number }) => p.p)).toEqual([0.4, 0.6, 0.65, 0.7]);
    const month = await history("11", "30d");
    expect(month.data.resolution_s).toBe(3600);
    expect(month.data.points.map((p: { p: number }) => p.p)).toEqual([0.9, 0.65, 0.7]);
    expect((await callJson(historyGET, "/api/predmkt/markets/999999/history", { id: "999999" })).status).toBe(404);
  });
});

describe("bad parameters are 400s naming the parameter", () => {
  const cases: [RouteHandler, string, Record<string, string>, string][] = [
    [eventsGET, "/api/predmkt/events?limit=0", {}, "limit"],
    [eventsGET, "/api/predmkt/events?limit=501", {}, "limit"],
    [eventsGET, "/api/predmkt/events?offset=10001", {}, "offset"],
    [eventsGET, "/api/predmkt/events?offset=-1", {}, "offset"],
    [eventsGET, "/api/predmkt/events?order=newest", {}, "order"],
    [eventsGET, "/api/predmkt/events?q=", {}, "q"],
    [eventsGET, `/api/predmkt/events?q=${"x".repeat(201)}`, {}, "q"],
    [eventsGET, "/api/predmkt/events?category=Not_A_Slug", {}, "category"],
    [moversGET, "/api/predmkt/movers?window=2h", {}, "window"],
    [moversGET, "/api/predmkt/movers?limit=abc", {}, "limit"],
    [abnormalGET, "/api/predmkt/abnormal?limit=0", {}, "limit"],
    [whalesGET, "/api/predmkt/whales?limit=9999", {}, "limit"],
    [tradesGET, "/api/predmkt/trades?min_usd=-5", {}, "min_usd"],
    [tradesGET, "/api/predmkt/trades?min_usd=lots", {}, "min_usd"],
    [liveGET, "/api/predmkt/live?limit=501", {}, "limit"],
    [changesGET, "/api/predmkt/events/event-1/changes?window=5m", { slug: "event-1" }, "window"],
    [eventGET, "/api/predmkt/events/Bad_Slug", { slug: "Bad_Slug" }, "slug"],
    [historyGET, "/api/predmkt/markets/abc/history", { id: "abc" }, "id"],
    [historyGET, "/api/predmkt/markets/11/history?window=1h", { id: "11" }, "window"],
  ];
  it.each(cases.map(([handler, path, params, parameter]) => ({ handler, path, params, parameter })))(
    "$path → 400 naming $parameter",
    async ({ handler, path, params, parameter }) => {
      const { status, body } = await callJson(handler, path, params);
      expect(status).toBe(400);
      expect(body.code).toBe("invalid_parameter");
      expect(body.errors.map((e: { parameter: string }) => e.parameter)).toContain(parameter);
    },
  );
});
