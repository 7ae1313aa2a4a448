// The four -live endpoints end to end: the production server (gateway, real API key) in front of the offline
// Polymarket simulator, whose request counters show what actually reached the upstream.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { WorldSummary } from "@/sim/polymarket";
import { appOverSimulator } from "../../helpers/app-over-simulator";
import { pollUntil } from "../../helpers/poll";

// Long enough that 200 requests answered at once by a loaded server (CI runs several servers side by side) do not
// time out the one upstream call they share; the hang case waits this long.
const TIMEOUT_MS = 4000;

const t = appOverSimulator({
  seed: 3,
  env: { UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS), UPSTREAM_MAX_RETRIES: "2" },
});
let world: WorldSummary;
// A body cached at the start, for the stale case at the end: its 10 s TTL runs out while the other cases run, so that
// case awaits the TTL's end (by polling) for a moment at most instead of sleeping through it.
let warmed: { path: string; body: { data: unknown; meta: Record<string, unknown> } };
beforeAll(async () => {
  world = t.sim.summary();
  const path = `/api/predmkt/events/${world.samples.binary_event_slugs[1]}/activity-live?limit=7`;
  const fresh = await get(path);
  expect(fresh.status).toBe(200);
  expect(fresh.body.meta.cache).toBe("miss");
  warmed = { path, body: fresh.body };
});
beforeEach(() => t.sim.clearFaults());

async function get(path: string) {
  const res = await t.get(path);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text) };
}

const upstreamCalls = (path: string) => t.sim.counters()[path] ?? 0;
const totalUpstreamCalls = () =>
  Object.entries(t.sim.counters()).reduce((sum, [k, v]) => (/^\/(gamma|data|clob)\//.test(k) ? sum + v : sum), 0);

function expectLiveMeta(meta: Record<string, unknown>) {
  expect(meta.source).toBe("live");
  expect(["hit", "miss", "stale"]).toContain(meta.cache);
  expect(Number.isInteger(meta.age_s)).toBe(true);
  expect(new Date(meta.as_of as string).toISOString()).toBe(meta.as_of);
}

describe("the four -live endpoints answer from the simulator with a real key", () => {
  it("holders-live: one group per outcome of the market, for a Gamma id and for a condition id", async () => {
    const market = world.samples.busiest_markets[0];
    const byId = await get(`/api/predmkt/markets/${market.id}/holders-live?limit=5`);
    expect(byId.status).toBe(200);
    expect(byId.headers.get("x-api-tier")).toBe("enterprise");
    expect(byId.headers.get("cache-control")).toMatch(/^private, max-age=([1-5]?\d|60)$/);
    expectLiveMeta(byId.body.meta);
    expect(byId.body.data.map((g: { token_id: string }) => g.token_id)).toEqual(market.token_ids);
    for (const group of byId.body.data) {
      expect(group.holders.length).toBeGreaterThan(0);
      expect(group.holders.length).toBeLessThanOrEqual(5);
      const shares = group.holders.map((h: { shares: number }) => h.shares);
      expect(shares).toEqual([...shares].sort((a, b) => b - a));
      for (const h of group.holders)
        expect(h).toMatchObject({
          outcome: group.outcome,
          outcome_index: group.outcome_index,
          wallet: expect.stringMatching(/^0x[0-9a-f]{40}$/),
        });
    }
    const byCondition = await get(`/api/predmkt/markets/${market.condition_id}/holders-live?limit=5`);
    expect(byCondition.status).toBe(200);
    expect(byCondition.body.data).toEqual(byId.body.data);
  });

  it("market activity-live: market, holders and trades of that market in one body", async () => {
    const market = world.samples.busiest_markets[1];
    const { status, headers, body } = await get(`/api/predmkt/markets/${market.id}/activity-live?holders_limit=3&trades_limit=20`);
    expect(status).toBe(200);
    expect(headers.get("cache-control")).toMatch(/^private, max-age=\d+$/);
    expectLiveMeta(body.meta);
    expect(body.data.market).toMatchObject({ id: market.id, condition_id: market.condition_id });
    expect(body.data.holders).toHaveLength(market.token_ids.length);
    expect(body.data.trades.length).toBeGreaterThan(0);
    expect(body.data.trades.length).toBeLessThanOrEqual(20);
    for (const t of body.data.trades) {
      expect(t).toMatchObject({ market_id: market.id, condition_id: market.condition_id, event_slug: market.event_slug });
      expect(market.token_ids).toContain(t.token_id);
    }
  });

  it("event activity-live: trades across the event's markets with side and min_usd applied", async () => {
    const slug = world.samples.multi_market_event_slugs[0];
    const all = await get(`/api/predmkt/events/${slug}/activity-live?limit=200`);
    expect(all.status).toBe(200);
    expectLiveMeta(all.body.meta);
    expect(all.body.data.length).toBeGreaterThan(0);
    const eventMarkets = new Set<string>(all.body.data.map((t: { market_id: string }) => t.market_id));
    expect(eventMarkets.size).toBeGreaterThan(1);
    for (const t of all.body.data) expect(t.event_slug).toBe(slug);
    // The unfiltered tape holds sells of $10 and more, so the filtered answer cannot honestly be empty.
    expect(all.body.data.some((t: { side: string; usd_size: number }) => t.side === "SELL" && t.usd_size >= 10)).toBe(true);
    const filtered = await get(`/api/predmkt/events/${slug}/activity-live?side=sell&min_usd=10&limit=5`);
    expect(filtered.status).toBe(200);
    expect(filtered.body.data.length).toBeGreaterThan(0);
    expect(filtered.body.data.length).toBeLessThanOrEqual(5);
    for (const t of filtered.body.data) {
      expect(t.side).toBe("SELL");
      expect(t.usd_size).toBeGreaterThanOrEqual(10);
    }
    const times = all.body.data.map((t: { timestamp: string }) => t.timestamp);
    expect(times).toEqual([...times].sort().reverse());
  });

  it("event history-live: one series per top market by volume, points oldest first", async () => {
    const slug = world.samples.multi_market_event_slugs[0];
    const { status, body } = await get(`/api/predmkt/events/${slug}/history-live?interval=1w&markets=3`);
    expect(status).toBe(200);
    expectLiveMeta(body.meta);
    // Exactly min(3, the event's markets): read the event straight from the simulator's Gamma.
    const gammaEvent = (await (await fetch(`${t.sim.gammaUrl}/events/slug/${slug}`)).json()) as { markets: unknown[] };
    expect(gammaEvent.markets.length).toBeGreaterThan(1);
    expect(body.data).toHaveLength(Math.min(3, gammaEvent.markets.length));
    const volumes = body.data.map((s: { volume_usd: number }) => s.volume_usd);
    expect(volumes).toEqual([...volumes].sort((a, b) => b - a));
    for (const series of body.data) {
      expect(series.token_id).toMatch(/^\d{70,80}$/);
      expect(series.points.length).toBeGreaterThan(10);
      const ts = series.points.map((p: { t: number }) => p.t);
      expect(ts).toEqual([...ts].sort((a, b) => a - b));
      for (const p of series.points) expect(p.p).toBeGreaterThanOrEqual(0);
    }
  });
});

describe("parameters and unknown resources", () => {
  it("bounds and enum errors are 400 naming the parameter", async () => {
    const market = world.samples.market_ids[0];
    const slug = world.samples.binary_event_slugs[0];
    for (const [path, parameter] of [
      [`/api/predmkt/markets/${market}/holders-live?limit=101`, "limit"],
      [`/api/predmkt/markets/${market}/activity-live?trades_limit=501`, "trades_limit"],
      [`/api/predmkt/markets/${market}/activity-live?holders_limit=0`, "holders_limit"],
      [`/api/predmkt/events/${slug}/activity-live?side=both`, "side"],
      [`/api/predmkt/events/${slug}/activity-live?min_usd=-5`, "min_usd"],
      [`/api/predmkt/events/${slug}/history-live?interval=5m`, "interval"],
      [`/api/predmkt/events/${slug}/history-live?markets=25`, "markets"],
      ["/api/predmkt/markets/0xabc/holders-live", "id"],
      ["/api/predmkt/events/UPPER_case/history-live", "slug"],
    ]) {
      const { status, headers, body } = await get(path);
      expect(status, path).toBe(400);
      expect(headers.get("content-type")).toBe("application/problem+json");
      expect(body.code).toBe("invalid_parameter");
      expect(body.errors[0].parameter, path).toBe(parameter);
    }
  });

  it("unknown slug or id → 404", async () => {
    for (const path of [
      "/api/predmkt/markets/999999999/holders-live",
      `/api/predmkt/markets/0x${"0".repeat(64)}/activity-live`,
      "/api/predmkt/events/no-such-event-here/activity-live",
      "/api/predmkt/events/no-such-event-here/history-live",
    ]) {
      const { status, body } = await get(path);
      expect(status, path).toBe(404);
      expect(body.code).toBe("not_found");
    }
  });
});

describe("upstream discipline, counted at the simulator", () => {
  it("50 concurrent identical requests → exactly one upstream request; two different params → two", async () => {
    const market = world.samples.busiest_markets[2];
    t.sim.setFault({ target: "data", path: "/v2/holders", mode: "latency", latency_ms: 300 });
    const before = upstreamCalls("/data/v2/holders");
    const answers = await Promise.all(Array.from({ length: 50 }, () => get(`/api/predmkt/markets/${market.id}/holders-live?limit=11`)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(new Set(answers.map((a) => a.body.meta.as_of)).size).toBe(1);
    expect(upstreamCalls("/data/v2/holders") - before).toBe(1);
    await Promise.all([
      get(`/api/predmkt/markets/${market.id}/holders-live?limit=12`),
      get(`/api/predmkt/markets/${market.id}/holders-live?limit=13`),
    ]);
    expect(upstreamCalls("/data/v2/holders") - before).toBe(3);
  });

  it("200 concurrent clients on one resource: upstream-call ratio", async () => {
    const slug = world.samples.multi_market_event_slugs[1];
    t.sim.setFault({ target: "data", path: "/trades", mode: "latency", latency_ms: 200 });
    const before = totalUpstreamCalls();
    const answers = await Promise.all(Array.from({ length: 200 }, () => get(`/api/predmkt/events/${slug}/activity-live?limit=25`)));
    const upstream = totalUpstreamCalls() - before;
    const statuses = answers.reduce<Record<number, number>>((n, a) => ({ ...n, [a.status]: (n[a.status] ?? 0) + 1 }), {});
    expect(statuses).toEqual({ 200: 200 });
    console.log(`[live] 200 concurrent clients → ${upstream} upstream requests (ratio 200:${upstream})`);
    // One Gamma lookup of the event plus one Data API trades request.
    expect(upstream).toBe(2);
  });

  it("upstream hang → 504 within the timeout", async () => {
    const slug = world.samples.multi_market_event_slugs[2];
    t.sim.setFault({ target: "clob", path: "/prices-history", mode: "hang" });
    const started = Date.now();
    const { status, body } = await get(`/api/predmkt/events/${slug}/history-live?interval=1h`);
    const elapsed = Date.now() - started;
    expect(status).toBe(504);
    expect(body.code).toBe("upstream_timeout");
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 1000);
  });

  it("upstream 429 → retried after Retry-After, then 200", async () => {
    const market = world.samples.busiest_markets[3];
    t.sim.setFault({ target: "data", path: "/v2/holders", mode: "rate_limit", retry_after_s: 1, count: 1 });
    const before = upstreamCalls("/data/v2/holders");
    const started = Date.now();
    const { status, body } = await get(`/api/predmkt/markets/${market.id}/holders-live?limit=4`);
    expect(status).toBe(200);
    expect(body.meta.cache).toBe("miss");
    expect(upstreamCalls("/data/v2/holders") - before).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it("upstream 500 with a cached body → stale 200; without one → 502", async () => {
    const { path, body: fresh } = warmed;
    t.sim.setFault({ target: "data", path: "/trades", mode: "error", status: 500 });
    // Served from the cache while fresh (no upstream call); the first answer past the TTL is the one under test.
    const stale = await pollUntil(
      () => get(path),
      (answer) => answer.body.meta?.cache !== "hit",
      15_000,
      100,
      "an answer past the 10 s TTL",
    );
    expect(stale.status).toBe(200);
    expect(stale.body.meta.cache).toBe("stale");
    expect(stale.body.meta.as_of).toBe(fresh.meta.as_of);
    expect(stale.body.meta.age_s).toBeGreaterThanOrEqual(10);
    expect(stale.body.data).toEqual(fresh.data);
    expect(stale.headers.get("cache-control")).toBe("private, max-age=0");
    // Another side is another upstream page (min_usd would not do: it only narrows the cached page).
    const uncached = await get(`${path}&side=sell`);
    expect(uncached.status).toBe(502);
    expect(uncached.headers.get("content-type")).toBe("application/problem+json");
    expect(uncached.body.code).toBe("upstream_unavailable");
  });
});
