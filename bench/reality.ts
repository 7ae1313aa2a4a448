// `npm run bench:reality`: the sampler, the sampled endpoints, the `-live` endpoints and /whales against the
// simulator at bench scale with every reality switch on (REAL_UPSTREAM: V2 markets, Gamma's closed-by-default lists
// and deprecation headers, junk items, Cloudflare-style throttling at the documented limits; `/v2/trades` cursor,
// `/v2/holders`, v1 offset caps are always served), plus Cloudflare 520–524 HTML pages and a 429 injected into one
// pass, and a tape burst of ≥ 20,000 fills between two passes. The production server (`next start`) runs the real
// sampler through its cron route; the simulator runs in this process so its world, tape and throttle can be read
// directly. Prints one table and writes bench/results/reality-latest.json (+ a timestamped copy).
// Counts and completeness do not depend on machine load; wall times do.
// Knobs: BENCH_BURST (fills, default 25000), BENCH_REALITY_BUDGET_S (wall time after which no further whale-coverage
// pass starts, default 420), BENCH_POSTGRES_URL (as in bench/run.ts).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureBuild, ROOT, sourceHash } from "../scripts/lib/build";

const BURST = Number(process.env.BENCH_BURST ?? 25_000);
const BURST_SPREAD_S = 10;
const BUDGET_S = Number(process.env.BENCH_REALITY_BUDGET_S ?? 420);
const JWT_SECRET = "bench-jwt-secret-0123456789abcdef0123456789";
const CRON_SECRET = "bench-cron-secret-0123456789abcdef0123";
const WHALE_FLOOR_USD = 10_000; // WHALE_MIN_VOLUME_USD's default

const scratch = mkdtempSync(path.join(os.tmpdir(), "predmkt-reality-"));
Object.assign(process.env, { DATA_DIR: path.join(scratch, "tool"), JWT_SECRET, CRON_SECRET });
delete process.env.DATABASE_URL;

const startedAt = Date.now();
const elapsedS = () => (Date.now() - startedAt) / 1000;
const progress = (line: string) => console.log(`[reality ${elapsedS().toFixed(0).padStart(4)} s] ${line}`);

interface Row {
  section: string;
  figure: string;
  value: string;
}
const rows: Row[] = [];
const figures: Record<string, unknown> = {};
const failures: string[] = [];
const check = (ok: boolean, what: string) => {
  if (!ok) failures.push(what);
  return ok;
};

/** "/data/markets/123" → "data /markets/{id}": the simulator's per-path counters folded like the governor's keys. */
function fold(counters: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, n] of Object.entries(counters)) {
    const m = /^\/(gamma|data|clob)(\/.*)?$/.exec(key);
    if (!m) continue;
    const p = (m[2] ?? "/").replace(/\/slug\/[^/]+$/, "/slug/{slug}").replace(/\/(\d+|0x[0-9a-fA-F]+)(?=\/|$)/g, "/{id}");
    const k = `${m[1]} ${p}`;
    out[k] = (out[k] ?? 0) + n;
  }
  return out;
}

const percentile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] : null;

async function main() {
  const processes = await import("./lib/processes");
  const database = await import("./lib/database");
  const { startSimulator, REAL_UPSTREAM } = await import("../sim/polymarket");
  const { isJunk } = await import("../sim/polymarket/reality");
  const { budgetOf, DOCUMENTED_LIMITS, scopeName } = await import("../lib/upstream/governor");
  const { sameCondition } = await import("../lib/upstream/ids");
  const { whaleIntervalS } = await import("../lib/sampler/whales");

  const distDir = path.join(".next-test", sourceHash());
  progress(`build: ${distDir} (reused when the sources are unchanged)`);
  ensureBuild(distDir, (line) => progress(line));

  progress("simulator: bench scale, every reality switch on (REAL_UPSTREAM), in this process");
  const sim = await startSimulator({ scale: "bench", seed: 1, reality: REAL_UPSTREAM });
  const { world } = sim;
  const reality = sim.reality();
  const summary = sim.summary();
  progress(`simulator: ${JSON.stringify(summary.counts)}; reality ${JSON.stringify(reality)}`);
  figures.simulator = { counts: summary.counts, reality };

  const usePostgres = await database.reachable(database.POSTGRES_ADMIN_URL);
  const serverData = path.join(scratch, "server");
  const db = usePostgres ? await database.createPostgresDatabase(`predmkt_reality_${process.pid}`) : database.embeddedDatabase(serverData);
  figures.database = db.kind;
  figures.machine = { cpus: os.cpus().length, cpu_model: os.cpus()[0]?.model, node: process.version, loadavg_start: os.loadavg() };
  const sql = <T>(text: string, values: unknown[] = []) =>
    database.withClient(db.connectionString(), async (c) => (await c.query(text, values)).rows as T[]);

  try {
    const server = await processes.startServer(distDir, {
      ...db.serverEnv,
      DATA_DIR: serverData,
      JWT_SECRET,
      CRON_SECRET,
      POLYMARKET_GAMMA_URL: sim.gammaUrl,
      POLYMARKET_DATA_URL: sim.dataUrl,
      POLYMARKET_CLOB_URL: sim.clobUrl,
      RATE_LIMIT_ENTERPRISE: "1000000000",
    });
    progress(`server: ${server.url}`);
    const key = await database.createKey(db.connectionString(), "enterprise");
    const auth = { authorization: `Bearer ${key}` };
    const api = async (p: string) => {
      const res = await fetch(`${server.url}${p}`, { headers: auth, signal: AbortSignal.timeout(120_000) });
      const text = await res.text();
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        body = text.slice(0, 200);
      }
      return { status: res.status, body: body as { data?: unknown; meta?: Record<string, unknown> } };
    };

    // ---- sampler passes through the production cron route ---------------------------------------------------------
    const passes: Record<string, unknown>[] = [];
    const peakByScope = new Map<string, number>();
    let delayed = 0;
    let refused = 0;
    const pass = async (label: string) => {
      sim.resetCounters(); // request counters and the throttle's windows
      progress(`sampler: ${label} pass through GET /api/cron/sample ...`);
      const t = performance.now();
      const res = await fetch(`${server.url}/api/cron/sample`, {
        headers: { authorization: `Bearer ${CRON_SECRET}` },
        signal: AbortSignal.timeout(600_000),
      });
      const wall = (performance.now() - t) / 1000;
      const body = (await res.json()) as {
        data?: { status: string; run_id: number | null; counts: Record<string, number>; tape_gaps: unknown[]; error: string | null };
      };
      const throttle = sim.throttle();
      for (const [scope, { peak }] of Object.entries(throttle.peak)) peakByScope.set(scope, Math.max(peakByScope.get(scope) ?? 0, peak));
      delayed += throttle.delayed;
      refused += throttle.refused;
      const run = body.data?.run_id
        ? (
            await sql<{ upstream_requests: Record<string, number> | null; tape_gaps: unknown[] | null; status: string }>(
              `SELECT upstream_requests, tape_gaps, status FROM sampler_runs WHERE id = $1`,
              [body.data.run_id],
            )
          )[0]
        : null;
      const record = {
        label,
        status: body.data?.status ?? `HTTP ${res.status}`,
        error: body.data?.error ?? null,
        wall_s: Math.round(wall * 10) / 10,
        finished_at_ms: Date.now(),
        counts: body.data?.counts ?? {},
        tape_gaps: body.data?.tape_gaps ?? [],
        upstream_requests_pass_record: run?.upstream_requests ?? {},
        upstream_requests_simulator: fold(sim.counters()),
        throttle,
      };
      passes.push(record);
      const total = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
      progress(
        `sampler: ${record.status} in ${record.wall_s} s; ${JSON.stringify(record.counts)}; upstream ${total(record.upstream_requests_pass_record)} (pass record) / ${total(record.upstream_requests_simulator)} (simulator); throttle delayed ${throttle.delayed}, refused ${throttle.refused}`,
      );
      check(record.status === "ok", `${label} pass: ${record.status} ${record.error ?? ""}`);
      check(record.tape_gaps.length === 0, `${label} pass recorded tape gaps: ${JSON.stringify(record.tape_gaps)}`);
      return record;
    };

    await pass("first (empty database)");
    const second = await pass("second (steady state)");

    // ---- tape burst between two passes ------------------------------------------------------------------------------
    // The burst lies after the second pass's tape walk and entirely in the past when the third pass reads it.
    const burstAt = Math.floor(second.finished_at_ms / 1000) + 1;
    while (Date.now() / 1000 < burstAt + BURST_SPREAD_S + 1) await new Promise((r) => setTimeout(r, 200));
    sim.burst(BURST, { atSec: burstAt, spreadSec: BURST_SPREAD_S });
    progress(`tape: burst of ${BURST} fills over [${burstAt}, ${burstAt + BURST_SPREAD_S}) injected`);
    // Cloudflare in front of every host: an HTML 522 on the event listing, an HTML 524 on the tape, a 429 with
    // Retry-After on holders — each must be retried within the pass's deadline, not fail it.
    const injected = [
      { target: "gamma", path: "/events/keyset", mode: "cloudflare", status: 522, count: 1 },
      { target: "data", path: "/v2/trades", mode: "cloudflare", status: 524, count: 1 },
      { target: "data", path: "/v2/holders", mode: "rate_limit", retry_after_s: 1, count: 1 },
    ] as const;
    for (const fault of injected) sim.setFault({ ...fault });
    const third = await pass("third (after the burst; Cloudflare 522/524 HTML pages and a 429 injected)");
    const unconsumed = sim.faults();
    sim.clearFaults();
    check(unconsumed.length === 0, `injected faults not met by the pass: ${JSON.stringify(unconsumed)}`);
    figures.injected_faults = { injected, unconsumed, third_pass_status: third.status };
    await pass("fourth (reads what the third left, if anything)");

    // Tape completeness: every fill the simulator served in the burst window, against the rows stored for it.
    const windowFrom = burstAt;
    const windowTo = burstAt + BURST_SPREAD_S - 1;
    const served = sim.flow.query({
      markets: null,
      takerOnly: true,
      minTokens: 0.01, // /v2/trades' default filter (filter_type TOKENS, 0.01)
      since: windowFrom,
      until: windowTo,
      need: Number.MAX_SAFE_INTEGER,
    });
    const identities = new Set<string>();
    const junk = new Set<string>();
    let burstServed = 0;
    let burstJunk = 0;
    for (const t of served) {
      const market = world.markets[t.market];
      const id = [
        sim.flow.txHash(t),
        market.tokenIds[t.outcome],
        world.walletAddress(t.wallet).toLowerCase(),
        t.side,
        t.size,
        t.price,
        t.timestamp,
      ].join("|");
      const isJunkRow = isJunk(world, reality, "trade", t.a * 7 + t.kind, t.b * 131 + t.c * 17 + t.fill);
      if (t.kind === 2) {
        burstServed++;
        if (isJunkRow) burstJunk++;
      }
      if (isJunkRow) junk.add(id);
      else identities.add(id);
    }
    const storedWindow = (
      await sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM trades WHERE timestamp >= to_timestamp($1) AND timestamp < to_timestamp($2)`,
        [windowFrom, windowTo + 1],
      )
    )[0].n;
    const burstHashes = Array.from({ length: BURST }, (_, k) =>
      sim.flow.txHash({ kind: 2, a: 0, b: k, c: 0 } as Parameters<typeof sim.flow.txHash>[0]),
    );
    const storedBurst = (
      await sql<{ n: number }>(`SELECT count(*)::int AS n FROM trades WHERE tx_hash = ANY($1::text[])`, [burstHashes])
    )[0].n;
    const allGaps = (
      await sql<{ id: number; tape_gaps: unknown }>(`SELECT id, tape_gaps FROM sampler_runs WHERE tape_gaps IS NOT NULL`)
    ).map((r) => r.tape_gaps);
    const tape = {
      burst_fills: BURST,
      burst_window_s: [windowFrom, windowTo],
      simulator_burst_count: sim.flow.burstFills(windowFrom, windowTo),
      served_in_window: served.length,
      served_distinct_identities: identities.size + junk.size,
      served_junk: junk.size,
      expected_rows: identities.size,
      stored_rows_in_window: storedWindow,
      burst_served: burstServed,
      burst_junk: burstJunk,
      burst_stored: storedBurst,
      recorded_gaps: allGaps,
      third_pass_tape_requests: third.upstream_requests_pass_record["data /v2/trades"] ?? 0,
    };
    figures.tape = tape;
    check(storedWindow === identities.size, `tape window: stored ${storedWindow} of ${identities.size} expected rows`);
    check(storedBurst === burstServed - burstJunk, `burst: stored ${storedBurst} of ${burstServed - burstJunk}`);

    // ---- whale coverage over further passes ------------------------------------------------------------------------
    const whaleState = async () =>
      (
        await sql<{ eligible: number; covered: number }>(
          `SELECT count(*)::int AS eligible, count(whales_at)::int AS covered FROM markets WHERE open AND volume_usd >= $1`,
          [WHALE_FLOOR_USD],
        )
      )[0];
    let ws = await whaleState();
    let extra = 0;
    while (ws.covered < ws.eligible && elapsedS() < BUDGET_S) {
      await pass(`whale coverage ${++extra}`);
      ws = await whaleState();
      progress(`whales: ${ws.covered} of ${ws.eligible} eligible markets covered`);
    }
    const whaleAges = await sql<{ age_s: number }>(
      `SELECT extract(epoch FROM now() - sampled_at)::float AS age_s FROM whale_positions ORDER BY 1`,
    );
    const marketAges = await sql<{ age_s: number | null; rank: number; volume_usd: number }>(
      `SELECT extract(epoch FROM now() - whales_at)::float AS age_s, volume_usd,
              (row_number() OVER (ORDER BY volume_usd DESC, id) - 1)::int AS rank
       FROM markets WHERE open AND volume_usd >= $1`,
      [WHALE_FLOOR_USD],
    );
    const positionsStored = (
      await sql<{ n: number; markets: number }>(`SELECT count(*)::int AS n, count(DISTINCT market_id)::int AS markets FROM whale_positions`)
    )[0];
    const ages = whaleAges.map((r) => r.age_s);
    const top100 = marketAges
      .filter((r) => r.rank < 100 && r.age_s !== null)
      .map((r) => r.age_s!)
      .sort((a, b) => a - b);
    const whales = {
      floor_usd: WHALE_FLOOR_USD,
      eligible_markets: ws.eligible,
      covered_markets: ws.covered,
      markets_with_positions: positionsStored.markets,
      positions: positionsStored.n,
      passes_run: passes.length,
      position_age_s: { p50: percentile(ages, 0.5), max: percentile(ages, 1) },
      top100_market_age_s: { p50: percentile(top100, 0.5), max: percentile(top100, 1) },
      never_refreshed: marketAges.filter((r) => r.age_s === null).length,
      // The rotating schedule's steady-state load (lib/sampler/whales.ts whaleIntervalS): refreshes per hour it asks
      // for, against what one pass a minute at whaleMarketsPerPass (300) can do.
      steady_state_refreshes_per_hour: Math.round(marketAges.reduce((sum, r) => sum + 3600 / whaleIntervalS(r.rank, r.volume_usd), 0)),
      capacity_per_hour_at_one_pass_a_minute: 300 * 60,
    };
    figures.whales = whales;

    // ---- correctness of the answers ----------------------------------------------------------------------------------
    sim.resetCounters();
    progress("checks: V2 markets in the database and in the sampled /events answers");
    const goodEvents = world.events.filter((e) => world.isOpen(e) && !isJunk(world, reality, "event", e.index));
    const goodMarkets = goodEvents
      .flatMap((e) => e.markets.map((i) => world.markets[i]))
      .filter((m) => !isJunk(world, reality, "market", m.index));
    const v2 = goodMarkets.filter((m) => m.version === "v2");
    const stored = await sql<{ id: string; condition_id: string; tokens: string[]; priced: number }>(
      `SELECT m.id, m.condition_id, array_agg(o.token_id ORDER BY o.index) AS tokens, count(o.price)::int AS priced
       FROM markets m JOIN outcomes o ON o.market_id = m.id GROUP BY m.id, m.condition_id`,
    );
    const byId = new Map(stored.map((r) => [r.id, r]));
    const v2Missing = v2.filter((m) => {
      const r = byId.get(m.id);
      return !r || !sameCondition(r.condition_id, m.conditionId) || r.tokens.join() !== m.tokenIds.join() || r.priced !== 2;
    });
    check(
      v2Missing.length === 0,
      `V2 markets missing or wrong in the database: ${v2Missing
        .slice(0, 5)
        .map((m) => m.id)
        .join()}`,
    );
    const listed = new Map<string, number>();
    for (let offset = 0; offset <= 10_000; offset += 500) {
      const page = await api(`/api/predmkt/events?limit=500&offset=${offset}`);
      const items = (page.body.data as { slug: string; active_markets: number }[] | undefined) ?? [];
      for (const e of items) listed.set(e.slug, e.active_markets);
      if (items.length < 500) break;
    }
    const v2Events = [...new Set(v2.map((m) => m.eventIndex))].map((i) => world.events[i]);
    const v2EventsMissing = v2Events.filter((e) => !listed.has(e.slug));
    check(
      v2EventsMissing.length === 0,
      `events with V2 markets missing from /events: ${v2EventsMissing
        .slice(0, 5)
        .map((e) => e.slug)
        .join()}`,
    );
    // Event detail of every event holding a V2 market (4 at a time): condition id and position ids as the upstream has them.
    let detailChecked = 0;
    const detailWrong: string[] = [];
    const queue = [...v2Events];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let e = queue.shift(); e; e = queue.shift()) {
          const res = await api(`/api/predmkt/events/${e.slug}`);
          const markets =
            (res.body.data as { markets?: { id: string; condition_id: string; outcomes: { token_id: string }[] }[] })?.markets ?? [];
          for (const m of v2.filter((x) => x.eventIndex === e.index)) {
            const got = markets.find((x) => x.id === m.id);
            detailChecked++;
            if (!got || !sameCondition(got.condition_id, m.conditionId) || got.outcomes.map((o) => o.token_id).join() !== m.tokenIds.join())
              detailWrong.push(m.id);
          }
        }
      }),
    );
    check(detailWrong.length === 0, `V2 markets wrong in /events/{slug}: ${detailWrong.slice(0, 5).join()}`);
    figures.v2 = {
      world_v2_markets: world.markets.filter((m) => m.version === "v2").length,
      open_listed_v2_markets: v2.length,
      missing_or_wrong_in_db: v2Missing.length,
      events_with_v2: v2Events.length,
      events_missing_from_list: v2EventsMissing.length,
      checked_in_event_detail: detailChecked,
      wrong_in_event_detail: detailWrong.length,
      listed_events: listed.size,
      expected_open_events: goodEvents.length,
    };
    check(listed.size === goodEvents.length, `/events lists ${listed.size} events, the simulator has ${goodEvents.length} good open ones`);

    progress("checks: -live endpoints for closed markets by condition id, /whales, /trades, /api/health");
    const closed = world.markets.filter((m) => m.closed && !world.events[m.eventIndex].archived);
    const closedV1 = closed.find((m) => m.version !== "v2")!;
    const closedV2 = closed.find((m) => m.version === "v2" && m.paddedCondition) ?? closed.find((m) => m.version === "v2")!;
    const live: Record<string, number> = {};
    for (const [label, id] of [
      ["closed V1 market", closedV1.conditionId],
      ["closed V2 market (62 hex)", closedV2.conditionId],
      ["closed V2 market (padded to 64 hex)", `${closedV2.conditionId}00`],
      ["open V2 market (62 hex)", v2[0].conditionId],
    ] as const) {
      for (const endpoint of ["holders-live", "activity-live"]) {
        const res = await api(`/api/predmkt/markets/${id}/${endpoint}`);
        live[`${endpoint} ${label}`] = res.status;
        check(res.status === 200, `${endpoint} for ${label} ${id}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }
    }
    const closedEvent = world.events.find((e) => e.closed && !e.archived)!;
    // A resolved market's CLOB history is empty below 12-hour fidelity: the whole history must still come back.
    const history = await api(`/api/predmkt/events/${closedEvent.slug}/history-live?interval=max`);
    const series = (history.body.data as { points: unknown[] }[] | undefined) ?? [];
    live["history-live closed event (interval=max)"] = history.status;
    figures.live = { statuses: live, closed_event_history_points: series.map((s) => s.points.length) };
    check(
      history.status === 200 && series.length > 0 && series.every((s) => s.points.length > 0),
      `history-live for closed event ${closedEvent.slug}: HTTP ${history.status}, points ${series.map((s) => s.points.length).join()}`,
    );

    const whalesAnswer = await api(`/api/predmkt/whales?limit=500`);
    const whaleRows = (whalesAnswer.body.data as { market_id: string }[] | undefined) ?? [];
    const v2WithWhales = (
      await sql<{ market_id: string }>(
        `SELECT w.market_id FROM whale_positions w JOIN markets m ON m.id = w.market_id WHERE length(m.condition_id) = 64 LIMIT 1`,
      )
    )[0]?.market_id;
    const v2Whales = v2WithWhales ? await api(`/api/predmkt/whales?market_id=${v2WithWhales}&limit=500`) : null;
    figures.whales_endpoint = {
      status: whalesAnswer.status,
      rows: whaleRows.length,
      distinct_markets_in_top_500: new Set(whaleRows.map((r) => r.market_id)).size,
      oldest_sampled_at: whalesAnswer.body.meta?.oldest_sampled_at ?? null,
      v2_market_filter: v2Whales
        ? { market_id: v2WithWhales, status: v2Whales.status, rows: (v2Whales.body.data as unknown[]).length }
        : null,
    };
    check(whalesAnswer.status === 200 && whaleRows.length > 0, `/whales: HTTP ${whalesAnswer.status}, ${whaleRows.length} rows`);
    const trades = await api(`/api/predmkt/trades?limit=10`);
    const health = await api(`/api/health`);
    figures.gap_reporting = {
      trades_meta_tape_gaps: trades.body.meta?.tape_gaps ?? null,
      health_upstream:
        (health.body as unknown as { upstream?: unknown }).upstream ?? (health.body.data as { upstream?: unknown })?.upstream ?? null,
    };
    figures.checks_upstream_requests = fold(sim.counters());

    // ---- governor vs the documented limits --------------------------------------------------------------------------
    const governor = DOCUMENTED_LIMITS.filter((l) => peakByScope.has(`/${scopeName(l)}`)).map((l) => {
      const scope = `/${scopeName(l)}`;
      return { scope, peak_per_10s: peakByScope.get(scope)!, governor_budget: budgetOf(l), documented: l.per10s };
    });
    figures.governor = { peaks: governor, throttle_delayed: delayed, throttle_refused_429: refused };
    for (const g of governor) check(g.peak_per_10s <= g.documented, `${g.scope}: peak ${g.peak_per_10s} > documented ${g.documented}`);
    check(delayed === 0 && refused === 0, `the simulator had to throttle: ${delayed} delayed, ${refused} refused`);

    figures.passes = passes.map(({ finished_at_ms: _, throttle: __, ...p }) => p);
    await server.stop();

    // ---- table ---------------------------------------------------------------------------------------------------
    const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);
    for (const p of passes as (typeof third)[]) {
      const byEndpoint = Object.entries(p.upstream_requests_pass_record)
        .map(([k, n]) => `${k} ${n}`)
        .join(", ");
      rows.push({
        section: "upstream per pass",
        figure: `${p.label}: ${p.status}, ${p.wall_s} s`,
        value: `${sum(p.upstream_requests_pass_record)} requests (simulator counted ${sum(p.upstream_requests_simulator)}): ${byEndpoint}`,
      });
    }
    rows.push({
      section: "tape",
      figure: `burst of ${BURST} fills in ${BURST_SPREAD_S} s between passes 2 and 3`,
      value: `burst fills stored ${storedBurst} of ${burstServed - burstJunk} parseable (${burstJunk} served as junk, dropped and counted); all fills in the window ${storedWindow} of ${identities.size}; recorded gaps ${allGaps.length}; /v2/trades pages in pass 3: ${tape.third_pass_tape_requests}`,
    });
    rows.push({
      section: "whales",
      figure: `coverage after ${passes.length} passes (floor $${WHALE_FLOOR_USD.toLocaleString("en-US")})`,
      value: `${ws.covered} of ${ws.eligible} eligible markets refreshed, ${positionsStored.markets} with positions, ${positionsStored.n} positions; never refreshed ${whales.never_refreshed}`,
    });
    rows.push({
      section: "whales",
      figure: "freshness at the end (age of positions; age of the 100 biggest markets' refresh)",
      value: `steady state asks ${whales.steady_state_refreshes_per_hour} market refreshes/h (capacity 18000/h at one pass a minute); positions p50 ${whales.position_age_s.p50?.toFixed(0)} s, max ${whales.position_age_s.max?.toFixed(0)} s; top 100 markets p50 ${whales.top100_market_age_s.p50?.toFixed(0)} s, max ${whales.top100_market_age_s.max?.toFixed(0)} s`,
    });
    for (const g of governor)
      rows.push({
        section: "governor",
        figure: `peak requests in a 10 s window, ${g.scope}`,
        value: `${g.peak_per_10s} (governor budget ${g.governor_budget}, documented ${g.documented})`,
      });
    rows.push({ section: "governor", figure: "simulator throttling applied (delayed / 429)", value: `${delayed} / ${refused}` });
    rows.push({
      section: "correctness",
      figure: "V2 markets (open, parseable) in the database / in /events/{slug}",
      value: `${v2.length - v2Missing.length} of ${v2.length} / ${detailChecked - detailWrong.length} of ${detailChecked}; events listed ${listed.size} of ${goodEvents.length}`,
    });
    rows.push({
      section: "correctness",
      figure: "-live by condition id (closed V1, closed V2 62/64 hex, open V2)",
      value: Object.entries(live)
        .map(([k, s]) => `${k}: ${s}`)
        .join("; "),
    });
    rows.push({
      section: "correctness",
      figure: "Cloudflare 522/524 HTML + 429 injected in pass 3",
      value: `pass 3 ${third.status}; faults left unconsumed: ${unconsumed.length}`,
    });
  } finally {
    await processes.stopAll();
    await sim.close();
    await db.drop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

main()
  .then(() => {
    figures.machine = { ...(figures.machine as object), loadavg_end: os.loadavg() };
    console.log("");
    console.log(
      `predmkt reality bench, ${new Date().toISOString()}, ${os.cpus().length} CPUs, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}, total ${elapsedS().toFixed(0)} s`,
    );
    console.table(rows);
    const dir = path.join(ROOT, "bench/results");
    mkdirSync(dir, { recursive: true });
    const out = { at: new Date().toISOString(), total_s: Math.round(elapsedS()), failures, rows, figures };
    const stamp = out.at.replace(/[:.]/g, "-");
    writeFileSync(path.join(dir, `reality-${stamp}.json`), `${JSON.stringify(out, null, 2)}\n`);
    writeFileSync(path.join(dir, "reality-latest.json"), `${JSON.stringify(out, null, 2)}\n`);
    console.log(`figures written to bench/results/reality-${stamp}.json and bench/results/reality-latest.json`);
    if (failures.length) {
      console.log(`\n${failures.length} check(s) failed:\n- ${failures.join("\n- ")}`);
      process.exit(1);
    }
    console.log("every completeness and correctness check held");
    process.exit(0);
  })
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
