// Per-pass immutable answers: the route handlers of the sampled endpoints, called as the gateway would, over real
// sampler passes. The ETag moves exactly when a pass lands, If-None-Match is answered 304 without a body, the
// cached bytes are what a fresh render gives, and the aggregates are computed by the pass, not by the first reader.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
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
import { answerCacheStats, clearAnswerCache, etagMatches } from "@/lib/api/cached-answer";
import { callHandler, type RouteHandler } from "@/tests/helpers/handler";
import { closeDb, type Db, getDb } from "@/lib/db/client";
import { getStats, getEvent, listCategories, listEvents } from "@/lib/predmkt/events";
import { latestTicks, marketHistory } from "@/lib/predmkt/history";
import { eventChanges, movers } from "@/lib/predmkt/movers";
import { clearPerPass } from "@/lib/predmkt/per-pass";
import { abnormalTrades, listTrades } from "@/lib/predmkt/trades";
import { listWhales } from "@/lib/predmkt/whales";
import { runPass } from "@/lib/sampler/pass";
import { registerPassListeners } from "@/lib/server/jobs";
import { event, FakeWorld, market, trade } from "./fake-world";

async function call(handler: RouteHandler, path: string, params: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const { id, response } = await callHandler(handler, path, params, headers);
  return { id, response, text: await response.text() };
}

let db: Db;
let world: FakeWorld;
let minute = 0;
const T0 = Date.now() - 3 * 3600_000;
const pass = async (clock: () => Date = () => new Date(T0 + ++minute * 60_000)) => {
  const result = await runPass({ db, source: world, now: clock });
  expect(result.status).toBe("ok");
};

beforeAll(async () => {
  db = await getDb();
  // The after-pass listeners every process registers through its composition root (lib/server/jobs.ts).
  registerPassListeners();
  await db.$executeRawUnsafe(
    "TRUNCATE events, markets, outcomes, price_samples, trades, whale_positions, sampler_runs, sampler_lease, sampler_state RESTART IDENTITY",
  );
  world = new FakeWorld();
  world.events = [event(1, [market(11, "1", [0.6, 0.4]), market(12, "1", [0.1, 0.9])]), event(2, [market(21, "2", [0.5, 0.5])])];
  const cond = world.events[0].markets[0].condition_id!;
  world.trades = [trade(2, cond, T0 / 1000 - 5, 5_000), trade(1, cond, T0 / 1000 - 10)];
  await pass();
});
afterAll(closeDb);
beforeEach(() => {
  clearAnswerCache();
});

describe("ETag and 304", () => {
  it("the ETag is strong and stable between passes, and moves exactly when a pass lands", async () => {
    const a = await call(statsGET, "/api/predmkt/stats");
    const b = await call(statsGET, "/api/predmkt/stats");
    const etag = a.response.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(b.response.headers.get("etag")).toBe(etag);
    expect(b.text).toBe(a.text);
    // Parameters are normalised: the default limit spelled out is the same answer.
    const moversDefault = await call(moversGET, "/api/predmkt/movers");
    const moversExplicit = await call(moversGET, "/api/predmkt/movers?limit=20&window=24h");
    expect(moversExplicit.response.headers.get("etag")).toBe(moversDefault.response.headers.get("etag"));
    expect((await call(moversGET, "/api/predmkt/movers?limit=5")).response.headers.get("etag")).not.toBe(
      moversDefault.response.headers.get("etag"),
    );

    await pass();
    const c = await call(statsGET, "/api/predmkt/stats");
    expect(c.response.headers.get("etag")).not.toBe(etag);
    expect((await call(statsGET, "/api/predmkt/stats")).response.headers.get("etag")).toBe(c.response.headers.get("etag"));
  });

  it("If-None-Match with the current ETag: 304, no body, request id and validators kept", async () => {
    const first = await call(statsGET, "/api/predmkt/stats");
    const etag = first.response.headers.get("etag")!;
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const again = await call(statsGET, "/api/predmkt/stats", {}, { "if-none-match": header });
      expect(again.response.status, header).toBe(304);
      expect(again.text).toBe("");
      expect(again.response.headers.get("x-request-id")).toBe(again.id);
      expect(again.response.headers.get("etag")).toBe(etag);
      expect(again.response.headers.get("cache-control")).toMatch(/^private, max-age=\d+$/);
    }
    const stale = await call(statsGET, "/api/predmkt/stats", {}, { "if-none-match": '"not-this-one"' });
    expect(stale.response.status).toBe(200);
    expect(stale.text).toBe(first.text);
    await pass();
    const after = await call(statsGET, "/api/predmkt/stats", {}, { "if-none-match": etag });
    expect(after.response.status).toBe(200);
    expect(JSON.parse(after.text).data.active_events).toBe(2);
  });

  it("weak comparison of If-None-Match", () => {
    expect(etagMatches('W/"abc"', '"abc"')).toBe(true);
    expect(etagMatches('"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches('"abd"', '"abc"')).toBe(false);
    expect(etagMatches(null, '"abc"')).toBe(false);
  });

  it("Cache-Control holds until the next pass is due", async () => {
    await pass(() => new Date());
    const { response } = await call(statsGET, "/api/predmkt/stats");
    const maxAge = Number(/max-age=(\d+)/.exec(response.headers.get("cache-control")!)![1]);
    // Cron runs a pass every minute; this one ended just now.
    expect(maxAge).toBeGreaterThan(50);
    expect(maxAge).toBeLessThanOrEqual(60);
  });

  it("errors are not cached: an unknown event is a 404 problem, and stays one", async () => {
    for (let i = 0; i < 2; i++) {
      const { response } = await call(eventGET, "/api/predmkt/events/no-such-event", { slug: "no-such-event" });
      expect(response.status).toBe(404);
      expect(response.headers.get("etag")).toBeNull();
    }
  });
});

describe("cached bytes", () => {
  const cond = () => world.events[0].markets[0].condition_id!;
  const cases: [string, RouteHandler, string, Record<string, string>, () => Promise<unknown>][] = [
    ["stats", statsGET, "/api/predmkt/stats", {}, getStats],
    ["categories", categoriesGET, "/api/predmkt/categories", {}, listCategories],
    [
      "events",
      eventsGET,
      "/api/predmkt/events?limit=2",
      {},
      () => listEvents({ order: "volume24hr", limit: 2, offset: 0, category: undefined, q: undefined }),
    ],
    ["event", eventGET, "/api/predmkt/events/event-1", { slug: "event-1" }, () => getEvent("event-1")],
    ["changes", changesGET, "/api/predmkt/events/event-1/changes?window=1h", { slug: "event-1" }, () => eventChanges("event-1", "1h")],
    ["movers", moversGET, "/api/predmkt/movers?window=5m&limit=3", {}, () => movers("5m", 3)],
    ["abnormal", abnormalGET, "/api/predmkt/abnormal", {}, () => abnormalTrades(50)],
    ["trades", tradesGET, "/api/predmkt/trades?limit=1", {}, () => listTrades(0, 1)],
    ["whales", whalesGET, "/api/predmkt/whales", {}, () => listWhales({ limit: 50 })],
    ["live", liveGET, "/api/predmkt/live?limit=2", {}, () => latestTicks(2)],
    ["history", historyGET, "/api/predmkt/markets/11/history?window=24h", { id: "11" }, () => marketHistory("11", "24h")],
  ];

  it.each(cases)("%s: the cached bytes are what a fresh render gives", async (_name, handler, path, params, render) => {
    await call(handler, path, params); // builds and caches
    const cached = await call(handler, path, params);
    expect(cached.response.status).toBe(200);
    expect(cached.response.headers.get("content-type")).toBe("application/json");
    clearAnswerCache();
    clearPerPass();
    expect(cached.text).toBe(JSON.stringify(await render()));
  });

  it("history by condition id, in any letter case, is the same answer as by market id", async () => {
    const byId = await call(historyGET, "/api/predmkt/markets/11/history?window=24h", { id: "11" });
    const upper = `0x${cond().slice(2).toUpperCase()}`;
    const byCondition = await call(historyGET, `/api/predmkt/markets/${upper}/history?window=24h`, { id: upper });
    expect(byCondition.response.status).toBe(200);
    expect(byCondition.text).toBe(byId.text);
    expect(JSON.parse(byId.text).data.points.length).toBeGreaterThan(0);
  });

  it("the in-memory cache is bounded by bytes and keeps what it serves", async () => {
    await call(statsGET, "/api/predmkt/stats");
    const stats = answerCacheStats();
    expect(stats.entries).toBe(1);
    expect(stats.bytes).toBeGreaterThan(50);
    expect(stats.bytes).toBeLessThanOrEqual(stats.max_bytes);
  });
});

describe("work moves into the pass", () => {
  it("movers for every window, stats and the rest are computed when the pass lands, before any reader", async () => {
    await pass();
    const answers = Object.fromEntries(
      await Promise.all(
        ["1m", "5m", "15m", "30m", "1h", "4h", "12h", "24h", "7d"].map(async (w) => [
          w,
          (await call(moversGET, `/api/predmkt/movers?window=${w}`)).text,
        ]),
      ),
    );
    // The history the rankings were computed from is gone; the answers of this pass do not change.
    clearAnswerCache();
    await pass();
    await db.$executeRawUnsafe("DELETE FROM price_samples");
    await db.$executeRawUnsafe("UPDATE events SET volume_24h_usd = 0");
    for (const w of Object.keys(answers)) {
      const text = (await call(moversGET, `/api/predmkt/movers?window=${w}`)).text;
      expect(JSON.parse(text).meta.window).toBe(w);
    }
    expect(JSON.parse((await call(statsGET, "/api/predmkt/stats")).text).data.volume_24h_usd).toBeGreaterThan(0);
    expect(JSON.parse((await call(moversGET, "/api/predmkt/movers?window=1m")).text).data.length).toBeGreaterThan(0);
    // The rows changed behind the pass's back: a pass makes the stored state and the per-pass answers agree again, so
    // a test that runs after this one (CI shuffles the order) compares cached bytes with a render of the same rows.
    await pass();
  });
});
