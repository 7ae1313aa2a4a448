// The sampled endpoints end to end: production server + simulator, through the gateway with a real key, filled by
// sampler passes triggered through the cron route — on embedded PGlite and on real PostgreSQL.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratePostgres } from "@/lib/db/migrate-postgres";
import { pollUntil } from "../../helpers/poll";
import { POSTGRES_URL, postgresAvailable } from "../../helpers/services";
import { type Stack, startStack } from "../../helpers/stack";

const LIST_ENDPOINTS = ["categories", "events", "movers", "abnormal", "whales", "trades", "live"];
const postgresUp = await postgresAvailable();

function client(stack: Stack) {
  return async (path: string) => {
    const res = await fetch(`${stack.app.url}${path}`, { headers: { authorization: `Bearer ${stack.key}` } });
    return { status: res.status, type: res.headers.get("content-type"), body: await res.json() };
  };
}

async function pass(stack: Stack) {
  const res = await stack.samplePass();
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(body.data.status).toBe("ok");
  return body.data;
}

describe("sampled endpoints on embedded PGlite", () => {
  let stack: Stack;
  let get: ReturnType<typeof client>;

  // The first sampler pass is landed "a minute ago": this server's sampler clock and the simulator's run 61 s behind
  // until the server is restarted at real time for the second pass (docs/testing.md "Waiting in tests").
  const MINUTE_AGO_S = 61;
  beforeAll(async () => {
    stack = await startStack({
      chains: false,
      env: { SAMPLER_CLOCK_OFFSET_S: String(-MINUTE_AGO_S) },
      simClockOffsetMs: -MINUTE_AGO_S * 1000,
    });
    get = client(stack);
  });
  afterAll(() => stack?.stop());

  it("answer empty data with as_of null before the first pass", async () => {
    const stats = await get("/api/predmkt/stats");
    expect(stats.status).toBe(200);
    expect(stats.body.meta).toMatchObject({ source: "sampled", as_of: null, note: "no sampler pass has completed yet" });
    for (const name of LIST_ENDPOINTS) {
      const res = await get(`/api/predmkt/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.body.data, name).toEqual([]);
      expect(res.body.meta.as_of, name).toBeNull();
    }
  });

  it("the cron route refuses a missing or wrong secret", async () => {
    for (const headers of [{}, { authorization: "Bearer wrong-secret" }, { authorization: `Bearer ${stack.key}` }] as Record<
      string,
      string
    >[]) {
      const res = await fetch(`${stack.app.url}/api/cron/sample`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
    }
  });

  describe("after two passes a minute apart", () => {
    let first: { finished_at: string; counts: Record<string, number> };
    let asOf: string;

    beforeAll(async () => {
      first = await pass(stack);
      // The shortest movers window is one minute: the second pass must be at least that much later, on the sampler's
      // clock and in the simulated world alike. Both move to real time, the server on the data it has.
      stack.setSimClockOffset(0);
      await stack.restartApp({ SAMPLER_CLOCK_OFFSET_S: undefined });
      const second = await pass(stack);
      expect(Date.parse(second.started_at) - Date.parse(first.finished_at)).toBeGreaterThanOrEqual(60_000);
      asOf = (await get("/api/predmkt/movers?window=1m")).body.meta.as_of;
    }, 150_000);

    it("stats and categories match the simulated world", async () => {
      const { world } = { world: stack.sim.summary() };
      const stats = await get("/api/predmkt/stats");
      expect(stats.body.data.active_events).toBe(world.counts.open_events);
      expect(stats.body.data.active_markets).toBe(world.counts.open_markets);
      expect(stats.body.data.volume_24h_usd).toBeGreaterThan(0);
      expect(stats.body.meta.as_of).not.toBeNull();
      const categories = await get("/api/predmkt/categories");
      expect(categories.body.data.length).toBeGreaterThan(1);
      const total = categories.body.data.reduce((s: number, c: { event_count: number }) => s + c.event_count, 0);
      expect(total).toBe(world.counts.open_events);
      expect(first.counts.events).toBe(world.counts.open_events);
    });

    it("events: paging with total, past the end, search, sorting, category", async () => {
      const page = await get("/api/predmkt/events?limit=10&offset=0");
      const total = page.body.meta.total;
      expect(total).toBe(stack.sim.summary().counts.open_events);
      expect(page.body.data).toHaveLength(10);
      const v24 = page.body.data.map((e: { volume_24h_usd: number }) => e.volume_24h_usd);
      expect(v24).toEqual([...v24].sort((a, b) => b - a));
      const last = await get(`/api/predmkt/events?limit=10&offset=${total - 3}`);
      expect(last.body.data).toHaveLength(3);
      const past = await get(`/api/predmkt/events?offset=${total}`);
      expect(past.status).toBe(200);
      expect(past.body.data).toEqual([]);
      expect(past.body.meta).toMatchObject({ total, count: 0 });
      for (const order of ["volume", "liquidity"]) {
        const key = order === "volume" ? "volume_usd" : "liquidity_usd";
        const values = (await get(`/api/predmkt/events?order=${order}&limit=50`)).body.data.map((e: Record<string, number>) => e[key]);
        expect(values).toEqual([...values].sort((a, b) => b - a));
      }
      const word = page.body.data[0].title.split(" ").find((w: string) => w.length > 4) as string;
      const search = await get(`/api/predmkt/events?q=${encodeURIComponent(word.toUpperCase())}&limit=500`);
      expect(search.body.data.length).toBeGreaterThan(0);
      for (const e of search.body.data) expect(e.title.toLowerCase()).toContain(word.toLowerCase());
      const category = (await get("/api/predmkt/categories")).body.data[0];
      const inCategory = await get(`/api/predmkt/events?category=${category.slug}&limit=500`);
      expect(inCategory.body.meta.total).toBe(category.event_count);
      for (const e of inCategory.body.data) expect(e.category).toBe(category.slug);
    });

    it("event detail, changes and history answer with real sampled figures", async () => {
      const slug = stack.sim.summary().samples.multi_market_event_slugs[0];
      const detail = await get(`/api/predmkt/events/${slug}`);
      expect(detail.status).toBe(200);
      expect(detail.body.data.markets.length).toBeGreaterThan(1);
      for (const m of detail.body.data.markets) for (const o of m.outcomes) expect(o.probability).toBeGreaterThanOrEqual(0);
      for (const window of ["1h", "24h", "7d", "30d"]) {
        const changes = await get(`/api/predmkt/events/${slug}/changes?window=${window}`);
        expect(changes.status, window).toBe(200);
        // The sampler started moments ago: no sample is that old, so every outcome is left out, not guessed.
        expect(changes.body.data, window).toEqual([]);
        expect(changes.body.meta).toMatchObject({ source: "sampled", window });
      }
      const market = detail.body.data.markets[0];
      for (const window of ["24h", "7d", "30d"]) {
        const history = await get(`/api/predmkt/markets/${market.id}/history?window=${window}`);
        expect(history.status, window).toBe(200);
        expect(history.body.data.market_id).toBe(market.id);
        expect(history.body.data.points.length, window).toBeGreaterThan(0);
      }
      const byCondition = await get(`/api/predmkt/markets/${market.condition_id}/history`);
      expect(byCondition.body.data.market_id).toBe(market.id);
      expect(byCondition.body.data.points.length).toBeGreaterThanOrEqual(2);
      expect((await get("/api/predmkt/events/no-such-event-anywhere")).status).toBe(404);
      expect((await get("/api/predmkt/markets/123456789012/history")).status).toBe(404);
    });

    it("movers for every window; the one-minute window has real moves", async () => {
      for (const window of ["1m", "5m", "15m", "30m", "1h", "4h", "12h", "24h", "7d"]) {
        const res = await get(`/api/predmkt/movers?window=${window}&limit=5`);
        expect(res.status, window).toBe(200);
        expect(res.body.meta).toMatchObject({ source: "sampled", window, as_of: asOf });
      }
      const minute = await get("/api/predmkt/movers?window=1m&limit=10");
      expect(minute.body.data.length).toBe(10);
      const moves = minute.body.data.map((m: { change: number }) => Math.abs(m.change));
      expect(moves).toEqual([...moves].sort((a, b) => b - a));
      expect(moves[0]).toBeGreaterThan(0);
    });

    it("trades, abnormal trades, whales and live ticks", async () => {
      const trades = await get("/api/predmkt/trades?limit=50");
      expect(trades.body.data).toHaveLength(50);
      const times = trades.body.data.map((t: { timestamp: string }) => t.timestamp);
      expect(times).toEqual([...times].sort().reverse());
      const big = await get("/api/predmkt/trades?min_usd=1000&limit=500");
      for (const t of big.body.data) expect(t.usd_size).toBeGreaterThanOrEqual(1000);
      const abnormal = await get("/api/predmkt/abnormal");
      expect(abnormal.status).toBe(200);
      for (const t of abnormal.body.data) {
        expect(t.score).toBeGreaterThanOrEqual(1);
        expect(t.reason).toMatch(/flagged/);
      }
      const whales = await get("/api/predmkt/whales?limit=10");
      expect(whales.body.data.length).toBeGreaterThan(0);
      const values = whales.body.data.map((w: { value_usd: number }) => w.value_usd);
      expect(values).toEqual([...values].sort((a, b) => b - a));
      const live = await get("/api/predmkt/live?limit=20");
      expect(live.body.data).toHaveLength(20);
      expect(live.body.data[0].timestamp >= live.body.data[19].timestamp).toBe(true);
    });

    it("bad parameters are 400s naming the parameter", async () => {
      for (const [path, parameter] of [
        ["/api/predmkt/events?limit=0", "limit"],
        ["/api/predmkt/events?offset=10001", "offset"],
        ["/api/predmkt/events?order=hot", "order"],
        ["/api/predmkt/movers?window=90d", "window"],
        ["/api/predmkt/trades?min_usd=-1", "min_usd"],
        ["/api/predmkt/markets/not-an-id/history", "id"],
        ["/api/predmkt/events/x/changes?window=1m", "window"],
      ]) {
        const res = await get(path);
        expect(res.status, path).toBe(400);
        expect(res.type).toBe("application/problem+json");
        expect(
          res.body.errors.map((e: { parameter: string }) => e.parameter),
          path,
        ).toContain(parameter);
      }
    });

    it("every sampled endpoint is in the OpenAPI document", async () => {
      const doc = await (await fetch(`${stack.app.url}/api/openapi.json`)).json();
      for (const path of [
        "/api/predmkt/stats",
        "/api/predmkt/categories",
        "/api/predmkt/events",
        "/api/predmkt/events/{slug}",
        "/api/predmkt/events/{slug}/changes",
        "/api/predmkt/movers",
        "/api/predmkt/abnormal",
        "/api/predmkt/whales",
        "/api/predmkt/trades",
        "/api/predmkt/live",
        "/api/predmkt/markets/{id}/history",
        "/api/cron/sample",
      ]) {
        expect(doc.paths[path]?.get, path).toBeDefined();
      }
      expect(doc.paths["/api/predmkt/abnormal"].get.description).toMatch(/modified z-score/);
    });
  });
});

describe.runIf(postgresUp)("sampled endpoints on PostgreSQL, two servers sharing it", () => {
  const dbName = `predmkt_sampled_${process.pid}_${Date.now()}`;
  const databaseUrl = Object.assign(new URL(POSTGRES_URL), { pathname: `/${dbName}` }).toString();
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  const env = {
    DATABASE_URL: databaseUrl,
    JWT_SECRET: "sampled-it-jwt-secret-0123456789abcdef",
    CRON_SECRET: "sampled-it-cron-secret-0123456789abcdef",
  };
  const stacks: Stack[] = [];

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await migratePostgres(databaseUrl);
    stacks.push(await startStack({ chains: false, env }), await startStack({ chains: false, env }));
  });
  afterAll(async () => {
    await Promise.allSettled(stacks.map((s) => s.stop()));
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  });

  it("overlapping passes from two servers: one does the work, the other is skipped", async () => {
    const results = await Promise.all(stacks.map(async (s) => (await (await s.samplePass()).json()).data));
    expect(results.map((r) => r.status).sort()).toEqual(["ok", "skipped"]);
    // The lease is free again, and a second server's pass over the same tape adds no duplicate fills.
    const again = await (await stacks[1].samplePass()).json();
    expect(again.data.status).toBe("ok");
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const { rows } = await db.query(
      "SELECT count(*)::int AS n, count(DISTINCT (tx_hash, wallet, condition_id, outcome_index, side, shares, price, timestamp))::int AS d FROM trades",
    );
    const runs = await db.query("SELECT status, count(*)::int AS n FROM sampler_runs GROUP BY status");
    await db.end();
    expect(rows[0].n).toBe(rows[0].d);
    expect(rows[0].n).toBeGreaterThan(0);
    expect(runs.rows).toEqual([{ status: "ok", n: 2 }]);
  });

  it("every endpoint answers with sampled figures", async () => {
    const get = client(stacks[0]);
    const stats = await get("/api/predmkt/stats");
    expect(stats.body.data.active_markets).toBe(stacks[0].sim.summary().counts.open_markets);
    const page = await get("/api/predmkt/events?limit=5&offset=0");
    expect(page.body.meta.total).toBe(stacks[0].sim.summary().counts.open_events);
    const past = await get(`/api/predmkt/events?offset=${page.body.meta.total}`);
    expect(past.body.data).toEqual([]);
    const slug = page.body.data[0].slug;
    const detail = await get(`/api/predmkt/events/${slug}`);
    expect(detail.status).toBe(200);
    const marketId = detail.body.data.markets[0].id;
    for (const path of [
      "/api/predmkt/categories",
      `/api/predmkt/events?q=${encodeURIComponent(page.body.data[0].title.slice(0, 6))}`,
      `/api/predmkt/events/${slug}/changes?window=1h`,
      "/api/predmkt/movers?window=1m",
      "/api/predmkt/abnormal",
      "/api/predmkt/whales",
      "/api/predmkt/trades?min_usd=10",
      "/api/predmkt/live",
      `/api/predmkt/markets/${marketId}/history?window=7d`,
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.body.meta.source, path).toBe("sampled");
      expect(res.body.meta.as_of, path).not.toBeNull();
    }
    expect((await get("/api/predmkt/trades")).body.data.length).toBeGreaterThan(0);
    expect((await get("/api/predmkt/whales")).body.data.length).toBeGreaterThan(0);
    expect((await get("/api/predmkt/live")).body.data.length).toBeGreaterThan(0);
  });
});

describe("the in-process sampler loop (how the demo samples)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ chains: false, env: { SAMPLER_INTERVAL_S: "15" } });
  });
  afterAll(() => stack?.stop());

  it("fills the sampled endpoints within a minute of start, without any cron call", async () => {
    const get = client(stack);
    // The first pass fills events and prices first, then trades, then whales: wait for the last of them.
    await pollUntil(
      async () => (await get("/api/predmkt/whales")).body.meta.as_of,
      (asOf) => asOf !== null,
      60_000,
      250,
      "the loop's first pass to fill whales",
    );
    const stats = await get("/api/predmkt/stats");
    expect(stats.body.meta.as_of).not.toBeNull();
    expect(stats.body.data.active_markets).toBe(stack.sim.summary().counts.open_markets);
    for (const path of ["/api/predmkt/events", "/api/predmkt/trades", "/api/predmkt/live", "/api/predmkt/whales"]) {
      const res = await get(path);
      expect(res.body.data.length, path).toBeGreaterThan(0);
    }
  });
});
