// The `real_scale` figures of `npm run bench` (issue 29; method in bench/README.md "Real scale"): Polymarket's size
// today (≥ 25,000 open markets, thousands of short-lived markets opened and closed every day) on one small machine.
// bench/run.ts measures the sampler, history and movers at the scale it runs (BENCH_SCALE); this file adds what only
// this section needs — the server's RSS at 100 ms resolution through a pass, the daily churn of short-lived markets
// over 31 days in storage, a burst of 30,000 fills in one market — and assembles `figures.real_scale` with each
// figure printed beside its goal.
import type pg from "pg";
import { load, type LoadResult } from "./lib/load";
import { treeRssMb } from "./sampled-reads";

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The goals of issue 29, printed beside each measured figure. */
export const REAL_SCALE_GOALS = {
  markets: "≥ 25,000 open markets",
  churn_per_day: "≥ 3,000 short-lived markets opened and closed per simulated day",
  pass_peak_rss_mb: "≤ 400 MB",
  history_30d: "p95 ≤ 20 ms (10 connections)",
  movers_7d_first_after_pass: "p95 ≤ 50 ms",
  streams: "≥ 1,000 streams at ≤ 50 KB each, loop p99 ≤ 50 ms at 50 events/s",
  burst_one_market: "scored within 10 s, API p99 ≤ 250 ms meanwhile",
} as const;

// ---- RSS at 100 ms resolution --------------------------------------------------------------------------------------

export interface RssTrace {
  peak_mb: number;
  start_mb: number;
  samples: number;
  interval_ms: number;
}

/** Samples the resident memory of `pid` and its descendants every `intervalMs` until stopped. */
export function traceRss(pid: number, intervalMs = 100): { stop: () => RssTrace } {
  const start = treeRssMb(pid);
  let peak = start;
  let samples = 1;
  const timer = setInterval(() => {
    peak = Math.max(peak, treeRssMb(pid));
    samples++;
  }, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      peak = Math.max(peak, treeRssMb(pid));
      return { peak_mb: peak, start_mb: start, samples: samples + 1, interval_ms: intervalMs };
    },
  };
}

// ---- daily churn of short-lived markets over 31 days ---------------------------------------------------------------

export interface ChurnResult {
  per_day: number;
  days: number;
  markets: number;
  price_rows: number;
  seconds: number;
}

/**
 * Stores `perDay` short-lived markets for each of `days` days, each open for 5 minutes to 4 hours of its day and
 * then closed, with the price rows it leaves behind under the storage tiers (lib/sampler/config.ts): change-only raw
 * samples (every 2nd minute while it traded) only for the last 2 days, 15-minute rollups for the last 8, hourly
 * rollups for all 31 — what a month of Polymarket's recurring crypto "Up or Down" markets leaves in the database.
 * Server-side SQL, one transaction per day. Stored closed, under one event per day: the sampler lists open markets,
 * so the churn shows in storage and in every read that scans by time, not in a pass's listing (bench/README.md).
 */
export async function seedChurn(client: pg.Client, perDay: number, days: number, progress: (line: string) => void): Promise<ChurnResult> {
  const started = performance.now();
  const [{ end }] = (await client.query(`SELECT extract(epoch FROM now())::bigint AS end`)).rows as { end: string }[];
  const endS = Number(end);
  let rows = 0;
  for (let day = 0; day < days; day++) {
    const ageDays = days - day;
    const dayStart = endS - ageDays * 86_400;
    const event = `bench-churn-${day}`;
    await client.query("BEGIN");
    await client.query(
      `INSERT INTO events (id, slug, title, category, active, closed, open, market_count, seen_at)
       VALUES ($1, $1, $2, 'crypto', true, true, false, $3, to_timestamp($4))`,
      [event, `Short-lived markets of day ${day}`, perDay, dayStart],
    );
    await client.query(
      `INSERT INTO markets (id, condition_id, event_id, event_slug, slug, question, position, active, closed, open, seen_at)
       SELECT $1 || '-' || n, '0x' || md5($1 || '-' || n) || md5('c' || $1 || '-' || n), $1, $1, $1 || '-' || n,
              'Short-lived market ' || n || ' of day ' || $2, n, true, true, false, to_timestamp($3)
       FROM generate_series(1, $4) AS n`,
      [event, day, dayStart, perDay],
    );
    const [{ lo, hi }] = (
      await client.query(
        `WITH added AS (
           INSERT INTO outcomes (market_id, token_id, name, index)
           SELECT $1 || '-' || n, 'bench-churn-token-' || $2 || '-' || n, 'Up', 0 FROM generate_series(1, $3) AS n
           RETURNING id)
         SELECT min(id) AS lo, max(id) AS hi FROM added`,
        [event, day, perDay],
      )
    ).rows as { lo: number; hi: number }[];
    const inserted = await client.query(
      `WITH life AS (
         SELECT id AS outcome_id, $1::bigint + (id::bigint * 7919 % 72000) AS opened_s, 300 + (id::bigint * 104729 % 14100) AS span_s
         FROM outcomes WHERE id BETWEEN $2 AND $3),
       tiers AS (
         SELECT res, step FROM (VALUES (60, 120), (900, 900), (3600, 3600)) AS v(res, step)
         WHERE res = 3600 OR (res = 900 AND $4 <= 8) OR (res = 60 AND $4 <= 2))
       INSERT INTO price_samples (resolution_s, outcome_id, t, price)
       SELECT tiers.res, l.outcome_id, to_timestamp((l.opened_s / tiers.step + k) * tiers.step),
              (0.5 + 0.4 * sin(l.outcome_id + k))::real
       FROM life l CROSS JOIN tiers CROSS JOIN LATERAL generate_series(0, l.span_s / tiers.step) AS k`,
      [dayStart, lo, hi, ageDays],
    );
    await client.query("COMMIT");
    rows += inserted.rowCount ?? 0;
    if ((day + 1) % 10 === 0 || day === days - 1)
      progress(`churn: ${day + 1}/${days} days stored (${rows.toLocaleString("en-US")} price rows)`);
  }
  return { per_day: perDay, days, markets: perDay * days, price_rows: rows, seconds: round((performance.now() - started) / 1000) };
}

// ---- a burst of fills in one market --------------------------------------------------------------------------------

export interface BurstContext {
  serverUrl: string;
  connectionString: string;
  auth: Record<string, string>;
  marketIds: string[];
  progress: (line: string) => void;
  withClient: <T>(connectionString: string, work: (client: pg.Client) => Promise<T>) => Promise<T>;
}

export interface BurstResult {
  fills: number;
  market_id: string;
  scoring_s: number;
  api_p99_ms: number;
  api_p50_ms: number;
  api_requests: number;
  api_statuses: Record<string, number>;
  /** The same mix just before the burst. */
  baseline_p99_ms: number;
  baseline_p50_ms: number;
  abnormal_found: number;
}

/**
 * Writes `fills` trades into one open market within the last five minutes (sizes log-spread over $20–$20,000, so
 * about half are candidates above the rule's $500 floor and every one is a reference trade; every thousandth is a
 * $5 M trade, which the rule flags), then lands a pass
 * the way another process's pass lands (a finished `sampler_runs` row and the `trades_at` clock moved), and asks
 * /abnormal for the new pass: `scoring_s` is the time until it answers, while 10 connections keep reading history and
 * ping (`api_p99_ms`).
 */
export async function burstOneMarket(ctx: BurstContext, fills = 30_000): Promise<BurstResult> {
  const marketId = ctx.marketIds[0];
  let n = 0;
  const paths = [() => "/api/ping", () => `/api/predmkt/markets/${ctx.marketIds[1 + (n % (ctx.marketIds.length - 1))]}/history?window=24h`];
  const mix = (seconds: number) => load({ url: ctx.serverUrl, headers: ctx.auth, seconds, path: () => paths[n++ % paths.length]() });
  // The same mix without a burst first: on a shared machine its p99 is the line the burst's p99 is read against.
  ctx.progress("burst: the API mix without a burst (baseline, 6 s)");
  const baseline = await mix(6);
  const landedAt = await ctx.withClient(ctx.connectionString, async (c) => {
    await c.query("BEGIN");
    await c.query(
      `INSERT INTO trades (id, tx_hash, condition_id, market_id, outcome, outcome_index, side, price, shares, usd_size, wallet, timestamp)
       SELECT 'bench-burst-' || n, '0x' || md5('burst' || n) || md5('tx' || n), m.condition_id, m.id, 'Yes', 0,
              CASE WHEN n % 2 = 0 THEN 'BUY' ELSE 'SELL' END, 0.5,
              2 * b.usd, b.usd,
              '0x' || lpad(to_hex(n % 5000), 40, '0'), now() - make_interval(secs => 300.0 * n / $2)
       FROM markets m, generate_series(1, $2) AS n
       CROSS JOIN LATERAL (SELECT CASE WHEN n % 1000 = 0 THEN 5000000 ELSE 20 * power(1000, ((n::bigint * 7919) % $2)::float8 / $2) END AS usd) b
       WHERE m.id = $1`,
      [marketId, fills],
    );
    const [{ at }] = (
      await c.query(
        `INSERT INTO sampler_runs (trigger, status, started_at, finished_at, trades) VALUES ('bench-burst', 'ok', now(), now(), $1)
         RETURNING finished_at AS at`,
        [fills],
      )
    ).rows as { at: Date }[];
    await c.query(`UPDATE sampler_state SET at = $1 WHERE key = 'trades_at'`, [at]);
    await c.query("COMMIT");
    return at;
  });
  ctx.progress(`burst: ${fills.toLocaleString("en-US")} fills written into market ${marketId}; scoring through /abnormal under load`);
  const meanwhile = mix(12);
  const started = performance.now();
  let found = 0;
  // The server sees another process's pass within its pass-clock poll (1 s); ask until the answer is the new pass's.
  for (;;) {
    const res = await fetch(`${ctx.serverUrl}/api/predmkt/abnormal?limit=500`, { headers: ctx.auth, signal: AbortSignal.timeout(600_000) });
    const body = (await res.json()) as { data?: { market_id: string | null }[]; meta?: { as_of: string | null } };
    if (body.meta?.as_of && Date.parse(body.meta.as_of) >= landedAt.getTime()) {
      found = (body.data ?? []).filter((t) => t.market_id === marketId).length;
      break;
    }
    if (performance.now() - started > 600_000) throw new Error("burst: /abnormal never answered for the burst's pass");
  }
  const scoringS = (performance.now() - started) / 1000;
  const api: LoadResult = await meanwhile;
  return {
    fills,
    market_id: marketId,
    scoring_s: round(scoringS, 2),
    api_p99_ms: api.p99_ms,
    api_p50_ms: api.p50_ms,
    api_requests: api.requests,
    api_statuses: api.statuses,
    baseline_p99_ms: baseline.p99_ms,
    baseline_p50_ms: baseline.p50_ms,
    abnormal_found: found,
  };
}

// ---- figures.real_scale, each beside its goal ----------------------------------------------------------------------

interface Row {
  section: string;
  figure: string;
  value: string;
  database: string;
}

type Figures = Record<string, unknown>;
const get = (figures: Figures, ...keys: string[]): unknown =>
  keys.reduce<unknown>((v, k) => (v && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined), figures);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const met = (ok: boolean | null | "reported") => (ok === "reported" ? "reported" : ok === null ? "not measured" : ok ? "met" : "MISSED");

/**
 * `figures.real_scale` (the keys issue 29 names) from what the run measured, and one row per figure with its goal.
 * A section left out (BENCH_SKIP) gives nulls, said as "not measured", never a made-up value.
 */
export function assembleRealScale(figures: Figures, rows: Row[]): void {
  const first = get(figures, "sampler_first_pass") as { wall_s?: number; upstream_requests?: number; rss_mb?: RssTrace } | undefined;
  const steady = get(figures, "sampler_second_pass") as typeof first;
  const peaks = [first?.rss_mb?.peak_mb, steady?.rss_mb?.peak_mb].filter((v): v is number => typeof v === "number");
  const counts = get(figures, "simulator") as Record<string, number> | undefined;
  const churn = get(figures, "churn") as ChurnResult | undefined;
  const size = get(figures, "database_size") as { total_mb?: number; tables?: Record<string, { mb: number }> } | undefined;
  const history = get(figures, "history_30d") as
    { p50_ms?: number; p95_ms?: number; floor?: Record<string, { p95_ms: number }> } | undefined;
  const movers = get(figures, "sampled_reads", "movers_7d_first_after_pass") as { p50_ms?: number; p95_ms?: number } | undefined;
  const streams = get(figures, "stream_concurrency") as
    { streams?: number; per_stream_kb?: number; events_per_s?: number; hub?: { event_loop_delay_p99_ms?: number } | null } | undefined;
  const burst = get(figures, "burst_one_market") as BurstResult | undefined;

  const openMarkets = num(counts?.open_markets) ?? num(counts?.markets);
  const real = {
    markets: openMarkets,
    churn_per_day: churn ? churn.per_day : null,
    pass_s: { first: num(first?.wall_s), steady: num(steady?.wall_s) },
    pass_peak_rss_mb: peaks.length ? Math.max(...peaks) : null,
    /** The server's node flags during the run (a heap cap lowers the peak: bench/README.md "Pass memory"). */
    server_node_options: typeof get(figures, "server_node_options") === "string" ? (get(figures, "server_node_options") as string) : null,
    upstream_requests_per_pass: { first: num(first?.upstream_requests), steady: num(steady?.upstream_requests) },
    storage_mb: {
      total: num(size?.total_mb),
      // The month the tiers keep (31 days), averaged: what a day of sampling adds once retention is reached.
      per_day: num(size?.total_mb) === null ? null : round(size!.total_mb! / 31, 1),
      price_samples: num(size?.tables?.price_samples?.mb),
    },
    history_30d: { p50_ms: num(history?.p50_ms), p95_ms: num(history?.p95_ms), floor: history?.floor ?? null },
    movers_7d_first_after_pass: { p50_ms: num(movers?.p50_ms), p95_ms: num(movers?.p95_ms) },
    streams: {
      count: num(streams?.streams),
      kb_per_stream: streams?.per_stream_kb === undefined ? null : round(streams.per_stream_kb, 1),
      loop_p99_ms: num(streams?.hub?.event_loop_delay_p99_ms),
      events_per_s: streams?.events_per_s === undefined ? null : round(streams.events_per_s, 1),
    },
    burst_one_market: burst ? { fills: burst.fills, scoring_s: burst.scoring_s, api_p99_ms: burst.api_p99_ms } : null,
  };
  figures.real_scale = real;

  const add = (figure: string, value: string, goal: string, ok: boolean | null | "reported") =>
    rows.push({ section: "real scale", figure: `${figure} (goal: ${goal})`, value: `${value} → ${met(ok)}`, database: "–" });
  const le = (v: number | null, limit: number) => (v === null ? null : v <= limit);
  add("open markets", `${real.markets ?? "–"}`, REAL_SCALE_GOALS.markets, real.markets === null ? null : real.markets >= 25_000);
  add(
    "short-lived markets a day × 31 days",
    churn ? `${churn.per_day} a day, ${churn.markets} in all, ${churn.price_rows} price rows` : "–",
    REAL_SCALE_GOALS.churn_per_day,
    churn ? churn.per_day >= 3_000 : null,
  );
  add(
    "sampler pass: wall time first / steady; upstream requests first / steady",
    `${real.pass_s.first ?? "–"} s / ${real.pass_s.steady ?? "–"} s; ${real.upstream_requests_per_pass.first ?? "–"} / ${real.upstream_requests_per_pass.steady ?? "–"}`,
    "reported",
    real.pass_s.first === null ? null : "reported",
  );
  const nodeOptions = get(figures, "server_node_options");
  add(
    "server peak RSS through a pass (100 ms samples)",
    `${real.pass_peak_rss_mb ?? "–"} MB (server node options: ${typeof nodeOptions === "string" ? nodeOptions : "none"})`,
    REAL_SCALE_GOALS.pass_peak_rss_mb,
    le(real.pass_peak_rss_mb, 400),
  );
  add(
    "storage: total; per day (31-day mean)",
    `${real.storage_mb.total ?? "–"} MB; ${real.storage_mb.per_day ?? "–"} MB`,
    "reported",
    real.storage_mb.total === null ? null : "reported",
  );
  add(
    "history?window=30d, random market",
    `p50 ${real.history_30d.p50_ms ?? "–"} ms, p95 ${real.history_30d.p95_ms ?? "–"} ms (floor: ping p95 ${history?.floor?.ping?.p95_ms ?? "–"} ms, keyed 404 p95 ${history?.floor?.gateway_404?.p95_ms ?? "–"} ms)`,
    REAL_SCALE_GOALS.history_30d,
    le(real.history_30d.p95_ms, 20),
  );
  add(
    "movers?window=7d, first request after a pass",
    `p50 ${real.movers_7d_first_after_pass.p50_ms ?? "–"} ms, p95 ${real.movers_7d_first_after_pass.p95_ms ?? "–"} ms`,
    REAL_SCALE_GOALS.movers_7d_first_after_pass,
    le(real.movers_7d_first_after_pass.p95_ms, 50),
  );
  const s = real.streams;
  add(
    "concurrent streams",
    `${s.count ?? "–"} streams, ${s.kb_per_stream ?? "–"} KB each, loop p99 ${s.loop_p99_ms ?? "–"} ms at ${s.events_per_s ?? "–"} events/s`,
    REAL_SCALE_GOALS.streams,
    s.count === null || s.kb_per_stream === null || s.loop_p99_ms === null || s.events_per_s === null
      ? null
      : // 50 fed a second; the 15 s window's edges leave up to one batch in flight (99 %).
        s.count >= 1_000 && s.kb_per_stream <= 50 && s.loop_p99_ms <= 50 && s.events_per_s >= 49.5,
  );
  const b = real.burst_one_market;
  add(
    "a burst of fills in one market: scoring time, API p99 meanwhile",
    b && burst
      ? `${b.fills} fills scored in ${b.scoring_s} s, API p99 ${b.api_p99_ms} ms (same mix without a burst just before: p99 ${burst.baseline_p99_ms} ms)`
      : "–",
    REAL_SCALE_GOALS.burst_one_market,
    b ? b.scoring_s <= 10 && b.api_p99_ms <= 250 : null,
  );
}
