// The typed clients against the offline simulator: paging, cross-references between Gamma, the Data API and the
// CLOB, and the simulator's faults (malformed, truncated) mapped to our errors.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/api/errors";
import { clearLocalCache, clob, data, gamma } from "@/lib/upstream";
import { type Simulator, startSimulator, type WorldSummary } from "@/sim/polymarket";
import { pointUpstreamAt } from "./stub-server";

let sim: Simulator;
let world: WorldSummary;
let restore: () => void;

beforeAll(async () => {
  sim = await startSimulator({ seed: 7 });
  world = sim.summary();
  restore = pointUpstreamAt(sim.url, { UPSTREAM_TIMEOUT_MS: 3000, UPSTREAM_MAX_RETRIES: 1 });
});
afterAll(async () => {
  restore();
  await sim.close();
});
beforeEach(() => {
  sim.clearFaults();
  clearLocalCache();
});

describe("clients against the simulator", () => {
  it("iterateEvents pages /events/keyset through every open event exactly once", async () => {
    const ids: string[] = [];
    let pages = 0;
    for await (const page of gamma.iterateEvents({ limit: 100 })) {
      pages++;
      ids.push(...page.map((e) => e.id));
      for (const e of page) expect(e.open).toBe(true);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(world.counts.open_events);
    expect(pages).toBe(Math.ceil(world.counts.open_events / 100));
  });

  it("an event's markets, holders, trades and prices agree with each other", async () => {
    const slug = world.samples.multi_market_event_slugs[0];
    const event = (await gamma.getEventBySlug(slug))!;
    expect(event.slug).toBe(slug);
    expect(event.markets.length).toBeGreaterThan(1);
    const market = event.markets[0];
    expect(market.event_slug).toBe(slug);
    for (const o of market.outcomes) expect(o.token_id).toMatch(/^\d{70,80}$/);

    const byId = (await gamma.getMarket(market.id))!;
    const byCondition = (await gamma.getMarket(market.condition_id!))!;
    expect(byId.id).toBe(market.id);
    expect(byCondition.id).toBe(market.id);
    expect(byId.outcomes.map((o) => o.token_id)).toEqual(market.outcomes.map((o) => o.token_id));

    const groups = await data.getHolders(market.condition_id!, 5);
    const tokens = new Set(market.outcomes.map((o) => o.token_id));
    for (const g of groups) {
      expect(tokens.has(g.token_id)).toBe(true);
      expect(g.holders.length).toBeLessThanOrEqual(5);
    }

    const { trades } = await data.listTrades({ eventId: event.id, limit: 50 });
    const conditions = new Set(event.markets.map((m) => m.condition_id));
    for (const t of trades) {
      expect(conditions.has(t.condition_id)).toBe(true);
      expect(t.event_slug).toBe(slug);
      expect(t.usd_size).toBeCloseTo(t.shares * t.price, 9);
    }
    const stamps = trades.map((t) => t.timestamp_s);
    expect(stamps).toEqual([...stamps].sort((a, b) => b - a));

    const token = market.outcomes[0].token_id!;
    const history = await clob.getPricesHistory(token, { interval: "1d" });
    expect(history.length).toBeGreaterThan(10);
    for (const p of history) expect(p.p).toBeGreaterThanOrEqual(0);
  });

  it("v2 trade cursor pages without repeats; side and cash filters hold", async () => {
    const market = world.samples.busiest_markets[0];
    const first = await data.listTrades({ market: market.condition_id, version: "v2", limit: 20 });
    expect(first.next_cursor).not.toBeNull();
    const second = await data.listTrades({ market: market.condition_id, cursor: first.next_cursor, limit: 20 });
    const ids = [...first.trades, ...second.trades].map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    const sells = await data.listTrades({ market: market.condition_id, side: "SELL", minUsd: 5, limit: 30 });
    for (const t of sells.trades) {
      expect(t.side).toBe("SELL");
      expect(t.usd_size).toBeGreaterThanOrEqual(5);
    }
  });

  it("positions of a whale reference real markets", async () => {
    const whale = world.samples.whale_positions[0];
    const positions = await data.getPositions(whale.wallet);
    expect(positions.length).toBeGreaterThan(0);
    expect(positions.some((p) => p.condition_id === whale.condition_id && p.token_id === whale.token_id)).toBe(true);
  });

  it("unknown slug and ids answer null", async () => {
    expect(await gamma.getEventBySlug("no-such-event-anywhere")).toBeNull();
    expect(await gamma.getMarket("999999999")).toBeNull();
    expect(await gamma.getMarket(`0x${"0".repeat(64)}`)).toBeNull();
  });

  it("malformed and truncated bodies become upstream_unavailable", async () => {
    for (const mode of ["malformed", "truncated"] as const) {
      sim.setFault({ target: "gamma", path: "/events/slug", mode });
      clearLocalCache();
      const error = await gamma.getEventBySlug(world.samples.binary_event_slugs[0]).catch((e: unknown) => e);
      expect(error, mode).toBeInstanceOf(ApiError);
      expect((error as ApiError).code, mode).toBe("upstream_unavailable");
    }
  });
});
