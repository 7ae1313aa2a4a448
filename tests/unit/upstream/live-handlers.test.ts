// The four -live route handlers, called directly (as behind the gateway) against the stub upstream world.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { GET as eventActivityGET } from "@/app/api/predmkt/events/[slug]/activity-live/route";
import { GET as eventHistoryGET } from "@/app/api/predmkt/events/[slug]/history-live/route";
import { GET as marketActivityGET } from "@/app/api/predmkt/markets/[id]/activity-live/route";
import { GET as holdersGET } from "@/app/api/predmkt/markets/[id]/holders-live/route";
import { clearLocalCache } from "@/lib/upstream";
import { TRADE_LIST_LAG_MS } from "@/lib/upstream/data";
import { callJson } from "@/tests/helpers/handler";
import { pointUpstreamAt, type Stub, startStub } from "./stub-server";
import { event, holdersFor, installWorld, markets, tokensOf, trades } from "./stub-world";

let stub: Stub;
let restore: () => void;

const holders = (id: string, query = "") => callJson(holdersGET, `/api/predmkt/markets/${id}/holders-live${query}`, { id });
const marketActivity = (id: string, query = "") => callJson(marketActivityGET, `/api/predmkt/markets/${id}/activity-live${query}`, { id });
const eventActivity = (slug: string, query = "") =>
  callJson(eventActivityGET, `/api/predmkt/events/${slug}/activity-live${query}`, { slug });
const eventHistory = (slug: string, query = "") => callJson(eventHistoryGET, `/api/predmkt/events/${slug}/history-live${query}`, { slug });

const [smith, whitmer] = markets;

beforeAll(async () => {
  stub = await startStub();
  restore = pointUpstreamAt(stub.url, { UPSTREAM_TIMEOUT_MS: 800, UPSTREAM_MAX_RETRIES: 2 });
});
afterAll(async () => {
  restore();
  await stub.close();
});
beforeEach(() => {
  clearLocalCache();
  installWorld(stub);
});
afterEach(() => vi.useRealTimers());

describe("GET /api/predmkt/markets/{id}/holders-live", () => {
  it("answers one group per outcome with outcome names, token ids and the largest holders first", async () => {
    const { status, headers, body } = await holders(smith.id, "?limit=3");
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toBe("private, max-age=60");
    expect(body.meta).toMatchObject({ source: "live", cache: "miss", age_s: 0, limit: 3, count: 2 });
    expect(new Date(body.meta.as_of).toISOString()).toBe(body.meta.as_of);
    const expected = holdersFor(smith);
    expect(
      body.data.map((g: { outcome: string; outcome_index: number; token_id: string }) => [g.outcome, g.outcome_index, g.token_id]),
    ).toEqual([
      ["Yes", 0, tokensOf(smith)[0]],
      ["No", 1, tokensOf(smith)[1]],
    ]);
    expect(body.data[1].holders).toHaveLength(3);
    expect(body.data[1].holders[0]).toEqual({
      wallet: expected[1].holders[0].proxyWallet,
      wallet_url: `/api/predmkt/wallets/${expected[1].holders[0].proxyWallet.toLowerCase()}`,
      pseudonym: expected[1].holders[0].pseudonym,
      name: expected[1].holders[0].name,
      outcome: "No",
      outcome_index: 1,
      shares: expected[1].holders[0].amount,
      avg_price: null, // v1 holders (this stub has no /v2/holders) carry no entry price
      verified: false,
    });
    const shares = body.data[0].holders.map((h: { shares: number }) => h.shares);
    expect(shares).toEqual([...shares].sort((a, b) => b - a));
  });

  it("accepts a condition id for {id} and answers the second identical request from the cache", async () => {
    // Counted from here: earlier tests (in any order) may have asked the stub for this market too.
    const upstreamAsks = () =>
      stub.requests.filter((r) => r.path === "/data/holders" && r.query.get("market") === whitmer.conditionId).length;
    const before = upstreamAsks();
    const first = await holders(whitmer.conditionId);
    expect(first.status).toBe(200);
    expect(first.body.data[0].token_id).toBe(tokensOf(whitmer)[0]);
    const second = await holders(whitmer.conditionId);
    expect(second.body.meta.cache).toBe("hit");
    expect(second.body.meta.as_of).toBe(first.body.meta.as_of);
    expect(upstreamAsks() - before).toBe(1);
  });

  it("50 concurrent identical requests make exactly one upstream request; two different limits make two", async () => {
    stub.route("/data/holders", (req) => ({
      json: holdersFor(markets.find((m) => m.conditionId === req.query.get("market"))!),
      delayMs: 100,
    }));
    const before = stub.count("/data/holders");
    const answers = await Promise.all(Array.from({ length: 50 }, () => holders(smith.id, "?limit=7")));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(stub.count("/data/holders") - before).toBe(1);
    await Promise.all([holders(smith.id, "?limit=8"), holders(smith.id, "?limit=9")]);
    expect(stub.count("/data/holders") - before).toBe(3);
  });

  it("unknown ids are 404; malformed ids and out-of-range limits are 400 naming the parameter", async () => {
    expect((await holders("987654321")).status).toBe(404);
    const unknownCondition = await holders(`0x${"ab".repeat(32)}`);
    expect(unknownCondition.status).toBe(404);
    expect(unknownCondition.body.code).toBe("not_found");
    for (const [id, query, parameter] of [
      ["not-an-id", "", "id"],
      ["0x1234", "", "id"],
      [smith.id, "?limit=0", "limit"],
      [smith.id, "?limit=101", "limit"],
      [smith.id, "?limit=ten", "limit"],
      [smith.id, "?limit=2.5", "limit"],
    ]) {
      const { status, body, headers } = await holders(id, query);
      expect(status, `${id}${query}`).toBe(400);
      expect(headers.get("content-type")).toBe("application/problem+json");
      expect(body.errors[0].parameter).toBe(parameter);
    }
  });
});

describe("GET /api/predmkt/markets/{id}/activity-live", () => {
  it("answers the market, holders per outcome and latest trades, fetching holders and trades concurrently", async () => {
    const windows: Record<string, [number, number]> = {};
    const timed = (name: string, json: unknown) => async () => {
      const start = Date.now();
      await new Promise((r) => setTimeout(r, 150));
      windows[name] = [start, Date.now()];
      return { json };
    };
    stub.route("/data/holders", timed("holders", holdersFor(smith)));
    stub.route(
      "/data/trades",
      timed(
        "trades",
        trades.filter((t) => t.conditionId === smith.conditionId),
      ),
    );
    const { status, headers, body } = await marketActivity(smith.id, "?holders_limit=2&trades_limit=4");
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toBe("private, max-age=15");
    // Both upstream requests were open at the same time.
    expect(windows.trades[0]).toBeLessThan(windows.holders[1]);
    expect(windows.holders[0]).toBeLessThan(windows.trades[1]);
    expect(body.data.market).toEqual({ id: smith.id, condition_id: smith.conditionId, question: smith.question });
    expect(body.data.holders.map((g: { holders: unknown[] }) => g.holders.length)).toEqual([2, 2]);
    expect(body.data.trades).toHaveLength(4);
    for (const t of body.data.trades) {
      expect(t).toMatchObject({
        market_id: smith.id,
        condition_id: smith.conditionId,
        event_slug: event.slug,
        token_id: tokensOf(smith)[0],
      });
      expect(t.usd_size).toBeCloseTo(t.shares * t.price, 10);
    }
    const times = body.data.trades.map((t: { timestamp: string }) => t.timestamp);
    expect(times).toEqual([...times].sort().reverse());
    const sent = stub.requests.filter((r) => r.path === "/data/trades").at(-1)!.query;
    // Fetched at the largest trades_limit and cut here: other trades_limit values share this cached body.
    expect([sent.get("market"), sent.get("limit")]).toEqual([smith.conditionId, "500"]);
    const before = stub.count("/data/trades");
    const more = await marketActivity(smith.id, "?holders_limit=2&trades_limit=6");
    expect(stub.count("/data/trades")).toBe(before);
    expect(more.body.data.trades.slice(0, 4)).toEqual(body.data.trades);
  });

  it("rejects holders_limit and trades_limit out of range", async () => {
    for (const [query, parameter] of [
      ["?holders_limit=101", "holders_limit"],
      ["?trades_limit=501", "trades_limit"],
      ["?trades_limit=0", "trades_limit"],
    ]) {
      const { status, body } = await marketActivity(smith.id, query);
      expect(status).toBe(400);
      expect(body.errors[0].parameter).toBe(parameter);
    }
  });
});

describe("GET /api/predmkt/events/{slug}/activity-live", () => {
  it("answers trades across every market, newest first, with market ids filled in", async () => {
    const { status, headers, body } = await eventActivity(event.slug);
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toBe("private, max-age=10");
    expect(body.meta).toMatchObject({ source: "live", limit: 100, count: trades.length });
    expect(new Set(body.data.map((t: { market_id: string }) => t.market_id))).toEqual(new Set([smith.id, whitmer.id]));
    const times = body.data.map((t: { timestamp: string }) => t.timestamp);
    expect(times).toEqual([...times].sort().reverse());
    expect(
      stub.requests
        .filter((r) => r.path === "/data/trades")
        .at(-1)!
        .query.get("eventId"),
    ).toBe(event.id);
  });

  it("applies side (case-insensitive) upstream and min_usd to the cached page, both before limit", async () => {
    const { body } = await eventActivity(event.slug, "?side=buy&min_usd=20&limit=3");
    expect(body.data).toHaveLength(3);
    for (const t of body.data) {
      expect(t.side).toBe("BUY");
      expect(t.usd_size).toBeGreaterThanOrEqual(20);
    }
    // min_usd only narrows the list: the upstream page is the side's whole latest page, shared by every min_usd.
    const sent = stub.requests.filter((r) => r.path === "/data/trades").at(-1)!.query;
    expect([sent.get("side"), sent.get("filterType"), sent.get("filterAmount")]).toEqual(["BUY", null, null]);
    const before = stub.count("/data/trades");
    const all = await eventActivity(event.slug, "?side=buy&limit=500");
    expect(stub.count("/data/trades") - before).toBe(0);
    expect(all.body.data.some((t: { usd_size: number }) => t.usd_size < 20)).toBe(true);
  });

  it("requests differing only in limit share one upstream call and one cached body", async () => {
    const before = stub.count("/data/trades");
    const [small, large] = await Promise.all([
      eventActivity(event.slug, "?side=SELL&limit=1"),
      eventActivity(event.slug, "?side=SELL&limit=50"),
    ]);
    expect(stub.count("/data/trades") - before).toBe(1);
    expect(small.body.data).toHaveLength(1);
    expect(small.body.meta).toMatchObject({ limit: 1, count: 1 });
    expect(large.body.data[0]).toEqual(small.body.data[0]);
    expect(large.body.data.length).toBeGreaterThanOrEqual(small.body.data.length);
  });

  it("rejects bad side, min_usd and limit, and answers 404 for an unknown slug", async () => {
    for (const [query, parameter] of [
      ["?side=HOLD", "side"],
      ["?min_usd=-1", "min_usd"],
      ["?min_usd=lots", "min_usd"],
      ["?limit=501", "limit"],
    ]) {
      const { status, body } = await eventActivity(event.slug, query);
      expect(status, query).toBe(400);
      expect(body.errors[0].parameter).toBe(parameter);
    }
    expect((await eventActivity("Not_A_Slug")).body.errors[0].parameter).toBe("slug");
    const missing = await eventActivity("no-such-event");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("not_found");
  });
});

describe("GET /api/predmkt/events/{slug}/history-live", () => {
  it("answers one series per top market by volume, for the first outcome", async () => {
    const { status, headers, body } = await eventHistory(event.slug, "?interval=1w&markets=1");
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toBe("private, max-age=90");
    expect(body.data).toHaveLength(1);
    const [series] = body.data;
    // Smith's volume (12.2M) is above Whitmer's (6.3M).
    expect(series).toMatchObject({
      market_id: smith.id,
      condition_id: smith.conditionId,
      question: smith.question,
      outcome: "Yes",
      token_id: tokensOf(smith)[0],
    });
    expect(series.points).toHaveLength(3);
    expect(series.points[0]).toEqual({ t: 1_790_000_000, p: Number(tokensOf(smith)[0].slice(-2)) / 100 });
    const sent = stub.requests.filter((r) => r.path === "/clob/prices-history").at(-1)!.query;
    expect([sent.get("market"), sent.get("interval")]).toEqual([tokensOf(smith)[0], "1w"]);
    const both = await eventHistory(event.slug);
    expect(both.body.data.map((s: { market_id: string }) => s.market_id)).toEqual([smith.id, whitmer.id]);
  });

  it("rejects bad interval and markets", async () => {
    for (const [query, parameter] of [
      ["?interval=2h", "interval"],
      ["?markets=21", "markets"],
      ["?markets=0", "markets"],
    ]) {
      const { status, body } = await eventHistory(event.slug, query);
      expect(status, query).toBe(400);
      expect(body.errors[0].parameter).toBe(parameter);
    }
  });
});

describe("upstream failures", () => {
  it("upstream 500 with a cached body: stale 200; without one: 502", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const fresh = await eventActivity(event.slug, "?limit=5");
    expect(fresh.body.meta.cache).toBe("miss");
    stub.route("/data/trades", { status: 500, json: { error: "boom" } });
    vi.setSystemTime(Date.now() + 11_000); // past the 10 s TTL
    const stale = await eventActivity(event.slug, "?limit=5");
    expect(stale.status).toBe(200);
    // as_of is when the list was complete up to (its production time less the Data API's lag): age counts from there.
    const ageS = 11 + TRADE_LIST_LAG_MS / 1000;
    expect(stale.body.meta).toMatchObject({ cache: "stale", age_s: ageS, as_of: fresh.body.meta.as_of });
    expect(stale.body.data).toEqual(fresh.body.data);
    expect(stale.headers.get("cache-control")).toBe("private, max-age=0");
    // Another side is another upstream page (min_usd and limit only narrow the cached one).
    const uncached = await eventActivity(event.slug, "?limit=5&side=SELL");
    expect(uncached.status).toBe(502);
    expect(uncached.body.code).toBe("upstream_unavailable");
    expect(uncached.headers.get("content-type")).toBe("application/problem+json");
  });

  it("upstream hang: 504 within the timeout", async () => {
    stub.route("/clob/prices-history", { hang: true });
    const started = Date.now();
    const { status, body } = await eventHistory(event.slug, "?interval=1h");
    expect(status).toBe(504);
    expect(body.code).toBe("upstream_timeout");
    expect(Date.now() - started).toBeLessThan(800 + 400);
  });

  it("upstream 429: retried after Retry-After, then 200", async () => {
    const seenAt: number[] = [];
    stub.route("/data/holders", (req) => {
      seenAt.push(Date.now());
      return seenAt.length === 1
        ? { status: 429, headers: { "retry-after": "0.5" }, json: {} }
        : { json: holdersFor(markets.find((m) => m.conditionId === req.query.get("market"))!) };
    });
    const before = stub.count("/data/holders");
    const { status } = await holders(whitmer.id, "?limit=4");
    expect(status).toBe(200);
    expect(stub.count("/data/holders") - before).toBe(2);
    expect(seenAt.at(-1)! - seenAt.at(-2)!).toBeGreaterThanOrEqual(450);
  });
});
