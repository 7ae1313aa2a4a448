// The whole ingest worker at real frame rates (bench/live-feed.ts, part `worker`; the "live feed" section of
// `npm run bench`). The worker (bench/live-feed-worker.ts: `startWorker` as `npm run worker` runs it) in its own
// process on a throwaway PostgreSQL database, against the simulator at scale "real" (≥ 25,000 open markets) with the
// measured order flow on (reality `activeMarketShare` = BENCH_LIVE_ACTIVE_SHARE, default 0.01, at 48 `price_change`/s
// per token: sim/polymarket/order-flow.ts) and every open market's tokens subscribed (the subscription rule opened:
// no volume floor, 500 tokens a socket, as many sockets as that takes). After the worker's first sampler pass has
// listed the markets and every socket is subscribed, a window of BENCH_LIVE_SECONDS (default 45) measures:
// - frames/s the simulator sent on the market channel and frames/s the worker received;
// - the worker's CPU (% of one core), RSS (end and peak), event-loop delay p50 / p99 / max;
// - trade ingest lag: the simulator's emit of `orders_matched` → the row's stream event (`stream_events.created_at`,
//   the insert's transaction), p50 / p95 / p99 over the window's trades;
// - price ticks: each top-of-book change the simulator emitted that moved the displayed price (and was not replaced
//   within a second) → the tick stored for it, matched share and p50 / p95 / p99;
// - sockets closed with 1013 (simulator and worker counts), reconnects, watchdog stalls.
// BENCH_LIVE_CPU_PROF=<dir> writes the worker's CPU profile of the window there and summarises it in the figures.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "../scripts/lib/build";
import { simulatorControl, simulatorUpstreamEnv } from "./lib/simulator";

const SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 45);
const ACTIVE_SHARE = Number(process.env.BENCH_LIVE_ACTIVE_SHARE ?? 0.01);
const FRAMES_PER_S = Number(process.env.BENCH_LIVE_FRAMES_PER_TOKEN_S ?? 48);
const WARMUP_S = 5;
/** After the window, trades emitted at its end get this long to be stored before the lag is read. */
const SETTLE_MS = 8_000;
const CPU_PROF_DIR = process.env.BENCH_LIVE_CPU_PROF ? path.resolve(process.env.BENCH_LIVE_CPU_PROF) : null;

interface LiveWorkerContext {
  simUrl: string;
  scratch: string;
  jwtSecret: string;
  cronSecret: string;
  progress: (line: string) => void;
  addRow: (figure: string, value: string) => void;
  figures: Record<string, unknown>;
  /**
   * A PostgreSQL database that already lists the simulator's markets (`npm run bench`'s, after its sampler passes):
   * the worker's own first pass is then a steady-state one. Without it a throwaway database is created and dropped.
   */
  database?: { connectionString: string };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : Number.NaN;
const r1 = (x: number) => Math.round(x * 10) / 10;
const ms = (x: number) => (Number.isFinite(x) ? `${Math.round(x)} ms` : "–");
const spread = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50_ms: percentile(sorted, 50), p95_ms: percentile(sorted, 95), p99_ms: percentile(sorted, 99) };
};

/** The worker child over IPC: each command answered by one message of the same `cmd`. */
function workerChild(env: Record<string, string>) {
  const full: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) full[k] = v;
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "bench/live-feed-worker.ts"], {
    cwd: ROOT,
    env: { ...full, ...env } as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  let output = "";
  child.stdout?.on("data", (d) => (output = (output + d).slice(-20_000)));
  child.stderr?.on("data", (d) => (output = (output + d).slice(-20_000)));
  const waiting = new Map<string, (m: Record<string, unknown>) => void>();
  child.on("message", (m: Record<string, unknown>) => {
    const resolve = waiting.get(m.cmd as string);
    waiting.delete(m.cmd as string);
    resolve?.(m);
  });
  const answer = (cmd: string, timeoutMs = 60_000) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`worker: no answer to ${cmd} in ${timeoutMs} ms\n${output.slice(-3000)}`)),
        timeoutMs,
      );
      waiting.set(cmd, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
    });
  return {
    child,
    logs: () => output,
    ready: answer("ready", 120_000),
    ask: (message: Record<string, unknown>, timeoutMs?: number) => {
      const reply = answer(message.cmd as string, timeoutMs);
      child.send(message);
      return reply;
    },
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}

export async function liveWorkerBench(ctx: LiveWorkerContext): Promise<void> {
  const database = await import("./lib/database");
  const { TradeV1Schema } = await import("../lib/upstream/schemas");
  const sim = simulatorControl(ctx.simUrl);
  if (!(await database.reachable(database.POSTGRES_ADMIN_URL))) {
    ctx.addRow("whole worker", "not measured: the worker runs beside its database in its own process, which needs PostgreSQL");
    return;
  }
  const own = ctx.database ? null : await database.createPostgresDatabase(`predmkt_bench_live_${process.pid}`);
  const connectionString = ctx.database?.connectionString ?? own!.connectionString();
  const query = <T>(sql: string, params: unknown[] = []) =>
    database.withClient(connectionString, async (c) => (await c.query(sql, params)).rows as T[]);
  const finishedPasses = async () =>
    (await query<{ n: number }>(`SELECT count(*)::int AS n FROM sampler_runs WHERE finished_at IS NOT NULL`))[0].n;
  const passesBefore = await finishedPasses();
  const worker = workerChild({
    DATABASE_URL: connectionString,
    DATA_DIR: path.join(ctx.scratch, "live-worker"),
    JWT_SECRET: ctx.jwtSecret,
    CRON_SECRET: ctx.cronSecret,
    ...simulatorUpstreamEnv(ctx.simUrl),
    // Every open market's tokens: the load of subscribing ≥ 20k markets (docs/stream.md gives the default rule).
    WORKER_MIN_VOLUME_24H_USD: "0",
    WORKER_MAX_TOKENS: "200000",
    WORKER_MAX_SOCKETS: "1000",
    WORKER_MAX_ASSETS_PER_SOCKET: "500",
    WORKER_CONNECT_INTERVAL_MS: "100",
    SAMPLER_INTERVAL_S: "3600",
    // No whale refresh in the worker's pass (a holders read per large market): the bench measures the live feed.
    WHALE_MIN_VOLUME_USD: String(1e15),
  });
  try {
    await sim("/reality", "POST", { activeMarketShare: ACTIVE_SHARE, activeFramesPerS: FRAMES_PER_S });
    await worker.ready;
    ctx.progress("live feed: whole worker — waiting for its first sampler pass to list the markets");
    const passDeadline = Date.now() + 300_000;
    while ((await finishedPasses()) <= passesBefore) {
      if (Date.now() > passDeadline) throw new Error(`no sampler pass in 300 s\n${worker.logs().slice(-3000)}`);
      if (worker.child.exitCode !== null) throw new Error(`the worker exited\n${worker.logs().slice(-3000)}`);
      await sleep(1000);
    }
    const refreshed = (await worker.ask({ cmd: "refresh" })).subscriptions as Record<string, number>;
    const [{ open_markets: openMarkets }] = await query<{ open_markets: number }>(
      `SELECT count(*)::int AS open_markets FROM markets WHERE open`,
    );
    ctx.progress(`live feed: ${openMarkets} open markets stored; subscribing ${refreshed.tokens} tokens on ${refreshed.sockets} sockets`);
    const subDeadline = Date.now() + 120_000;
    for (;;) {
      const ws = await sim("/ws");
      const clients = ws.clients as { channel: string; assets: number }[];
      const subscribed = clients.filter((c) => c.channel === "market").reduce((n, c) => n + c.assets, 0);
      if (subscribed >= refreshed.tokens) break;
      if (Date.now() > subDeadline) throw new Error(`only ${subscribed} of ${refreshed.tokens} tokens subscribed after 120 s`);
      await sleep(1000);
    }
    await sleep(WARMUP_S * 1000);

    ctx.progress(`live feed: measuring ${SECONDS} s (active share ${ACTIVE_SHARE}, ${FRAMES_PER_S} price_change/s per active token)`);
    const load0 = os.loadavg()[0];
    if (CPU_PROF_DIR) await worker.ask({ cmd: "profile-start" });
    // The simulator's counters and the worker's window start and end together (each asked at the same instant).
    const from = Date.now();
    await Promise.all([sim("/ws/counters", "DELETE"), worker.ask({ cmd: "mark" })]);
    await sleep(SECONDS * 1000);
    const [report, simState] = await Promise.all([worker.ask({ cmd: "report" }), sim("/ws")]);
    const counters = simState.counters as Record<string, number>;
    const to = Date.now();
    let profile: Record<string, unknown> | null = null;
    if (CPU_PROF_DIR) {
      mkdirSync(CPU_PROF_DIR, { recursive: true });
      const file = path.join(CPU_PROF_DIR, `live-worker-${process.pid}.cpuprofile`);
      await worker.ask({ cmd: "profile-stop", file });
      const { summarize } = await import("./profile-summary");
      profile = { file, ...summarize(JSON.parse(readFileSync(file, "utf8")) as Parameters<typeof summarize>[0], 15) };
    }
    const emitted = (await sim("/ws/emitted")) as {
      trades: { payload: unknown; emitted_at_ms: number }[];
      price_changes: { asset_id: string; best_bid: string; best_ask: string; emitted_at_ms: number }[];
    };
    await sleep(SETTLE_MS);

    // Trades: emit → stored.
    const tradeEmits = new Map<string, number>();
    for (const e of emitted.trades) {
      const parsed = TradeV1Schema.safeParse(e.payload);
      if (parsed.success && e.emitted_at_ms >= from && e.emitted_at_ms <= to) tradeEmits.set(parsed.data.id, e.emitted_at_ms);
    }
    const stored = await query<{ ref: string; at: number }>(
      `SELECT ref, (extract(epoch FROM created_at) * 1000)::float8 AS at FROM stream_events WHERE topic = 'trade' AND ref = ANY($1)`,
      [[...tradeEmits.keys()]],
    );
    const tradeLags = stored.map((r) => r.at - tradeEmits.get(r.ref)!);

    // Ticks: a top-of-book change that moved the displayed price and stood for a second → its tick.
    const ticks = await query<{ ref: string; price: number; at: number }>(
      `SELECT ref, (payload->>'price')::float8 AS price, (extract(epoch FROM created_at) * 1000)::float8 AS at
         FROM stream_events WHERE topic = 'tick' AND created_at >= to_timestamp($1 / 1000.0) ORDER BY seq`,
      [from - 1000],
    );
    const ticksByToken = new Map<string, { price: number; at: number }[]>();
    for (const t of ticks) ticksByToken.set(t.ref, [...(ticksByToken.get(t.ref) ?? []), t]);
    const displayed = (bid: number, ask: number) => (ask - bid <= 0.1 + 1e-9 ? Math.round(((bid + ask) / 2) * 1e4) / 1e4 : null);
    const byToken = new Map<string, { price: number | null; at: number }[]>();
    for (const c of emitted.price_changes)
      byToken.set(c.asset_id, [
        ...(byToken.get(c.asset_id) ?? []),
        { price: displayed(Number(c.best_bid), Number(c.best_ask)), at: c.emitted_at_ms },
      ]);
    const tickLags: number[] = [];
    let tickChanges = 0;
    for (const [token, list] of byToken) {
      list.sort((a, b) => a.at - b.at);
      for (let i = 1; i < list.length; i++) {
        const c = list[i];
        if (c.price === null || c.price === list[i - 1].price || c.at < from || c.at > to) continue;
        if (i + 1 < list.length && list[i + 1].at - c.at < 1000) continue;
        tickChanges++;
        const tick = ticksByToken.get(token)?.find((t) => t.at >= c.at - 50 && Math.abs(t.price - c.price!) < 1e-9);
        if (tick) tickLags.push(tick.at - c.at);
      }
    }

    const wall = (to - from) / 1000;
    const delta = report.delta as Record<string, number>;
    const loop = report.loop_delay_ms as Record<string, number>;
    const subs = report.subscriptions as Record<string, number>;
    const sentPerS = counters.messages_sent / wall;
    const receivedPerS = delta.messages / wall;
    const trades = spread(tradeLags);
    const tickSpread = spread(tickLags);
    const figures = {
      open_markets: openMarkets,
      tokens_subscribed: subs.tokens,
      sockets: report.sockets,
      active_market_share: ACTIVE_SHARE,
      price_change_per_active_token_s: FRAMES_PER_S,
      window_s: r1(wall),
      load_average_1m: [r1(load0), r1(os.loadavg()[0])],
      frames_sent_per_s: Math.round(sentPerS),
      order_flow_frames_per_s: Math.round(counters.order_flow_frames_emitted / wall),
      frames_received_per_s: Math.round(receivedPerS),
      received_share: Number((receivedPerS / Math.max(1, sentPerS)).toFixed(3)),
      worker_cpu_percent_of_one_core: Math.round(report.cpu_percent_of_one_core as number),
      worker_rss_mb: Math.round(report.rss_mb as number),
      worker_rss_peak_mb: Math.round(report.rss_peak_mb as number),
      loop_delay_ms: { p50: r1(loop.p50), p99: r1(loop.p99), max: r1(loop.max) },
      trade_ingest_lag: { emitted: tradeEmits.size, ...trades },
      tick_lag: { changes: tickChanges, ...tickSpread },
      slow_consumer_closes: { simulator: counters.slow_consumer_closes, worker: subs.slow_consumer_closes },
      reconnects: delta.reconnects,
      watchdog_stalls: delta.stalls,
      messages_dropped: counters.messages_dropped,
      worker_delta: delta,
      cpu_profile: profile,
    };
    const keepsUp = figures.received_share >= 0.98 && counters.slow_consumer_closes === 0 && delta.stalls === 0;
    ctx.figures.live_feed_worker = { ...figures, keeps_up: keepsUp };
    ctx.addRow(
      `whole worker, ${openMarkets} open markets, ${subs.tokens} tokens on ${report.sockets as number} sockets; ${ACTIVE_SHARE * 100} % of markets active at ${FRAMES_PER_S} price_change/s per token`,
      `${figures.frames_sent_per_s} frames/s sent, ${figures.frames_received_per_s} received (${(figures.received_share * 100).toFixed(1)} %); CPU ${figures.worker_cpu_percent_of_one_core} % of a core; RSS ${figures.worker_rss_mb} MB (peak ${figures.worker_rss_peak_mb}); loop delay p50 ${figures.loop_delay_ms.p50} ms, p99 ${figures.loop_delay_ms.p99} ms`,
    );
    ctx.addRow(
      "whole worker: trade ingest lag (emit → stored) / price ticks (emit → stored)",
      `trades p50 ${ms(trades.p50_ms)}, p95 ${ms(trades.p95_ms)}, p99 ${ms(trades.p99_ms)} (${trades.n}/${tradeEmits.size} stored); ticks p50 ${ms(tickSpread.p50_ms)}, p95 ${ms(tickSpread.p95_ms)}, p99 ${ms(tickSpread.p99_ms)} (${tickSpread.n}/${tickChanges} changes)`,
    );
    ctx.addRow(
      "whole worker: 1013 closes / reconnects / watchdog stalls / keeps up",
      `${counters.slow_consumer_closes} (worker saw ${subs.slow_consumer_closes}) / ${delta.reconnects} / ${delta.stalls} / ${keepsUp ? "yes" : "no"}`,
    );
    await worker.ask({ cmd: "stop" }, 30_000).catch(() => undefined);
  } catch (error) {
    ctx.progress(`live feed: failed: ${(error as Error).message}`);
    ctx.addRow("whole worker", `failed: ${(error as Error).message.slice(0, 200)}`);
  } finally {
    worker.kill();
    await sim("/reality", "POST", { activeMarketShare: 0 }).catch(() => undefined);
    await own?.drop();
  }
}

/** `npx tsx bench/live-feed.ts`: a real-scale simulator of its own, the figures printed and written to bench/results. */
export async function runStandalone(): Promise<void> {
  const { mkdtempSync, rmSync, writeFileSync } = await import("node:fs");
  const scratch = mkdtempSync(path.join(os.tmpdir(), "predmkt-bench-live-"));
  const secrets = { JWT_SECRET: "bench-jwt-secret-0123456789abcdef0123456789", CRON_SECRET: "bench-cron-secret-0123456789abcdef0123" };
  Object.assign(process.env, { DATA_DIR: path.join(scratch, "tool"), ...secrets });
  delete process.env.DATABASE_URL;
  const processes = await import("./lib/processes");
  const started = Date.now();
  const progress = (line: string) => console.log(`[live ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);
  const scale = (process.env.BENCH_LIVE_SCALE ?? "real") as "demo" | "bench" | "real";
  progress(`starting the simulator at scale "${scale}"`);
  const simulator = await processes.startSimulatorProcess(scale, 1);
  const rows: { figure: string; value: string }[] = [];
  const figures: Record<string, unknown> = {};
  try {
    await liveWorkerBench({
      simUrl: simulator.url,
      scratch,
      jwtSecret: secrets.JWT_SECRET,
      cronSecret: secrets.CRON_SECRET,
      progress,
      addRow: (figure, value) => rows.push({ figure, value }),
      figures,
    });
  } finally {
    await processes.stopAll();
    rmSync(scratch, { recursive: true, force: true });
  }
  console.table(rows);
  console.log(JSON.stringify(figures, null, 2));
  const dir = path.join(ROOT, "bench/results");
  mkdirSync(dir, { recursive: true });
  const at = new Date().toISOString();
  writeFileSync(
    path.join(dir, "live-feed-latest.json"),
    `${JSON.stringify({ at, total_s: Math.round((Date.now() - started) / 1000), rows, figures }, null, 2)}\n`,
  );
  console.log("figures written to bench/results/live-feed-latest.json");
}
