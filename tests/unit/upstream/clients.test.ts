// The typed clients against every recorded Polymarket response in ../shared/fixtures/polymarket: each field of our
// normalised output is checked against the value in the fixture.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { clearLocalCache, clob, data, gamma } from "@/lib/upstream";
import { resetHoldersFallback } from "@/lib/upstream/data";
import { pointUpstreamAt, type Stub, startStub } from "./stub-server";

const FIXTURES = path.resolve(__dirname, "../../../../shared/fixtures/polymarket");
const fixture = (name: string): any => JSON.parse(readFileSync(path.join(FIXTURES, name), "utf8"));

const eventFixture = fixture("gamma_events_by_slug__nautilus_gamma_event.json");
const marketFixture = fixture("gamma_market__nautilus_gamma_market.json");
const tradesV1Fixture = fixture("data_api_trades_v1__swift_test_real_capture.json");
const tradesV2Fixture = fixture("data_api_v2_trades__nautilus_captured_sanitized.json");
const holdersFixture = fixture("data_api_holders_token_group__tnn225_poly-market-maker.json");
const bookFixture = fixture("clob_book__nautilus_http_book.json");
const wsLastTradeFixture = fixture("ws_market_last_trade_price__nautilus.json");
const wsPriceChangeFixture = fixture("ws_market_price_change__nautilus_price_change_v2.json");

let stub: Stub;
let restore: () => void;

beforeAll(async () => {
  stub = await startStub();
  restore = pointUpstreamAt(stub.url, { UPSTREAM_TIMEOUT_MS: 2000 });
});
afterAll(async () => {
  restore();
  await stub.close();
});
beforeEach(() => {
  clearLocalCache();
  resetHoldersFallback();
});

const iso = (text: string) => new Date(text).toISOString();

function expectMarketMatches(
  actual: Awaited<ReturnType<typeof gamma.getMarket>>,
  raw: any,
  eventSlug: string | null,
  eventId: string | null,
) {
  expect(actual).not.toBeNull();
  const m = actual!;
  const names = JSON.parse(raw.outcomes);
  const prices = JSON.parse(raw.outcomePrices);
  const tokens = JSON.parse(raw.clobTokenIds);
  expect(m.id).toBe(raw.id);
  expect(m.condition_id).toBe(raw.conditionId);
  expect(m.slug).toBe(raw.slug);
  expect(m.question).toBe(raw.question);
  expect(m.group_item_title).toBe(raw.groupItemTitle ?? null);
  expect(m.active).toBe(raw.active);
  expect(m.closed).toBe(raw.closed);
  expect(m.archived).toBe(raw.archived);
  expect(m.accepting_orders).toBe(raw.acceptingOrders);
  expect(m.volume_usd).toBe(raw.volumeNum);
  expect(m.volume_usd).toBe(Number(raw.volume)); // the string twin agrees
  expect(m.volume_24h_usd).toBe(raw.volume24hr);
  expect(m.liquidity_usd).toBe(raw.liquidityNum);
  expect(m.best_bid).toBe(raw.bestBid);
  expect(m.best_ask).toBe(raw.bestAsk);
  expect(m.spread).toBe(raw.spread);
  expect(m.last_trade_price).toBe(raw.lastTradePrice);
  // Missing price-change keys are null, not 0.
  expect(m.one_hour_price_change).toBe(raw.oneHourPriceChange ?? null);
  expect(m.one_day_price_change).toBe(raw.oneDayPriceChange ?? null);
  expect(m.one_week_price_change).toBe(raw.oneWeekPriceChange ?? null);
  expect(m.one_month_price_change).toBe(raw.oneMonthPriceChange ?? null);
  expect(m.start_date).toBe(iso(raw.startDate));
  expect(m.end_date).toBe(iso(raw.endDate));
  expect(m.neg_risk).toBe(raw.negRisk);
  expect(m.uma_resolution_status).toBe(raw.umaResolutionStatus ?? null);
  expect(m.event_slug).toBe(eventSlug);
  expect(m.event_id).toBe(eventId);
  expect(m.outcomes).toEqual(
    names.map((name: string, index: number) => ({ index, name, token_id: tokens[index], price: Number(prices[index]) })),
  );
  for (const o of m.outcomes) {
    expect(typeof o.token_id).toBe("string");
    expect(o.token_id).toMatch(/^\d{76,78}$/);
  }
}

describe("gamma client against recorded responses", () => {
  it("getEventBySlug normalises the real event (array form of /events?slug=) field by field", async () => {
    const raw = eventFixture[0];
    stub.route(`/gamma/events/slug/${raw.slug}`, { json: eventFixture });
    const event = await gamma.getEventBySlug(raw.slug);
    expect(event).not.toBeNull();
    const e = event!;
    expect(e.id).toBe(raw.id);
    expect(e.slug).toBe(raw.slug);
    expect(e.title).toBe(raw.title);
    expect(e.description).toBe(raw.description);
    expect([e.active, e.closed, e.archived]).toEqual([raw.active, raw.closed, raw.archived]);
    expect(e.open).toBe(true);
    expect(e.volume_usd).toBe(raw.volume);
    expect(e.volume_24h_usd).toBe(raw.volume24hr);
    expect(e.volume_1wk_usd).toBe(raw.volume1wk);
    expect(e.liquidity_usd).toBe(raw.liquidity);
    expect(e.open_interest_usd).toBe(raw.openInterest);
    expect(e.start_date).toBe(iso(raw.startDate));
    expect(e.end_date).toBe(iso(raw.endDate));
    expect(e.neg_risk).toBe(raw.negRisk);
    expect(e.category).toBe(null);
    expect(e.image).toBe(raw.image);
    expect(e.tags).toEqual(raw.tags.map((t: { id: string; slug: string; label: string }) => ({ id: t.id, slug: t.slug, label: t.label })));
    expect(e.markets).toHaveLength(raw.markets.length);
    raw.markets.forEach((m: unknown, i: number) => expectMarketMatches(e.markets[i], m, raw.slug, raw.id));
    // The Whitmer market has oneWeekPriceChange but no oneDayPriceChange key.
    expect(e.markets[1].one_day_price_change).toBeNull();
    expect(e.markets[1].one_week_price_change).toBe(-0.0025);
  });

  it("getEventBySlug also accepts the single-object form and answers null for an unknown slug", async () => {
    stub.route("/gamma/events/slug/single-form", { json: { ...eventFixture[0], slug: "single-form" } });
    expect((await gamma.getEventBySlug("single-form"))?.id).toBe(eventFixture[0].id);
    expect(await gamma.getEventBySlug("no-such-event")).toBeNull();
    stub.route("/gamma/events/slug/empty-array", { json: [] });
    expect(await gamma.getEventBySlug("empty-array")).toBeNull();
  });

  it("getMarket by Gamma id normalises the real market, including its events[0] back-reference", async () => {
    stub.route(`/gamma/markets/${marketFixture.id}`, { json: marketFixture });
    const market = await gamma.getMarket(marketFixture.id);
    expectMarketMatches(market, marketFixture, marketFixture.events[0].slug, marketFixture.events[0].id);
    expect(market!.outcomes.map((o) => o.name)).toEqual(["Up", "Down"]);
    expect(market!.outcomes[0].token_id).toBe("104239898038807136052399800151408521467737075933964991162589336683346093173875");
  });

  it("getMarket by condition id queries /markets/keyset?condition_ids=, open first then closed, and picks the matching row", async () => {
    stub.route("/gamma/markets/keyset", (req) => ({
      // Gamma leaves closed markets out unless closed=true is sent; the fixture market is closed here.
      json: {
        markets:
          req.query.get("closed") === "true" && req.query.getAll("condition_ids").includes(marketFixture.conditionId)
            ? [{ ...marketFixture, closed: true }]
            : [],
      },
    }));
    // Only this test's requests: other tests of the file (in any order, the suite runs shuffled in CI) query it too.
    const earlier = stub.requests.length;
    const market = await gamma.getMarket(marketFixture.conditionId.toUpperCase().replace("0X", "0x"));
    expect(market?.id).toBe(marketFixture.id);
    expect(market?.closed).toBe(true);
    const sent = stub.requests
      .slice(earlier)
      .filter((r) => r.path === "/gamma/markets/keyset")
      .map((r) => r.query.get("closed"));
    expect(sent).toEqual(["false", "true"]);
    expect(await gamma.getMarket(`0x${"ab".repeat(32)}`)).toBeNull();
    expect(await gamma.getMarket("999999999")).toBeNull(); // stub 404
  });

  it("listEventsPage sends after_cursor, returns next_cursor, and stops on a repeated cursor", async () => {
    stub.route("/gamma/events/keyset", (req) => {
      const cursor = req.query.get("after_cursor");
      expect(req.query.get("offset")).toBeNull();
      if (!cursor) return { json: { events: eventFixture, next_cursor: "c1" } };
      if (cursor === "c1") return { json: { $schema: "x", events: [marketFixture.events[0]], next_cursor: "c1" } }; // cursor stuck
      return { json: { events: [] } };
    });
    const earlier = stub.requests.length;
    const first = await gamma.listEventsPage({ limit: 1 });
    expect(first.events.map((e) => e.id)).toEqual([eventFixture[0].id]);
    expect(first.next_cursor).toBe("c1");
    const second = await gamma.listEventsPage({ cursor: "c1", limit: 1 });
    expect(second.events.map((e) => e.slug)).toEqual([marketFixture.events[0].slug]);
    expect(second.next_cursor).toBeNull();
    const pages = [];
    for await (const page of gamma.iterateEvents({ limit: 1 })) pages.push(page.map((e) => e.id));
    expect(pages).toEqual([[eventFixture[0].id], [marketFixture.events[0].id]]);
    const sent = stub.requests.slice(earlier).filter((r) => r.path === "/gamma/events/keyset")[0].query;
    expect([sent.get("active"), sent.get("closed"), sent.get("archived"), sent.get("limit")]).toEqual(["true", "false", "false", "1"]);
  });
});

describe("tolerance", () => {
  it("rows with optional fields missing normalise to nulls and defaults; unknown fields are dropped", async () => {
    stub.route("/gamma/events/slug/bare", {
      json: {
        id: 1,
        slug: "bare",
        brandNewField: { x: 1 },
        markets: [{ id: "7", question: "Bare?", outcomes: null, clobTokenIds: '["123", "456"]' }],
      },
    });
    const event = (await gamma.getEventBySlug("bare"))!;
    expect(event).toMatchObject({
      id: "1",
      title: "bare",
      description: null,
      open: false,
      volume_usd: 0,
      liquidity_usd: 0,
      tags: [],
      end_date: null,
    });
    expect("brandNewField" in event).toBe(false);
    expect(event.markets[0]).toMatchObject({
      id: "7",
      condition_id: null,
      volume_usd: 0,
      best_bid: null,
      one_day_price_change: null,
      event_slug: "bare",
    });
    expect(event.markets[0].outcomes).toEqual([
      { index: 0, name: "Outcome 1", token_id: "123", price: null },
      { index: 1, name: "Outcome 2", token_id: "456", price: null },
    ]);
    stub.route("/data/trades", {
      json: [{ proxyWallet: "0xabc", side: "buy", asset: "123", conditionId: "0xc", size: "4", price: "0.25", timestamp: 1790000000123 }],
    });
    const [trade] = (await data.listTrades({ market: "0xc" })).trades;
    expect(trade).toMatchObject({
      side: "BUY",
      shares: 4,
      price: 0.25,
      usd_size: 1,
      timestamp_s: 1790000000,
      pseudonym: null,
      tx_hash: null,
      outcome_index: null,
    });
  });

  it("token ids sent as bare JSON numbers are read digit for digit, never through a float", async () => {
    const big = "60590045489347122735554346200880179420435533609307820342798544098823516727807";
    stub.route("/gamma/markets/8", { json: { id: "8", question: "Q", outcomes: '["Yes","No"]', clobTokenIds: `[${big}, 1]` } });
    const market = (await gamma.getMarket("8"))!;
    expect(market.outcomes.map((o) => o.token_id)).toEqual([big, "1"]);
  });

  it("a single unusable body is refused as upstream_unavailable; a list drops only its bad rows", async () => {
    stub.route("/gamma/markets/9", { json: { id: "9", question: "Q", clobTokenIds: '["0x12"]' } });
    await expect(gamma.getMarket("9")).rejects.toMatchObject({ code: "upstream_unavailable" });
    stub.route("/data/trades", { json: [{ side: "BUY", size: 1 }, ...tradesV1Fixture] });
    const page = await data.listTrades({ market: "0xc" });
    expect(page.trades).toHaveLength(tradesV1Fixture.length);
    expect(page.dropped).toEqual([{ kind: "trade", id: null, reason: expect.stringContaining("proxyWallet") }]);
  });

  it("an events page drops the event without a slug and the market with a non-decimal token id, and keeps the rest", async () => {
    const good = eventFixture[0];
    const badMarket = { ...good.markets[0], id: "bad-market-1", clobTokenIds: '["0xnope", "12"]' };
    stub.route("/gamma/events/keyset", {
      json: {
        events: [
          { ...good, id: "1001", slug: null },
          { ...good, markets: [badMarket, ...good.markets] },
        ],
      },
    });
    const page = await gamma.listEventsPage({ limit: 500 });
    expect(page.events.map((e) => e.id)).toEqual([good.id]);
    expect(page.events[0].markets.map((m) => m.id)).toEqual(good.markets.map((m: { id: string }) => m.id));
    expect(page.dropped.map((d) => [d.kind, d.id])).toEqual([
      ["event", "1001"],
      ["market", "bad-market-1"],
    ]);
  });

  it("an events page read item by item as it streams equals the page parsed whole, and a bad body fails as before", async () => {
    // A page several stream chunks long, with text that is not ASCII: each event is read as its bytes arrive.
    const good = eventFixture[0];
    const events = Array.from({ length: 60 }, (_, i) => ({
      ...good,
      id: String(5000 + i),
      slug: `${good.slug}-${i}`,
      title: `Élection « ${i} » – 🗳️ ${"x".repeat(i * 97)}`,
    }));
    const text = JSON.stringify({ $schema: "x", events, next_cursor: "next" });
    expect(Buffer.byteLength(text)).toBeGreaterThan(200_000);
    stub.route("/gamma/events/keyset", { text });
    const page = await gamma.listEventsPage({ limit: 60 });
    const { parseEvents } = await import("@/lib/upstream/schemas");
    expect(page.events).toEqual(parseEvents(events).items);
    expect(page.events.map((e) => e.title)).toEqual(events.map((e) => e.title));
    expect(page.next_cursor).toBe("next");

    const failure = (p: Promise<unknown>) =>
      p.then(
        () => Promise.reject(new Error("no error")),
        (error: { code: string }) => error.code,
      );
    stub.route("/gamma/events/keyset", { text: text.slice(0, 150_000) });
    expect(await failure(gamma.listEventsPage({ limit: 60 }))).toBe("upstream_unavailable");
    stub.route("/gamma/events/keyset", { json: { events: { id: "1" } } });
    expect(await failure(gamma.listEventsPage({ limit: 60 }))).toBe("upstream_unavailable");
    stub.route("/gamma/events/keyset", { json: [good] });
    expect(await failure(gamma.listEventsPage({ limit: 60 }))).toBe("upstream_unavailable");
    // Cloudflare's HTML page is retried (as for every other request), then the page is read.
    let answered = 0;
    stub.route("/gamma/events/keyset", () => (answered++ === 0 ? { text: "<!DOCTYPE html><title>Just a moment...</title>" } : { text }));
    const before = stub.count("/gamma/events/keyset");
    expect((await gamma.listEventsPage({ limit: 60 })).events).toHaveLength(60);
    expect(stub.count("/gamma/events/keyset") - before).toBe(2);
  });
});

// Protocol V2 markets, shapes taken from Polymarket's own SDK tests and docs (sim/polymarket/SOURCES.md lists them):
// the raw market, identifier cases and condition ids of Polymarket/ts-sdk packages/bindings/src/gamma/market.test.ts,
// and the selection rule of docs.polymarket.com/migrate/polymarket-v2/api-integrations ("choose the ID field by
// `version`, even when both fields are present"; `positionIds` an array of decimal strings).
describe("V2 markets", () => {
  const CTF_CONDITION_ID = `0x${"ab".repeat(32)}`;
  const POLYV2_CONDITION_ID = "0x012def24bfb0c5c57fb236fac08b94236a0000000000000000000000000000";
  const PADDED_POLYV2_CONDITION_ID = `${POLYV2_CONDITION_ID}00`;
  const raw = { id: "1", outcomes: '["Yes", "No"]', outcomePrices: '["0.4", "0.6"]' };
  const cases = [
    { name: "legacy market", ids: { clobTokenIds: '["11", "12"]', version: "v1" }, tokens: ["11", "12"], version: "v1" },
    {
      name: "PolyV2 market (JSON-encoded positionIds)",
      ids: { positionIds: '["21", "22"]', version: "v2" },
      tokens: ["21", "22"],
      version: "v2",
    },
    {
      name: "PolyV2 market (array positionIds, docs)",
      ids: { positionIds: ["21", "22"], version: "v2" },
      tokens: ["21", "22"],
      version: "v2",
    },
    {
      name: "CTF market with Combos (both present, v1 wins)",
      ids: { clobTokenIds: '["11", "12"]', positionIds: '["21", "22"]', version: "v1" },
      tokens: ["11", "12"],
      version: "v1",
    },
    {
      name: "V2 market with both present (v2 wins)",
      ids: { clobTokenIds: '["11", "12"]', positionIds: '["21", "22"]', version: "v2" },
      tokens: ["21", "22"],
      version: "v2",
    },
    { name: "market from before `version`", ids: { clobTokenIds: '["11", "12"]' }, tokens: ["11", "12"], version: null },
  ];
  for (const c of cases) {
    it(`picks the outcome ids of a ${c.name} field by field`, async () => {
      stub.route("/gamma/markets/1", { json: { ...raw, ...c.ids, conditionId: CTF_CONDITION_ID } });
      const m = (await gamma.getMarket("1"))!;
      expect(m.protocol_version).toBe(c.version);
      expect(m.outcomes).toEqual([
        { index: 0, name: "Yes", token_id: c.tokens[0], price: 0.4 },
        { index: 1, name: "No", token_id: c.tokens[1], price: 0.6 },
      ]);
    });
  }

  it("accepts the 62-hex PolyV2 condition id and its padded 64-hex form, and refuses a non-hex one", async () => {
    for (const conditionId of [CTF_CONDITION_ID, POLYV2_CONDITION_ID, PADDED_POLYV2_CONDITION_ID]) {
      clearLocalCache();
      stub.route("/gamma/markets/1", { json: { ...raw, positionIds: '["21", "22"]', version: "v2", conditionId } });
      expect((await gamma.getMarket("1"))!.condition_id).toBe(conditionId);
    }
    clearLocalCache();
    stub.route("/gamma/markets/1", { json: { ...raw, conditionId: "not-hex" } });
    await expect(gamma.getMarket("1")).rejects.toMatchObject({ code: "upstream_unavailable" });
  });

  it("finds a V2 market by either spelling of its condition id", async () => {
    stub.route("/gamma/markets/keyset", (req) => ({
      json: {
        markets: req.query.getAll("condition_ids").includes(POLYV2_CONDITION_ID)
          ? [{ ...raw, id: "77", positionIds: '["21", "22"]', version: "v2", conditionId: POLYV2_CONDITION_ID }]
          : [],
      },
    }));
    expect((await gamma.getMarket(POLYV2_CONDITION_ID))?.id).toBe("77");
    expect((await gamma.getMarket(PADDED_POLYV2_CONDITION_ID))?.id).toBe("77");
  });

  it("drops a market whose version is unknown or whose chosen ids are not decimal, keeping the page", async () => {
    stub.route("/gamma/markets/keyset", {
      json: {
        markets: [
          { ...raw, id: "5", version: "v3", positionIds: '["21", "22"]', conditionId: CTF_CONDITION_ID },
          { ...raw, id: "6", version: "v2", positionIds: '["0x21", "22"]', clobTokenIds: '["11", "12"]', conditionId: CTF_CONDITION_ID },
          { ...raw, id: "7", version: "v2", positionIds: '["21", "22"]', conditionId: CTF_CONDITION_ID },
        ],
      },
    });
    expect((await gamma.getMarket(CTF_CONDITION_ID))?.id).toBe("7");
  });
});

/** The fields of a normalised trade that copy one raw field, by that field's name in each Data API version. */
const RAW_TRADE_FIELDS = {
  v1: {
    tx_hash: "transactionHash",
    condition_id: "conditionId",
    token_id: "asset",
    event_slug: "eventSlug",
    market_slug: "slug",
    question: "title",
    outcome: "outcome",
    outcome_index: "outcomeIndex",
    side: "side",
    price: "price",
    shares: "size",
    wallet: "proxyWallet",
    timestamp_s: "timestamp", // seconds stay seconds
  },
  v2: {
    tx_hash: "transaction_hash",
    condition_id: "condition_id",
    token_id: "token_id",
    event_slug: "event_slug",
    market_slug: "slug",
    question: "title",
    outcome: "outcome",
    outcome_index: "outcome_index",
    side: "side",
    price: "price",
    shares: "size",
    wallet: "proxy_wallet",
    timestamp_s: "timestamp",
  },
} as const;

function expectCopiedTradeFields(t: object, raw: Record<string, unknown>, version: keyof typeof RAW_TRADE_FIELDS) {
  for (const [field, rawField] of Object.entries(RAW_TRADE_FIELDS[version])) {
    expect((t as Record<string, unknown>)[field], field).toBe(raw[rawField]);
  }
  expect((t as { usd_size: number }).usd_size).toBeCloseTo((raw.size as number) * (raw.price as number), 10);
}

describe("data client against recorded responses", () => {
  it("listTrades normalises v1 rows (camelCase, bare array) field by field", async () => {
    stub.route("/data/trades", { json: tradesV1Fixture });
    const { trades, next_cursor } = await data.listTrades({ market: tradesV1Fixture[0].conditionId, limit: 2 });
    expect(next_cursor).toBeNull();
    expect(trades).toHaveLength(2);
    tradesV1Fixture.forEach((raw: Record<string, never>, i: number) => {
      const t = trades[i];
      expectCopiedTradeFields(t, raw, "v1");
      expect(t.market_id).toBeNull();
      expect(t.pseudonym).toBe(raw.pseudonym === "" ? null : raw.pseudonym);
      expect(t.name).toBe(raw.name === "" ? null : raw.name);
      expect(t.timestamp).toBe(new Date((raw.timestamp as number) * 1000).toISOString());
      expect(t.id).toMatch(/^[0-9a-f]{32}$/);
    });
    expect(trades[0].id).not.toBe(trades[1].id); // same timestamp and token, different fills
    const sent = stub.requests.filter((r) => r.path === "/data/trades").at(-1)!.query;
    expect(sent.get("market")).toBe(tradesV1Fixture[0].conditionId);
    expect(sent.get("takerOnly")).toBe("true");
  });

  it("listTrades normalises v2 rows (snake_case, {data, pagination}) field by field and sends v2 params", async () => {
    stub.route("/data/v2/trades", { json: tradesV2Fixture });
    const { trades, next_cursor } = await data.listTrades({ version: "v2", eventId: "123", side: "BUY", minUsd: 1 });
    expect(next_cursor).toBeNull();
    // side=BUY re-applied locally: the SELL row of the fixture is dropped even though the stub ignores the filter.
    const buys = tradesV2Fixture.data.filter((r: { side: string }) => r.side === "BUY");
    expect(trades).toHaveLength(buys.length);
    buys.forEach((raw: Record<string, never>, i: number) => {
      const t = trades[i];
      expectCopiedTradeFields(t, raw, "v2");
      expect(t.side).toBe("BUY");
      expect(t.pseudonym).toBe(raw.pseudonym);
      expect(t.name).toBe(raw.name);
    });
    const sent = stub.requests.filter((r) => r.path === "/data/v2/trades").at(-1)!.query;
    expect([sent.get("event_id"), sent.get("side"), sent.get("filter_type"), sent.get("filter_amount")]).toEqual([
      "123",
      "BUY",
      "CASH",
      "1",
    ]);
  });

  it("listTrades min_usd keeps only trades with shares × price ≥ the bound, newest first", async () => {
    stub.route("/data/v2/trades", { json: tradesV2Fixture });
    const { trades } = await data.listTrades({ version: "v2", minUsd: 60 });
    // 92.59 × 0.7 = 64.8 and 244 × 0.297 = 72.5 qualify; 1.46 × 0.71 does not.
    expect(trades.map((t) => t.shares)).toEqual([92.59, 244]);
    expect(trades[0].timestamp_s).toBeGreaterThan(trades[1].timestamp_s);
  });

  it("listTrades passes the v2 cursor through both ways", async () => {
    stub.route("/data/v2/trades", (req) => ({
      json: { data: req.query.get("cursor") === "abc" ? [] : tradesV2Fixture.data, pagination: { has_more: true, next_cursor: "abc" } },
    }));
    const first = await data.listTrades({ version: "v2" });
    expect(first.next_cursor).toBe("abc");
    const second = await data.listTrades({ cursor: "abc" });
    expect(second.trades).toEqual([]);
  });

  it("getHolders normalises the v1 token group (holders keyed by condition id) field by field when v2 is refused", async () => {
    const conditionId = `0x${"c".repeat(64)}`;
    stub.route("/data/v2/holders", { status: 404, json: { error: "not found", code: "not_found" } });
    stub.route("/data/holders", (req) => ({ json: req.query.get("market") === conditionId ? [holdersFixture] : [] }));
    const groups = await data.getHolders(conditionId, 20);
    expect(groups).toHaveLength(1);
    expect(groups[0].token_id).toBe(holdersFixture.token);
    expect(groups[0].outcome_index).toBe(1);
    const rawSorted = [...holdersFixture.holders].sort((a, b) => b.amount - a.amount);
    expect(groups[0].holders).toHaveLength(20);
    groups[0].holders.forEach((h, i) => {
      const raw = rawSorted[i];
      expect(h.wallet).toBe(raw.proxyWallet);
      expect(h.pseudonym).toBe(raw.pseudonym || null);
      expect(h.name).toBe(raw.name || null);
      expect(h.token_id).toBe(raw.asset);
      expect(h.outcome_index).toBe(raw.outcomeIndex);
      expect(h.shares).toBe(raw.amount);
      expect(h.verified).toBe(raw.verified);
      expect(h.avg_price).toBeNull(); // v1 has no entry price
    });
  });

  it("getHolders asks /v2/holders with include_pnl (gross per outcome, avg_price) and merges pages by token", async () => {
    const conditionId = `0x${"c".repeat(64)}`;
    const v2Row = (h: Record<string, unknown>, i: number) => ({
      proxy_wallet: h.proxyWallet,
      token_id: h.asset,
      amount: h.amount,
      outcome_index: h.outcomeIndex,
      pseudonym: h.pseudonym,
      name: h.name,
      verified: h.verified,
      avg_price: 0.3 + i / 100,
      entry_cost_usdc: (h.amount as number) * (0.3 + i / 100),
      total_pnl: 1.5,
    });
    const rows = holdersFixture.holders.map(v2Row);
    const sentBefore = stub.requests.length;
    stub.route("/data/v2/holders", (req) => ({
      json: req.query.get("cursor")
        ? { data: [{ token_id: holdersFixture.token, holders: rows.slice(10) }], pagination: { has_more: false, next_cursor: null } }
        : { data: [{ token_id: holdersFixture.token, holders: rows.slice(0, 10) }], pagination: { has_more: true, next_cursor: "p2" } },
    }));
    const groups = await data.getHolders(conditionId, 50);
    expect(groups).toHaveLength(1);
    expect(groups[0].holders).toHaveLength(20);
    const byWallet = new Map(rows.map((r: { proxy_wallet: string }) => [r.proxy_wallet, r]));
    for (const h of groups[0].holders) {
      const raw = byWallet.get(h.wallet) as { amount: number; avg_price: number; entry_cost_usdc: number };
      expect(h.shares).toBe(raw.amount);
      expect(h.avg_price).toBe(raw.avg_price);
      expect(h.entry_cost_usd).toBe(raw.entry_cost_usdc);
      expect(h.total_pnl_usd).toBe(1.5);
    }
    const sent = stub.requests
      .slice(sentBefore)
      .filter((r) => r.path === "/data/v2/holders")
      .map((r) => r.query);
    expect(sent.map((q) => [q.get("condition"), q.get("include_pnl"), q.get("limit"), q.get("cursor")])).toEqual([
      [conditionId, "true", "50", null],
      [conditionId, "true", "50", "p2"],
    ]);
  });

  it("getHolders falls back to v1 on 401/403/404 and tries v2 again after V2_HOLDERS_RETRY_MS, not never", async () => {
    const conditionId = `0x${"d".repeat(64)}`;
    for (const status of [401, 403, 404]) {
      resetHoldersFallback();
      stub.route("/data/v2/holders", { status, json: { error: "refused" } });
      stub.route("/data/holders", { json: [holdersFixture] });
      const v2Before = stub.count("/data/v2/holders");
      const groups = await data.getHolders(conditionId, 50);
      expect(groups[0].holders).toHaveLength(20);
      expect(stub.requests.at(-1)!.query.get("limit")).toBe("20");
      await data.getHolders(conditionId, 60);
      expect(stub.count("/data/v2/holders") - v2Before).toBe(1); // remembered for a while
    }
    // Later, v2 is asked again.
    const realNow = Date.now;
    try {
      Date.now = () => realNow() + data.V2_HOLDERS_RETRY_MS + 1000;
      stub.route("/data/v2/holders", { json: { data: [], pagination: { has_more: false, next_cursor: null } } });
      const before = stub.count("/data/v2/holders");
      await data.getHolders(conditionId, 70);
      expect(stub.count("/data/v2/holders") - before).toBe(1);
    } finally {
      Date.now = realNow;
    }
  });

  it("getPositions accepts v1 rows", async () => {
    const row = {
      proxyWallet: "0xabc",
      asset: holdersFixture.token,
      conditionId: `0x${"c".repeat(64)}`,
      size: 120.5,
      avgPrice: 0.4,
      initialValue: 48.2,
      currentValue: 60.25,
      cashPnl: 12.05,
      percentPnl: 25,
      realizedPnl: 0,
      curPrice: 0.5,
      redeemable: false,
      title: "Will it?",
      slug: "will-it",
      eventSlug: "it",
      outcome: "Yes",
      outcomeIndex: 0,
      endDate: "2026-12-31",
      somethingNew: { nested: true },
    };
    stub.route("/data/positions", { json: [row] });
    const [p] = await data.getPositions("0xabc");
    expect(p).toEqual({
      wallet: "0xabc",
      token_id: row.asset,
      condition_id: row.conditionId,
      title: "Will it?",
      market_slug: "will-it",
      event_slug: "it",
      outcome: "Yes",
      outcome_index: 0,
      shares: 120.5,
      avg_price: 0.4,
      current_price: 0.5,
      initial_value_usd: 48.2,
      current_value_usd: 60.25,
      cash_pnl_usd: 12.05,
      percent_pnl: 25,
      realized_pnl_usd: 0,
      redeemable: false,
      end_date: "2026-12-31T00:00:00.000Z",
    });
  });
});

describe("clob client against recorded responses", () => {
  it("getPricesHistory returns {t, p} oldest first and sends the token id as `market`", async () => {
    const token = bookFixture.asset_id;
    stub.route("/clob/prices-history", {
      json: {
        history: [
          { t: 1790427360, p: 0.96 },
          { t: 1790427300, p: 0.955 },
        ],
      },
    });
    const points = await clob.getPricesHistory(token, { interval: "1w" });
    expect(points).toEqual([
      { t: 1790427300, p: 0.955 },
      { t: 1790427360, p: 0.96 },
    ]);
    const sent = stub.requests.at(-1)!.query;
    expect([sent.get("market"), sent.get("interval"), sent.get("fidelity")]).toEqual([token, "1w", "60"]);
  });

  it("getPricesHistory asks a closed market at 720-minute fidelity or coarser (py-clob-client#216, #189)", async () => {
    stub.route("/clob/prices-history", { json: { history: [] } });
    await clob.getPricesHistory("123", { interval: "1w", closed: true });
    expect(stub.requests.at(-1)!.query.get("fidelity")).toBe("720");
    await clob.getPricesHistory("123", { interval: "max", closed: true });
    expect(stub.requests.at(-1)!.query.get("fidelity")).toBe("1440");
    await clob.getPricesHistory("123", { interval: "1w" });
    expect(stub.requests.at(-1)!.query.get("fidelity")).toBe("60");
  });

  it("parseMarketWsMessage normalises last_trade_price and price_change frames, and ignores PONG", () => {
    const [trade] = clob.parseMarketWsMessage(JSON.stringify(wsLastTradeFixture));
    expect(trade).toEqual({
      type: "last_trade_price",
      token_id: wsLastTradeFixture.asset_id,
      condition_id: wsLastTradeFixture.market,
      price: 0.491,
      side: "SELL",
      size: 85.36,
      timestamp: new Date(Number(wsLastTradeFixture.timestamp)).toISOString(),
      // The recorded frame predates `transaction_hash` on this message.
      tx_hash: wsLastTradeFixture.transaction_hash ? String(wsLastTradeFixture.transaction_hash).toLowerCase() : null,
    });
    const [change] = clob.parseMarketWsMessage([wsPriceChangeFixture]);
    expect(change).toEqual({
      type: "price_change",
      condition_id: wsPriceChangeFixture.market,
      timestamp: new Date(Number(wsPriceChangeFixture.timestamp)).toISOString(),
      changes: wsPriceChangeFixture.price_changes.map((c: Record<string, string>) => ({
        token_id: c.asset_id,
        price: Number(c.price),
        side: c.side,
        size: Number(c.size),
        best_bid: Number(c.best_bid),
        best_ask: Number(c.best_ask),
      })),
    });
    expect(clob.parseMarketWsMessage("PONG")).toEqual([]);
  });

  it("parseMarketWsFrame reads every market-channel type by event_type, reports failures with their reason, and ignores unknown types", () => {
    const cond62 = `0x01${"ab".repeat(30)}`;
    const frame = clob.parseMarketWsFrame([
      // docs market-channel: `book` levels in no promised order (bids ascending in the docs' example).
      {
        event_type: "book",
        asset_id: "1",
        market: cond62,
        bids: [
          { price: ".48", size: "30" },
          { price: ".50", size: "15" },
        ],
        asks: [
          { price: ".54", size: "10" },
          { price: ".52", size: "25" },
        ],
        timestamp: "1000",
      },
      { event_type: "best_bid_ask", asset_id: "1", market: cond62, best_bid: "0.5", best_ask: "0.51", spread: "0.01", timestamp: "1000" },
      { event_type: "tick_size_change", asset_id: "1", market: cond62, old_tick_size: "0.01", new_tick_size: "0.001", timestamp: "1000" },
      { event_type: "new_market", id: "9", market: cond62, assets_ids: ["1", "2"], outcomes: ["Yes", "No"], timestamp: "1000" },
      {
        event_type: "market_resolved",
        id: "9",
        market: cond62,
        assets_ids: ["1", "2"],
        winning_asset_id: "1",
        winning_outcome: "Yes",
        timestamp: "1000",
      },
      {
        event_type: "last_trade_price",
        asset_id: "1",
        market: cond62,
        price: "0.5",
        side: "BUY",
        size: "3",
        timestamp: "1000",
        transaction_hash: "0xABC",
      },
      { event_type: "last_trade_price", asset_id: "1", market: cond62, prize: "0.5", timestamp: "1000" },
      { event_type: "something_new", asset_id: "1" },
    ]);
    const padded = `${cond62}00`;
    expect(frame.messages.map((m) => m.type)).toEqual([
      "book",
      "best_bid_ask",
      "tick_size_change",
      "new_market",
      "market_resolved",
      "last_trade_price",
    ]);
    expect(frame.messages[0]).toMatchObject({ token_id: "1", condition_id: padded, best_bid: 0.5, best_ask: 0.52 });
    expect(frame.messages[1]).toMatchObject({ best_bid: 0.5, best_ask: 0.51 });
    expect(frame.messages[3]).toMatchObject({ condition_id: padded, token_ids: ["1", "2"] });
    expect(frame.messages[4]).toMatchObject({ token_ids: ["1", "2"], winning_token_id: "1", winning_outcome: "Yes" });
    expect(frame.messages[5]).toMatchObject({ tx_hash: "0xabc", condition_id: padded });
    expect(frame.failures).toHaveLength(1);
    expect(frame.failures[0].type).toBe("last_trade_price");
    expect(frame.failures[0].reason).toMatch(/price/);
    expect(frame.ignored).toEqual(["something_new"]);
  });
});
