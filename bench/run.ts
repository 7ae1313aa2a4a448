// `npm run bench`: builds and starts the production server against the simulator's bench world (≥ 10,000 markets) on
// PostgreSQL (or the embedded database when no PostgreSQL is reachable), measures every figure of issue 6 side by side
// in one run, prints one table and writes the same figures as JSON under bench/results/.
// Benchmarks report; they never fail on speed. Knobs: BENCH_SECONDS (per load run, default 8), BENCH_FANIN_SECONDS
// (default 10), BENCH_POSTGRES_URL (admin URL, default postgresql://postgres@127.0.0.1:5432/postgres), BENCH_SOAK_S
// (seconds of mixed-load soak reporting the server's RSS; default 0 = none), BENCH_MOVERS_PASSES (default 8),
// BENCH_SCALE (the simulator's world: "real" ≥ 25,000 open markets, the default; "bench" ≥ 10,000 and "demo" for
// quicker runs while developing), BENCH_CHURN_PER_DAY (short-lived markets stored per day over 31 days, default 3000;
// 0 = none), BENCH_BURST_FILLS (default 30000), BENCH_LIVE_* (the live-feed section: bench/live-worker.ts) and
// BENCH_SKIP (comma-separated sections to leave out while developing: gateway, fanin, floor, stream, livefeed,
// ratelimit, oracle, churn, burst, reads). Method and figures: bench/README.md.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { execFile } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { ensureBuild, ROOT } from "../scripts/lib/build";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const FANIN_SECONDS = Number(process.env.BENCH_FANIN_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
const JWT_SECRET = "bench-jwt-secret-0123456789abcdef0123456789";
const CRON_SECRET = "bench-cron-secret-0123456789abcdef0123";
const SCALE = (process.env.BENCH_SCALE ?? "real") as "real" | "bench" | "demo";
const CHURN_PER_DAY = Number(process.env.BENCH_CHURN_PER_DAY ?? 3000);
const BURST_FILLS = Number(process.env.BENCH_BURST_FILLS ?? 30_000);
const SKIP = new Set((process.env.BENCH_SKIP ?? "").split(",").filter(Boolean));
// BENCH_CPU_PROF=<dir>: the server's CPU profile of the history phase (bench/lib/cpu-profile.mjs), summarised in the figures.
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : null;
// BENCH_SERVER_NODE_OPTIONS: node flags for the server while diagnosing (e.g. --trace-gc, a --require'd probe).
const SERVER_NODE_OPTIONS = [
  process.env.BENCH_SERVER_NODE_OPTIONS ?? "",
  CPU_PROF_DIR ? `--import ${pathToFileURL(path.join(ROOT, "bench/lib/cpu-profile.mjs")).href}` : "",
]
  .filter(Boolean)
  .join(" ");

// lib/env.ts reads process.env once, at first import: give this process a scratch data dir and secrets before any
// project module loads, so nothing is written under the repository's own .data/.
const scratch = mkdtempSync(path.join(os.tmpdir(), "predmkt-bench-"));
Object.assign(process.env, { DATA_DIR: path.join(scratch, "tool"), JWT_SECRET, CRON_SECRET });
delete process.env.DATABASE_URL;

const startedAt = Date.now();
const elapsed = () => `${((Date.now() - startedAt) / 1000).toFixed(0).padStart(4)} s`;
const progress = (line: string) => console.log(`[bench ${elapsed()}] ${line}`);

interface Row {
  section: string;
  figure: string;
  value: string;
  database: string;
}
const rows: Row[] = [];
const figures: Record<string, unknown> = {};

async function main() {
  const processes = await import("./lib/processes");
  const { load, interleaved, statusText } = await import("./lib/load");
  const database = await import("./lib/database");
  const { seedHistory, databaseSize } = await import("./lib/seed-history");
  const { sampledReads } = await import("./sampled-reads");
  const realScale = await import("./real-scale");

  // One fixed directory (stamped with the source hash by ensureBuild): `next build` adds a new distDir's types to
  // tsconfig.json, so a directory per hash rewrote tsconfig.json on every bench build; this one is listed there.
  const distDir = ".next-bench";
  progress(`build: ${distDir} (reused when the sources are unchanged)`);
  ensureBuild(distDir, (line) => progress(line));

  progress(`starting the Polymarket simulator at scale "${SCALE}"`);
  const sim = await processes.startSimulatorProcess(SCALE, 1);
  const simWorld = (await (await fetch(`${sim.url}/__sim/world`)).json()) as {
    counts: Record<string, number>;
    samples: { multi_market_event_slugs: string[]; busiest_markets: { id: string }[] };
  };
  progress(`simulator: ${JSON.stringify(simWorld.counts)}`);
  const simCounters = async () => (await (await fetch(`${sim.url}/__sim/counters`)).json()) as Record<string, number>;
  const upstreamTotal = (c: Record<string, number>) =>
    Object.entries(c).reduce((sum, [k, v]) => (/^\/(gamma|data|clob)\//.test(k) ? sum + v : sum), 0);
  const resetCounters = () => fetch(`${sim.url}/__sim/counters/reset`, { method: "POST" }).then((r) => r.arrayBuffer());

  const usePostgres = await database.reachable(database.POSTGRES_ADMIN_URL);
  const serverData = path.join(scratch, "server");
  const db = usePostgres ? await database.createPostgresDatabase(`predmkt_bench_${process.pid}`) : database.embeddedDatabase(serverData);
  const dbLabel = db.kind === "postgresql" ? "PostgreSQL" : "PGlite (embedded)";
  progress(`database: ${dbLabel}${usePostgres ? "" : " (no PostgreSQL reachable at " + database.POSTGRES_ADMIN_URL + ")"}`);
  figures.database = db.kind;
  figures.simulator = simWorld.counts;
  figures.scale = SCALE;
  figures.skipped = [...SKIP];
  // The server's node flags: a heap cap changes its peak RSS (bench/README.md "Pass memory"), so a run says which it had.
  figures.server_node_options = SERVER_NODE_OPTIONS || null;
  figures.load_average = os.loadavg().map((n) => Math.round(n * 100) / 100);
  figures.machine = {
    cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model,
    node: process.version,
    memory_gb: Math.round(os.totalmem() / 1e9),
  };

  try {
    const server = await processes.startServer(distDir, {
      ...db.serverEnv,
      DATA_DIR: serverData,
      JWT_SECRET,
      CRON_SECRET,
      POLYMARKET_GAMMA_URL: `${sim.url}/gamma`,
      POLYMARKET_DATA_URL: `${sim.url}/data`,
      POLYMARKET_CLOB_URL: `${sim.url}/clob`,
      // The limiter stays in the path at full cost; the limit is only raised so that load runs are not answered 429.
      RATE_LIMIT_ENTERPRISE: "1000000000",
      ...(CPU_PROF_DIR ? { BENCH_CPU_PROF_DIR: CPU_PROF_DIR } : {}),
      ...(SERVER_NODE_OPTIONS ? { NODE_OPTIONS: SERVER_NODE_OPTIONS } : {}),
    });
    progress(`server: ${server.url}`);
    const key = await database.createKey(db.connectionString(), "enterprise");
    const auth = { authorization: `Bearer ${key}` };

    // ---- sampler ------------------------------------------------------------------------------------------------
    for (const pass of ["first (empty database)", "second (steady state)"]) {
      await resetCounters();
      progress(`sampler: ${pass} pass through GET /api/cron/sample ...`);
      const before = await database.withClient(
        db.connectionString(),
        async (c) =>
          (
            await c.query<{ samples: number; trades: number }>(
              `SELECT (SELECT count(*) FROM price_samples)::int AS samples, (SELECT count(*) FROM trades)::int AS trades`,
            )
          ).rows[0],
      );
      // The server's RSS (with its children) every 100 ms through the pass: its peak is the pass's memory.
      const rss = realScale.traceRss(server.pid, 100);
      const t = performance.now();
      const res = await fetch(`${server.url}/api/cron/sample`, {
        headers: { authorization: `Bearer ${CRON_SECRET}` },
        signal: AbortSignal.timeout(600_000),
      });
      const wall = (performance.now() - t) / 1000;
      const body = (await res.json()) as { data?: { status: string; counts: Record<string, number>; error: string | null } };
      const rssTrace = rss.stop();
      const upstream = upstreamTotal(await simCounters());
      const after = await database.withClient(
        db.connectionString(),
        async (c) =>
          (
            await c.query<{ samples: number; trades: number }>(
              `SELECT (SELECT count(*) FROM price_samples)::int AS samples, (SELECT count(*) FROM trades)::int AS trades`,
            )
          ).rows[0],
      );
      const counts = body.data?.counts ?? {};
      const key = pass.startsWith("first") ? "sampler_first_pass" : "sampler_second_pass";
      figures[key] = {
        status: body.data?.status ?? `HTTP ${res.status}`,
        wall_s: Math.round(wall * 10) / 10,
        upstream_requests: upstream,
        counts,
        new_price_samples: after.samples - before.samples,
        new_trades: after.trades - before.trades,
        error: body.data?.error ?? null,
        rss_mb: rssTrace,
      };
      progress(`sampler: ${body.data?.status} in ${wall.toFixed(1)} s, ${upstream} upstream requests, ${JSON.stringify(counts)}`);
      rows.push({
        section: "sampler",
        figure: `${pass} pass: wall time / upstream requests / server peak RSS (100 ms samples) / rows written`,
        value: `${wall.toFixed(1)} s / ${upstream} / peak RSS ${rssTrace.peak_mb} MB (from ${rssTrace.start_mb}) / ${counts.events ?? 0} events, ${counts.markets ?? 0} markets, ${counts.outcomes ?? 0} outcomes, ${after.samples - before.samples} samples, ${after.trades - before.trades} trades (${body.data?.status ?? res.status})`,
        database: dbLabel,
      });
      if (pass.startsWith("first")) await new Promise((r) => setTimeout(r, 5000));
    }

    // ---- gateway + handler cost -------------------------------------------------------------------------------
    // Not measured when skipped: the ratios that use these come out as NaN.
    let authed = { rps: Number.NaN, p50_ms: Number.NaN, p95_ms: Number.NaN, p99_ms: Number.NaN };
    let ping = authed;
    if (!SKIP.has("gateway")) {
      progress("gateway: capturing the sampled endpoint's response for the bare node:http baseline");
      const sampledPath = "/api/predmkt/stats";
      // autocannon sends no Accept-Encoding, so the server answers it uncompressed: capture those same bytes.
      const sample = await fetch(`${server.url}${sampledPath}`, { headers: { ...auth, "accept-encoding": "identity" } });
      const sampleBody = await sample.text();
      const sampleHeaders: Record<string, string> = {};
      sample.headers.forEach((v, k) => {
        if (!["content-length", "content-encoding", "date", "connection", "keep-alive", "transfer-encoding"].includes(k))
          sampleHeaders[k] = v;
      });
      const bare = await processes.startBareServer(sampleBody, sampleHeaders);
      const targets = [
        {
          name: "authenticated sampled endpoint (GET /api/predmkt/stats, key + limiter + DB)",
          url: `${server.url}${sampledPath}`,
          headers: auth,
        },
        { name: "unauthenticated empty route (GET /api/ping)", url: `${server.url}/api/ping`, headers: {} },
        { name: "bare node:http, same bytes as /api/predmkt/stats", url: bare.url, headers: {} },
        { name: "gateway only: unknown /api/predmkt/* path with a key (404)", url: `${server.url}/api/predmkt/none`, headers: auth },
        { name: "no gateway: unknown /api/* path (404)", url: `${server.url}/api/none`, headers: {} },
      ];
      progress(`gateway: warming up the ${targets.length} targets`);
      for (const target of targets) await load({ url: target.url, headers: target.headers, seconds: WARMUP_SECONDS });
      const ROUNDS = 4;
      const measured = await interleaved(targets, SECONDS, ROUNDS, (round) =>
        progress(`gateway: round ${round + 1}/${ROUNDS} over ${targets.length} targets, ${SECONDS / ROUNDS} s each, 10 connections`),
      );
      const gateway: Record<string, Omit<Awaited<ReturnType<typeof load>>, "times">> = {};
      targets.forEach((target, i) => {
        const { times: _, ...rest } = measured[i];
        gateway[target.name] = rest;
      });
      await bare.stop();
      figures.gateway = gateway;
      for (const [name, r] of Object.entries(gateway)) {
        rows.push({
          section: "gateway",
          figure: name,
          value: `${r.rps} req/s, p50 ${r.p50_ms} ms, p99 ${r.p99_ms} ms [${statusText(r.statuses)}]`,
          database: name.includes("stats") && !name.startsWith("bare") ? dbLabel : "–",
        });
      }
      const [authedRun, pingRun, bareRun, gated, open] = targets.map((t) => gateway[t.name]);
      [authed, ping] = [authedRun, pingRun];
      const ratio = (a: number, b: number) => (b ? (a / b).toPrecision(3) : "n/a");
      figures.gateway_ratios = {
        authed_vs_ping: {
          rps: Number(ratio(authed.rps, ping.rps)),
          p50: Number(ratio(authed.p50_ms, ping.p50_ms)),
          p99: Number(ratio(authed.p99_ms, ping.p99_ms)),
        },
        authed_vs_bare: {
          rps: Number(ratio(authed.rps, bareRun.rps)),
          p50: Number(ratio(authed.p50_ms, bareRun.p50_ms)),
          p99: Number(ratio(authed.p99_ms, bareRun.p99_ms)),
        },
        gateway_only_p50_added_ms: Math.round((gated.p50_ms - open.p50_ms) * 100) / 100,
      };
      rows.push({
        section: "gateway",
        figure: "ratio authenticated sampled / ping (req/s; p50; p99)",
        value: `${ratio(authed.rps, ping.rps)}; ${ratio(authed.p50_ms, ping.p50_ms)}; ${ratio(authed.p99_ms, ping.p99_ms)}`,
        database: dbLabel,
      });
      rows.push({
        section: "gateway",
        figure: "ratio authenticated sampled / bare node:http (req/s; p50; p99)",
        value: `${ratio(authed.rps, bareRun.rps)}; ${ratio(authed.p50_ms, bareRun.p50_ms)}; ${ratio(authed.p99_ms, bareRun.p99_ms)}`,
        database: dbLabel,
      });
      rows.push({
        section: "gateway",
        figure: "gateway alone (key + limiter + signed header), added p50",
        value: `${(gated.p50_ms - open.p50_ms).toFixed(2)} ms (throughput ratio ${ratio(gated.rps, open.rps)})`,
        database: dbLabel,
      });
    }

    // ---- -live fan-in -----------------------------------------------------------------------------------------
    if (!SKIP.has("fanin")) {
      const slug = simWorld.samples.multi_market_event_slugs[0];
      const livePath = `/api/predmkt/events/${slug}/activity-live?limit=25`;
      progress(`-live fan-in: 200 concurrent clients for ${FANIN_SECONDS} s on ${livePath}`);
      await resetCounters();
      const fanIn = await load({ url: `${server.url}${livePath}`, headers: auth, connections: 200, seconds: FANIN_SECONDS });
      const fanInCounters = await simCounters();
      const fanInUpstream = upstreamTotal(fanInCounters);
      figures.live_fan_in = {
        path: livePath,
        clients: 200,
        seconds: FANIN_SECONDS,
        client_requests: fanIn.requests,
        upstream_requests: fanInUpstream,
        upstream_by_path: fanInCounters,
        ratio: fanIn.requests / Math.max(1, fanInUpstream),
        load: { ...fanIn, times: undefined },
      };
      rows.push({
        section: "-live fan-in",
        figure: `200 clients × ${FANIN_SECONDS} s on event activity-live (TTL 10 s): client requests → upstream requests`,
        value: `${fanIn.requests} → ${fanInUpstream} (1 upstream per ${Math.round(fanIn.requests / Math.max(1, fanInUpstream))} client requests); p50 ${fanIn.p50_ms} ms, p99 ${fanIn.p99_ms} ms [${statusText(fanIn.statuses)}]`,
        database: "–",
      });
    }

    // BENCH_SKIP=reads: no history seeding and none of the reads below (a run of the two passes alone, e.g. for their RSS).
    if (!SKIP.has("reads")) {
      // ---- history and movers at the run's scale × 31 days ---------------------------------------------------------
      progress("history: seeding 31 days of samples for every stored outcome (server-side SQL, in chunks)");
      const seeded = await database.withClient(db.connectionString(), (c) => seedHistory(c, progress));
      figures.seed = seeded;
      progress(`history: seeded ${seeded.rows_total.toLocaleString("en-US")} rows in ${seeded.seconds} s`);
      if (CHURN_PER_DAY > 0 && !SKIP.has("churn")) {
        progress(`churn: storing ${CHURN_PER_DAY.toLocaleString("en-US")} short-lived markets a day for 31 days (server-side SQL)`);
        figures.churn = await database.withClient(db.connectionString(), (c) => realScale.seedChurn(c, CHURN_PER_DAY, 31, progress));
      }
      const size = await database.withClient(db.connectionString(), (c) => databaseSize(c));
      figures.database_size = size;
      const marketIds = await database.withClient(db.connectionString(), async (c) =>
        (await c.query(`SELECT id FROM markets WHERE open ORDER BY random() LIMIT 10000`)).rows.map((r: { id: string }) => r.id),
      );
      let next = 0;
      const historyPath = () => `/api/predmkt/markets/${marketIds[next++ % marketIds.length]}/history?window=30d`;
      progress(`history: GET markets/{random id}/history?window=30d (${SECONDS} s, 10 connections)`);
      await load({ url: server.url, headers: auth, seconds: WARMUP_SECONDS, path: historyPath });
      // The floor beside it, in turns under the same background: the empty route, and the gateway alone on a keyed path
      // (key + limiter, then 404 without a route behind it).
      const historyTargets = [
        { name: "history", url: server.url, headers: auth, path: historyPath },
        { name: "ping", url: `${server.url}/api/ping`, headers: {} },
        { name: "gateway_404", url: `${server.url}/api/predmkt/none`, headers: auth },
      ];
      if (CPU_PROF_DIR) {
        mkdirSync(CPU_PROF_DIR, { recursive: true });
        process.kill(server.pid, "SIGUSR2");
      }
      const [history, historyPing, historyGateway] = await interleaved(historyTargets, SECONDS, 4);
      if (CPU_PROF_DIR) {
        process.kill(server.pid, "SIGUSR2");
        const file = path.join(CPU_PROF_DIR, `phase1-${server.pid}.cpuprofile`);
        for (let i = 0; i < 100 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 100));
        const { summarize } = await import("./profile-summary");
        type Profile = Parameters<typeof summarize>[0];
        figures.history_cpu_profile = { file, ...summarize(JSON.parse(readFileSync(file, "utf8")) as Profile, 15) };
        progress(`history: CPU profile of the server during the history phase: ${file}`);
      }
      const probe = (await (
        await fetch(`${server.url}/api/predmkt/markets/${marketIds[0]}/history?window=30d`, { headers: auth })
      ).json()) as { data?: { points: unknown[] } };
      const floorOf = (r: typeof history) => ({ p50_ms: r.p50_ms, p95_ms: r.p95_ms, rps: r.rps });
      figures.history_30d = {
        ...history,
        times: undefined,
        points_in_one_answer: probe.data?.points.length ?? null,
        floor: { ping: floorOf(historyPing), gateway_404: floorOf(historyGateway) },
      };
      rows.push({
        section: "history",
        figure: "markets/{id}/history?window=30d (random market, 10 connections)",
        value: `p50 ${history.p50_ms} ms, p95 ${history.p95_ms} ms, ${history.rps} req/s, ~${probe.data?.points.length ?? "?"} points each [${statusText(history.statuses)}]`,
        database: dbLabel,
      });
      rows.push({
        section: "history",
        figure: "floor beside it, in turns: /api/ping; keyed path without a route (gateway, 404)",
        value: `p50 ${historyPing.p50_ms} ms, p95 ${historyPing.p95_ms} ms (${historyPing.rps} req/s); p50 ${historyGateway.p50_ms} ms, p95 ${historyGateway.p95_ms} ms (${historyGateway.rps} req/s)`,
        database: "–",
      });

      // Movers (first request after a real pass, warm), conditional requests and the optional soak: bench/sampled-reads.ts.
      figures.sampled_reads = await sampledReads({
        serverUrl: server.url,
        serverPid: server.pid,
        connectionString: db.connectionString(),
        auth,
        cronSecret: CRON_SECRET,
        marketIds,
        seconds: SECONDS,
        dbLabel,
        progress,
        rows,
        stats: authed,
        ping,
        history,
        skip: SKIP,
      });

      // ---- a burst of fills in one market (bench/real-scale.ts) ------------------------------------------------------
      if (!SKIP.has("burst")) {
        const burst = await realScale.burstOneMarket(
          { serverUrl: server.url, connectionString: db.connectionString(), auth, marketIds, progress, withClient: database.withClient },
          BURST_FILLS,
        );
        figures.burst_one_market = burst;
        progress(`burst: scored in ${burst.scoring_s} s, API p99 ${burst.api_p99_ms} ms meanwhile`);
      }
      const tiers = Object.entries(seeded.rows_by_resolution)
        .map(([r, n]) => `${r}s ${n.toLocaleString("en-US")}`)
        .join(", ");
      rows.push({
        section: "history",
        figure: "seeded history (31 d, change-only density)",
        value: `${seeded.markets} markets, ${seeded.outcomes} outcomes; ${seeded.rows_total.toLocaleString("en-US")} rows (${tiers}) in ${seeded.seconds} s`,
        database: dbLabel,
      });
      rows.push({
        section: "history",
        figure: "database size",
        value: `${size.total_mb} MB total; price_samples ${size.tables.price_samples?.mb ?? "?"} MB, trades ${size.tables.trades?.mb ?? "?"} MB`,
        database: dbLabel,
      });
    }

    await server.stop();

    // ---- live stream (bench/stream.ts) --------------------------------------------------------------------------
    if (!SKIP.has("stream"))
      await (
        await import("./stream")
      ).streamBench({
        distDir,
        simUrl: sim.url,
        jwtSecret: JWT_SECRET,
        cronSecret: CRON_SECRET,
        scratch,
        progress,
        addRow: (figure, value, database) => rows.push({ section: "stream", figure, value, database }),
        figures,
      });

    // ---- live feed: the whole ingest worker at real frame rates (bench/live-worker.ts) ------------------------------
    // On the run's database, which already lists the simulator's markets: the worker's own first pass is a short one.
    if (!SKIP.has("livefeed"))
      await (
        await import("./live-worker")
      ).liveWorkerBench({
        simUrl: sim.url,
        scratch,
        jwtSecret: JWT_SECRET,
        cronSecret: CRON_SECRET,
        progress,
        addRow: (figure, value) => rows.push({ section: "live feed", figure, value, database: "PostgreSQL" }),
        figures,
        database: db.kind === "postgresql" ? { connectionString: db.connectionString() } : undefined,
      });
  } finally {
    // ---- rate limiter (no server needed; each store in its own process) ----------------------------------------
    if (!SKIP.has("ratelimit")) await rateLimiter().catch((error) => progress(`rate limiter: failed: ${(error as Error).message}`));
    if (!SKIP.has("oracle"))
      await (
        await import("./oracle")
      )
        .oracleBench(progress, rows, figures)
        .catch((error) => progress(`oracle: failed: ${(error as Error).message}`));
    // Issue 29's figures in one place, each printed beside its goal.
    (await import("./real-scale")).assembleRealScale(figures, rows);
    await processes.stopAll();
    await db.drop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function rateLimiter() {
  const database = await import("./lib/database");
  const run = promisify(execFile);
  const probe = async (env: Record<string, string>) => {
    const base: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(REDIS_URL|UPSTASH_REDIS_REST_)/.test(k)) base[k] = v;
    const { stdout } = await run(process.execPath, ["--import", "tsx", "bench/ratelimit-probe.ts"], {
      cwd: ROOT,
      env: { ...base, ...env } as NodeJS.ProcessEnv,
      timeout: 120_000,
    });
    return JSON.parse(stdout.trim().split("\n").pop()!) as {
      configured: string;
      answered_by: string[];
      p50_us: number;
      p99_us: number;
      mean_us: number;
    };
  };
  const results: Record<string, unknown> = {};
  progress("rate limiter: in-process memory store");
  const memory = await probe({});
  results.memory = memory;
  const redisUrl = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
  const add = (label: string, r: typeof memory) =>
    rows.push({
      section: "rate limiter",
      figure: `added latency per request, ${label}`,
      value: `p50 ${r.p50_us} µs, p99 ${r.p99_us} µs (answered by ${r.answered_by.join("+")})`,
      database: "–",
    });
  add("in-process memory store", memory);
  if (await database.reachable(redisUrl)) {
    progress("rate limiter: Redis (REDIS_URL, ioredis)");
    const redis = await probe({ REDIS_URL: redisUrl });
    results.redis = redis;
    add("Redis (REDIS_URL)", redis);
    const { startUpstashShim } = await import("../sim/upstash/server");
    const shim = await startUpstashShim({ redisUrl });
    try {
      progress("rate limiter: Upstash REST (local shim over the same Redis)");
      const upstash = await probe({ UPSTASH_REDIS_REST_URL: shim.url, UPSTASH_REDIS_REST_TOKEN: shim.token });
      results.upstash_rest_local = upstash;
      add("Upstash REST protocol (local shim → Redis; add the network RTT to Upstash in production)", upstash);
    } finally {
      await shim.close();
    }
  } else {
    rows.push({ section: "rate limiter", figure: "Redis", value: `not measured: no Redis reachable at ${redisUrl}`, database: "–" });
  }
  figures.rate_limiter = results;
}

main()
  .then(() => {
    console.log("");
    console.log(
      `predmkt benchmark, ${new Date().toISOString()}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? "?"}), node ${process.version}, total ${elapsed().trim()}`,
    );
    console.table(rows.map((r) => ({ section: r.section, figure: r.figure, value: r.value, db: r.database })));
    const dir = path.join(ROOT, "bench/results");
    mkdirSync(dir, { recursive: true });
    const out = {
      at: new Date().toISOString(),
      seconds_per_run: SECONDS,
      total_s: Math.round((Date.now() - startedAt) / 1000),
      rows,
      figures,
    };
    const stamp = out.at.replace(/[:.]/g, "-");
    writeFileSync(path.join(dir, `bench-${stamp}.json`), `${JSON.stringify(out, null, 2)}\n`);
    writeFileSync(path.join(dir, "latest.json"), `${JSON.stringify(out, null, 2)}\n`);
    console.log(`figures written to bench/results/bench-${stamp}.json and bench/results/latest.json`);
    process.exit(0);
  })
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
