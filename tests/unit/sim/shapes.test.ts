// Every endpoint the simulator serves answers with the keys and JSON types of the recorded upstream responses.
import { describe, expect, it } from "vitest";
import { fixture, getJson, jsonType, shapeMismatches, type Row, simulatorForTests } from "./helpers";

const now = Date.now();
const sim = simulatorForTests({ seed: 1, clock: () => now });

const recordedEvent = fixture<Row[]>("gamma_events_by_slug__nautilus_gamma_event.json")[0];
const recordedEventMarkets = recordedEvent.markets as Row[];
const recordedMarket = fixture<Row>("gamma_market__nautilus_gamma_market.json");
const recordedTags = fixture<Row[]>("gamma_tags__nautilus_gamma_tags.json");
const recordedTrades = fixture<Row[]>("data_api_trades_v1__swift_test_real_capture.json");
const recordedHolders = fixture<Row>("data_api_holders_token_group__tnn225_poly-market-maker.json");
const recordedV2 = fixture<Row>("data_api_v2_trades__nautilus_captured_sanitized.json");

// Keys real responses carry only sometimes: election metadata, rewards programmes, price changes (omitted when zero).
const EVENT_OPTIONAL = ["countryName", "electionType"];
const MARKET_OPTIONAL = ["clobRewards", "oneDayPriceChange", "oneWeekPriceChange", "oneMonthPriceChange"];
const MARKET_TYPES = { feeType: ["null", "string"] };
// Fields specific to the recorded 5-minute crypto series market that the simulator does not model.
const SERIES_ONLY = [
  "makerBaseFee",
  "takerBaseFee",
  "eventStartTime",
  "makerRebatesFeeShareBps",
  "series",
  "seriesSlug",
  "negRiskMarketID",
];

function multiEventSlug(): string {
  return sim().summary().samples.multi_market_event_slugs[0];
}

describe("Gamma shapes", () => {
  it("GET /events?slug= answers an array holding one event shaped like the recorded one", async () => {
    const { status, body } = await getJson<Row[]>(`${sim().gammaUrl}/events?slug=${multiEventSlug()}`);
    expect(status).toBe(200);
    expect(body).toHaveLength(1);
    const event = body[0];
    expect(shapeMismatches({ ...recordedEvent, markets: [], tags: [] }, event, { optional: EVENT_OPTIONAL })).toEqual([]);
    const markets = event.markets as Row[];
    expect(markets.length).toBeGreaterThanOrEqual(5);
    for (const market of markets) {
      for (const recorded of recordedEventMarkets) {
        expect(shapeMismatches(recorded, market, { optional: MARKET_OPTIONAL, types: MARKET_TYPES })).toEqual([]);
      }
      // Gamma's JSON-encoded string arrays.
      expect(JSON.parse(market.outcomes as string)).toHaveLength(2);
      expect(JSON.parse(market.outcomePrices as string).every((p: unknown) => typeof p === "string")).toBe(true);
      const tokens = JSON.parse(market.clobTokenIds as string) as string[];
      for (const token of tokens) expect(token).toMatch(/^[1-9]\d{76}$/);
      expect(market.conditionId).toMatch(/^0x[0-9a-f]{64}$/);
      expect(market.id).toMatch(/^\d+$/);
      // Market-level volume/liquidity are strings, event-level ones numbers.
      expect(typeof market.volume).toBe("string");
      expect(typeof market.liquidity).toBe("string");
      expect("events" in market).toBe(false);
    }
    for (const tag of event.tags as Row[]) {
      expect(shapeMismatches({ id: "1", label: "x", slug: "x", createdAt: "x", updatedAt: "x", requiresTranslation: false }, tag)).toEqual(
        [],
      );
    }
    expect(typeof event.volume).toBe("number");
  });

  it("GET /events/slug/{slug} answers the single event object, unknown slug 404", async () => {
    const found = await getJson<Row>(`${sim().gammaUrl}/events/slug/${multiEventSlug()}`);
    expect(found.status).toBe(200);
    expect(Array.isArray(found.body)).toBe(false);
    expect(found.body.slug).toBe(multiEventSlug());
    const missing = await fetch(`${sim().gammaUrl}/events/slug/no-such-event-anywhere`);
    expect(missing.status).toBe(404);
    const emptyList = await getJson<Row[]>(`${sim().gammaUrl}/events?slug=no-such-event-anywhere`);
    expect(emptyList.body).toEqual([]);
  });

  it("GET /markets/{id} carries `events` and the recorded market keys", async () => {
    const id = sim().summary().samples.market_ids[0];
    const { status, body } = await getJson<Row>(`${sim().gammaUrl}/markets/${id}`);
    expect(status).toBe(200);
    expect(
      shapeMismatches(recordedMarket, body, { optional: [...MARKET_OPTIONAL, ...SERIES_ONLY, "groupItemTitle"], types: MARKET_TYPES }),
    ).toEqual([]);
    const recordedInner = (recordedMarket.events as Row[])[0];
    expect(shapeMismatches(recordedInner, (body.events as Row[])[0], { optional: SERIES_ONLY })).toEqual([]);
    expect((await fetch(`${sim().gammaUrl}/markets/1`)).status).toBe(404);
    expect((await fetch(`${sim().gammaUrl}/markets/not-a-number`)).status).toBe(422);
  });

  it("GET /markets filters by id and condition_ids", async () => {
    const { market_ids, condition_ids } = sim().summary().samples;
    const byId = await getJson<Row[]>(`${sim().gammaUrl}/markets?id=${market_ids[0]}&id=${market_ids[1]}`);
    expect(byId.body.map((m) => m.id).sort()).toEqual([market_ids[0], market_ids[1]].sort());
    const byCondition = await getJson<Row[]>(`${sim().gammaUrl}/markets?condition_ids=${condition_ids[2]}`);
    expect(byCondition.body).toHaveLength(1);
    expect(byCondition.body[0].conditionId).toBe(condition_ids[2]);
  });
});

describe("Gamma tags", () => {
  it("an event's tags carry the recorded tag rows' keys and types (the /tags route itself is not served)", async () => {
    const slug = sim().summary().samples.multi_market_event_slugs[0];
    const { body } = await getJson<Row>(`${sim().gammaUrl}/events/slug/${slug}`);
    const tags = body.tags as Row[];
    expect(tags.length).toBeGreaterThan(0);
    for (const tag of tags) {
      for (const recorded of recordedTags) expect(shapeMismatches(recorded, tag, { optional: ["forceShow"] })).toEqual([]);
      expect(tag.id).toMatch(/^\d+$/);
    }
  });
});

describe("Data API shapes", () => {
  it("v1 /trades rows have exactly the recorded keys and types", async () => {
    const market = sim().summary().samples.busiest_markets[0];
    const { status, body } = await getJson<Row[]>(`${sim().dataUrl}/trades?market=${market.condition_id}&limit=20`);
    expect(status).toBe(200);
    expect(body.length).toBeGreaterThan(0);
    for (const row of body) {
      expect(Object.keys(row).sort()).toEqual(Object.keys(recordedTrades[1]).sort());
      expect(shapeMismatches(recordedTrades[1], row)).toEqual([]);
      expect(Number.isInteger(row.timestamp)).toBe(true);
      expect(row.timestamp as number).toBeLessThan(1e11); // seconds, not milliseconds
    }
  });

  it("v1 /holders answers one {token, holders} group per outcome token", async () => {
    const market = sim().summary().samples.busiest_markets[0];
    const { body } = await getJson<Row[]>(`${sim().dataUrl}/holders?market=${market.condition_id}`);
    expect(body.length).toBeGreaterThanOrEqual(1);
    for (const group of body) {
      expect(Object.keys(group).sort()).toEqual(["holders", "token"]);
      expect(market.token_ids).toContain(group.token);
      const holders = group.holders as Row[];
      expect(holders.length).toBeLessThanOrEqual(20);
      for (const h of holders) {
        expect(Object.keys(h).sort()).toEqual(Object.keys((recordedHolders.holders as Row[])[0]).sort());
        expect(shapeMismatches((recordedHolders.holders as Row[])[0], h)).toEqual([]);
        expect(h.asset).toBe(group.token);
      }
      const amounts = holders.map((h) => h.amount as number);
      expect([...amounts].sort((a, b) => b - a)).toEqual(amounts);
    }
  });

  it("v1 /holders without market is a 400 naming the parameter", async () => {
    const { status, body } = await getJson<Row>(`${sim().dataUrl}/holders`);
    expect(status).toBe(400);
    expect(String(body.error)).toContain("market");
  });

  it("v2 /v2/trades answers {data, pagination} with snake_case rows and x-trace-id", async () => {
    const { status, body, headers } = await getJson<Row>(`${sim().dataUrl}/v2/trades?limit=5`);
    expect(status).toBe(200);
    expect(headers.get("x-trace-id")).toBeTruthy();
    expect(Object.keys(body).sort()).toEqual(["data", "pagination"]);
    const recordedRow = (recordedV2.data as Row[])[0];
    for (const row of body.data as Row[]) {
      expect(Object.keys(row).sort()).toEqual(Object.keys(recordedRow).sort());
      expect(shapeMismatches(recordedRow, row)).toEqual([]);
    }
    const pagination = body.pagination as Row;
    expect(Object.keys(pagination).sort()).toEqual(Object.keys(recordedV2.pagination as Row).sort());
    expect(shapeMismatches(recordedV2.pagination as Row, pagination, { types: { next_cursor: ["null", "string"] } })).toEqual([]);
    const offset = await getJson<Row>(`${sim().dataUrl}/v2/trades?offset=10`);
    expect(offset.status).toBe(400);
    expect(offset.body).toMatchObject({ code: "invalid_request", parameter: "offset", retryable: false });
  });

  it("v1 /positions rows carry the documented fields", async () => {
    const whale = sim().summary().samples.whale_positions[0];
    const { body } = await getJson<Row[]>(`${sim().dataUrl}/positions?user=${whale.wallet}`);
    expect(body.length).toBeGreaterThan(0);
    const expected = [
      "proxyWallet",
      "asset",
      "conditionId",
      "size",
      "avgPrice",
      "initialValue",
      "currentValue",
      "cashPnl",
      "percentPnl",
      "totalBought",
      "realizedPnl",
      "percentRealizedPnl",
      "curPrice",
      "redeemable",
      "mergeable",
      "title",
      "slug",
      "icon",
      "eventSlug",
      "eventId",
      "outcome",
      "outcomeIndex",
      "oppositeOutcome",
      "oppositeAsset",
      "endDate",
      "negativeRisk",
    ];
    for (const row of body) {
      expect(Object.keys(row).sort()).toEqual([...expected].sort());
      for (const key of ["size", "avgPrice", "curPrice", "cashPnl", "currentValue", "initialValue"])
        expect(jsonType(row[key])).toBe("number");
    }
  });
});

describe("CLOB shapes", () => {
  it("serves only the routes lib/upstream reads: the book and price routes, Gamma tags and search answer 404", async () => {
    const token = sim().summary().samples.busiest_markets[0].token_ids[0];
    for (const url of [
      `${sim().clobUrl}/book?token_id=${token}`,
      `${sim().clobUrl}/midpoint?token_id=${token}`,
      `${sim().clobUrl}/price?token_id=${token}&side=BUY`,
      `${sim().gammaUrl}/tags`,
      `${sim().gammaUrl}/public-search?q=election`,
    ])
      expect((await fetch(url)).status, url).toBe(404);
    expect((await fetch(`${sim().clobUrl}/books`, { method: "POST", body: "[]" })).status).toBe(404);
  });

  it("GET /prices-history answers {history: [{t, p}]} with seconds", async () => {
    const token = sim().summary().samples.busiest_markets[0].token_ids[0];
    const { body } = await getJson<{ history: Row[] }>(`${sim().clobUrl}/prices-history?market=${token}&interval=1d&fidelity=60`);
    expect(Object.keys(body)).toEqual(["history"]);
    expect(body.history.length).toBeGreaterThanOrEqual(23);
    for (const point of body.history) {
      expect(Object.keys(point).sort()).toEqual(["p", "t"]);
      expect(Number.isInteger(point.t)).toBe(true);
      expect(point.t as number).toBeLessThanOrEqual(Math.floor(now / 1000));
    }
    const unknown = await getJson<Row>(`${sim().clobUrl}/prices-history?market=42&interval=1d`);
    expect(unknown.body).toEqual({ history: [] });
  });
});
