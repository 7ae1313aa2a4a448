// The `sampled_reads` figures of `npm run bench` (bench/run.ts calls this after seeding 31 days of history):
// movers?window=7d on the first request after a real sampler pass (through the cron route, which also does the
// after-pass work) and warm, 304 answers to If-None-Match, and, with BENCH_SOAK_S > 0, the server's resident
// memory at start, middle and end of a soak under mixed load with a sampler pass every minute.
// stats_vs_ping and history_30d come from the gateway and history sections of the same run.
import { readdirSync, readFileSync } from "node:fs";
import { interleaved, load, type LoadResult, percentile, sequential, statusText } from "./lib/load";

export interface BenchRow {
  section: string;
  figure: string;
  value: string;
  database: string;
}

type Measured = Pick<LoadResult, "rps" | "p50_ms" | "p95_ms">;

export interface SampledReadsContext {
  serverUrl: string;
  serverPid: number;
  connectionString: string;
  auth: Record<string, string>;
  cronSecret: string;
  marketIds: string[];
  seconds: number;
  dbLabel: string;
  progress: (line: string) => void;
  rows: BenchRow[];
  /** Already measured side by side in the gateway section: the keyed stats endpoint and the empty route. */
  stats: Measured;
  ping: Measured;
  /** Already measured in the history section: markets/{random id}/history?window=30d. */
  history: Measured;
  /** Sections left out while developing (BENCH_SKIP): "floor" skips the warm movers run and the floor in turns. */
  skip?: ReadonlySet<string>;
}

const SOAK_S = Number(process.env.BENCH_SOAK_S ?? 0);
const PASSES = Number(process.env.BENCH_MOVERS_PASSES ?? 8);
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Resident memory (MB) of a process and all its descendants (`next start` serves from a child process). */
export function treeRssMb(pid: number): number {
  const children = (p: number): number[] => {
    try {
      return readdirSync(`/proc/${p}/task`).flatMap((tid) =>
        readFileSync(`/proc/${p}/task/${tid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number),
      );
    } catch {
      return [];
    }
  };
  let kb = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop()!;
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      continue; // gone
    }
    stack.push(...children(p));
  }
  return round(kb / 1024, 1);
}

/**
 * EXPLAIN ANALYZE of the history statement itself (lib/predmkt/history.ts) for a few markets at bench scale: as a
 * one-off statement, and as the server runs it on PostgreSQL (a named prepared statement, whose generic plan each
 * connection keeps once PostgreSQL prefers it), i.e. without the planning.
 */
async function historyPlan(ctx: SampledReadsContext): Promise<{
  execution_ms: number[];
  planning_ms: number[];
  key_lines: string[];
  generic: { execution_ms: number[]; key_lines: string[] };
}> {
  const { historyStatement } = await import("../lib/predmkt/history");
  const { withClient } = await import("./lib/database");
  return withClient(ctx.connectionString, async (client) => {
    const execution: number[] = [];
    const planning: number[] = [];
    const generic: number[] = [];
    let lines: string[] = [];
    let genericLines: string[] = [];
    const keyLines = (plan: string[]) =>
      plan.filter((l: string) => /Index|Seq Scan|Execution Time|Planning Time/.test(l)).map((l: string) => l.trim());
    const explain = async (sql: string, params: unknown[]) =>
      (await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params)).rows.map((r: Record<string, string>) => r["QUERY PLAN"]);
    const time = (plan: string[], what: string) => Number(new RegExp(`${what} Time: ([\\d.]+)`).exec(plan.join("\n"))?.[1] ?? Number.NaN);
    for (const id of ctx.marketIds.slice(0, 5)) {
      const { sql, params } = historyStatement(id, "30d");
      const plan = await explain(sql, params);
      execution.push(time(plan, "Execution"));
      planning.push(time(plan, "Planning"));
      lines = keyLines(plan);
    }
    const { sql } = historyStatement(ctx.marketIds[0], "30d");
    await client.query(`PREPARE bench_history AS ${sql}`);
    await client.query(`SET plan_cache_mode = force_generic_plan`);
    for (const id of ctx.marketIds.slice(0, 5)) {
      const { params } = historyStatement(id, "30d");
      const literals = params.map((p) => (typeof p === "number" ? String(p) : client.escapeLiteral(p)));
      const plan = await explain(`EXECUTE bench_history(${literals.join(", ")})`, []);
      generic.push(time(plan, "Execution"));
      genericLines = keyLines(plan);
    }
    await client.query(`DEALLOCATE bench_history`);
    await client.query(`RESET plan_cache_mode`);
    ctx.progress(
      `history plan: execution ${execution.join(", ")} ms (planning ${planning.join(", ")} ms); prepared, generic plan: execution ${generic.join(", ")} ms`,
    );
    return {
      execution_ms: execution,
      planning_ms: planning,
      key_lines: lines,
      generic: { execution_ms: generic, key_lines: genericLines },
    };
  });
}

async function cronPass(ctx: SampledReadsContext): Promise<{ wall_ms: number; pass_ms: number; status: string }> {
  const started = performance.now();
  const res = await fetch(`${ctx.serverUrl}/api/cron/sample`, {
    headers: { authorization: `Bearer ${ctx.cronSecret}` },
    signal: AbortSignal.timeout(600_000),
  });
  const body = (await res.json()) as { data?: { status: string; started_at: string; finished_at: string } };
  const wall = performance.now() - started;
  const pass = body.data ? Date.parse(body.data.finished_at) - Date.parse(body.data.started_at) : Number.NaN;
  return { wall_ms: Math.round(wall), pass_ms: pass, status: body.data?.status ?? `HTTP ${res.status}` };
}

export async function sampledReads(ctx: SampledReadsContext): Promise<Record<string, unknown>> {
  const figures: Record<string, unknown> = {};
  const { rows, dbLabel, auth } = ctx;
  const moversUrl = `${ctx.serverUrl}/api/predmkt/movers?window=7d`;

  figures.stats_vs_ping = {
    ratio_rps: round(ctx.stats.rps / ctx.ping.rps, 3),
    stats_p50_ms: ctx.stats.p50_ms,
    ping_p50_ms: ctx.ping.p50_ms,
  };
  figures.history_30d = { p50_ms: ctx.history.p50_ms, p95_ms: ctx.history.p95_ms, plan: await historyPlan(ctx) };

  // ---- movers: the first request after a real pass, then the second --------------------------------------------
  ctx.progress(`sampled reads: ${PASSES} sampler passes through the cron route, each followed by movers?window=7d twice`);
  const first: number[] = [];
  const second: number[] = [];
  const passes: Awaited<ReturnType<typeof cronPass>>[] = [];
  for (let i = 0; i < PASSES; i++) {
    passes.push(await cronPass(ctx));
    for (const times of [first, second]) {
      const r = await sequential(1, () => fetch(moversUrl, { headers: auth }));
      times.push(r.p50_ms);
    }
  }
  first.sort((a, b) => a - b);
  second.sort((a, b) => a - b);
  const afterPass = passes.map((p) => p.wall_ms - p.pass_ms).sort((a, b) => a - b);
  figures.movers_7d_first_after_pass = {
    p50_ms: round(percentile(first, 50)),
    p95_ms: round(percentile(first, 95)),
    second_request_p50_ms: round(percentile(second, 50)),
    // Every reading, sorted: with 8 passes the p95 is the slowest one, so a run is judged by all of them.
    first_ms: first.map((t) => round(t)),
    second_ms: second.map((t) => round(t)),
    passes: PASSES,
    pass_statuses: passes.map((p) => p.status),
    pass_p50_ms: percentile(
      passes.map((p) => p.pass_ms).sort((a, b) => a - b),
      50,
    ),
    after_pass_work_p50_ms: percentile(afterPass, 50),
  };
  rows.push({
    section: "sampled reads",
    figure: `movers?window=7d, first request after a sampler pass (${PASSES} passes through the cron route)`,
    value: `p50 ${round(percentile(first, 50))} ms, p95 ${round(percentile(first, 95))} ms (second request p50 ${round(percentile(second, 50))} ms); after-pass work (every aggregate) p50 ${percentile(afterPass, 50)} ms on top of the pass's ${percentile(
      passes.map((p) => p.pass_ms).sort((a, b) => a - b),
      50,
    )} ms`,
    database: dbLabel,
  });

  if (ctx.skip?.has("floor")) return figures;
  ctx.progress(`sampled reads: movers?window=7d warm (${ctx.seconds} s, 10 connections)`);
  const warm = await load({ url: moversUrl, headers: auth, seconds: ctx.seconds });
  figures.movers_7d_warm = { p50_ms: warm.p50_ms, p95_ms: warm.p95_ms, rps: warm.rps };
  rows.push({
    section: "sampled reads",
    figure: "movers?window=7d, warm (10 connections)",
    value: `p50 ${warm.p50_ms} ms, p95 ${warm.p95_ms} ms, ${warm.rps} req/s [${statusText(warm.statuses)}]`,
    database: dbLabel,
  });

  // ---- the framework floor: conditional requests, and what answering in the gateway would save -------------------
  const statsUrl = `${ctx.serverUrl}/api/predmkt/stats`;
  const etag = (await fetch(statsUrl, { headers: auth })).headers.get("etag") ?? "";
  const targets = [
    { name: "ping", url: `${ctx.serverUrl}/api/ping`, headers: {} },
    { name: "stats", url: statsUrl, headers: auth },
    { name: "stats_304", url: statsUrl, headers: { ...auth, "if-none-match": etag } },
    // POST is refused by the gateway itself after the key and limit checks (405): the cost of a request answered
    // there, without Next's route machinery behind it, i.e. what serving cached bytes from the gateway would cost.
    { name: "gateway_answer", url: statsUrl, method: "POST", headers: auth },
  ];
  ctx.progress(`sampled reads: floor, ${targets.length} targets in turns (${ctx.seconds} s each, 10 connections)`);
  const floor = await interleaved(targets, ctx.seconds, 4);
  const [ping, stats, conditional, gateway] = floor;
  figures.conditional_304 = {
    rps: conditional.rps,
    p50_ms: conditional.p50_ms,
    p95_ms: conditional.p95_ms,
    statuses: conditional.statuses,
  };
  figures.floor = Object.fromEntries(
    targets.map((t, i) => [t.name, { rps: floor[i].rps, p50_ms: floor[i].p50_ms, p95_ms: floor[i].p95_ms, statuses: floor[i].statuses }]),
  );
  rows.push({
    section: "sampled reads",
    figure: "GET /api/predmkt/stats with If-None-Match (304, key + limiter, 10 connections)",
    value: `${conditional.rps} req/s, p50 ${conditional.p50_ms} ms, p95 ${conditional.p95_ms} ms [${statusText(conditional.statuses)}]`,
    database: dbLabel,
  });
  rows.push({
    section: "sampled reads",
    figure: "floor, in turns: ping / stats (cached) / stats 304 / answered in the gateway (POST → 405 after key + limit)",
    value: [ping, stats, conditional, gateway].map((r) => `${r.rps} req/s p50 ${r.p50_ms} ms`).join(" / "),
    database: dbLabel,
  });
  rows.push({
    section: "sampled reads",
    figure: "stats / ping (req/s ratio; p50s), gateway section",
    value: `${round(ctx.stats.rps / ctx.ping.rps, 3)}; ${ctx.stats.p50_ms} ms vs ${ctx.ping.p50_ms} ms`,
    database: dbLabel,
  });

  if (SOAK_S > 0) figures.soak = await soak(ctx);
  return figures;
}

/** Mixed load for SOAK_S seconds with a sampler pass every minute; RSS of the server after warm-up, mid-way, at the end. */
async function soak(ctx: SampledReadsContext): Promise<Record<string, unknown>> {
  const warmUpS = Math.min(60, Math.round(SOAK_S / 5));
  let n = 0;
  const paths = [
    () => "/api/predmkt/stats",
    () => "/api/predmkt/movers?window=7d",
    () => "/api/predmkt/movers?window=1h&limit=50",
    () => `/api/predmkt/markets/${ctx.marketIds[n % ctx.marketIds.length]}/history?window=30d`,
    () => `/api/predmkt/markets/${ctx.marketIds[(n * 7) % ctx.marketIds.length]}/history?window=24h`,
    () => "/api/predmkt/categories",
    () => `/api/predmkt/events?limit=50&offset=${(n % 20) * 50}`,
    () => "/api/predmkt/live",
    () => "/api/predmkt/abnormal",
    () => "/api/predmkt/whales",
  ];
  const nextPath = () => paths[n++ % paths.length]();
  ctx.progress(`soak: ${warmUpS} s warm-up, then ${SOAK_S} s of mixed load (${paths.length} kinds of request) with a pass every 60 s`);
  await load({ url: ctx.serverUrl, headers: ctx.auth, seconds: warmUpS, path: nextPath });

  const samples: { t_s: number; rss_mb: number }[] = [];
  const started = Date.now();
  const sample = () => samples.push({ t_s: Math.round((Date.now() - started) / 1000), rss_mb: treeRssMb(ctx.serverPid) });
  sample();
  const sampler = setInterval(sample, 5000);
  let passing = false;
  let passCount = 0;
  const failedPasses: string[] = [];
  const passes = setInterval(() => {
    if (passing) return;
    passing = true;
    void cronPass(ctx)
      .then(() => passCount++)
      // A failed pass is counted and reported, never the end of the soak (a closed socket ended one run).
      .catch((error: Error) => {
        failedPasses.push(error.message);
        ctx.progress(`soak: a pass through the cron route failed: ${error.message}`);
      })
      .finally(() => (passing = false));
  }, 60_000);
  let result: LoadResult;
  try {
    result = await load({ url: ctx.serverUrl, headers: ctx.auth, seconds: SOAK_S, path: nextPath });
  } finally {
    clearInterval(sampler);
    clearInterval(passes);
  }
  sample();
  const at = (fraction: number) => samples[Math.min(samples.length - 1, Math.round((samples.length - 1) * fraction))];
  const [start, middle, end] = [at(0), at(0.5), at(1)];
  const spread = Math.max(...samples.map((s) => s.rss_mb)) - Math.min(...samples.map((s) => s.rss_mb));
  // A pass a minute lifts the RSS for a while (its working set, then garbage until the next major GC): each minute's
  // lowest sample is the steady level between passes, and its drift over the soak is what a leak would show.
  const lows: number[] = [];
  for (const s of samples) {
    const minute = Math.floor(s.t_s / 60);
    lows[minute] = Math.min(lows[minute] ?? Number.POSITIVE_INFINITY, s.rss_mb);
  }
  const minuteLows = lows.filter((v) => Number.isFinite(v));
  const soakFigures = {
    seconds: SOAK_S,
    warm_up_s: warmUpS,
    passes: passCount,
    failed_passes: failedPasses,
    requests: result.requests,
    rps: result.rps,
    p50_ms: result.p50_ms,
    p95_ms: result.p95_ms,
    statuses: result.statuses,
    rss_mb: { start: start.rss_mb, middle: middle.rss_mb, end: end.rss_mb },
    rss_change_pct: round(((end.rss_mb - start.rss_mb) / start.rss_mb) * 100, 1),
    rss_spread_mb: round(spread, 1),
    rss_minute_lows_mb: minuteLows,
    rss_minute_lows_change_pct: round(((minuteLows[minuteLows.length - 1] - minuteLows[0]) / minuteLows[0]) * 100, 1),
    samples,
  };
  ctx.rows.push({
    section: "soak",
    figure: `${SOAK_S} s mixed load + a pass a minute: server RSS start / middle / end`,
    value: `${start.rss_mb} / ${middle.rss_mb} / ${end.rss_mb} MB (${soakFigures.rss_change_pct >= 0 ? "+" : ""}${soakFigures.rss_change_pct} %); per-minute lows ${minuteLows.join(", ")} MB (${soakFigures.rss_minute_lows_change_pct >= 0 ? "+" : ""}${soakFigures.rss_minute_lows_change_pct} % first to last); ${result.rps} req/s, p50 ${result.p50_ms} ms, p95 ${result.p95_ms} ms, ${passCount} passes [${statusText(result.statuses)}]`,
    database: ctx.dbLabel,
  });
  return soakFigures;
}
