// `npm run bench:pass-memory`: the sampler pass alone, quickly and repeatably — the simulator's world at BENCH_SCALE
// (default "real", 26,250 open markets), a fresh PostgreSQL database (or the embedded one when none is reachable), and
// BENCH_PASSES passes (default 2: the first on the empty database, then a steady one) run the cron route's way
// (the pass and its after-pass listeners) in a child process whose resident memory is read from /proc every 100 ms.
// Prints wall time, upstream requests (the simulator's counters) and peak RSS per pass, and writes the RSS trace
// beside the child's own log lines to bench/results/pass-memory-trace.json (where in the pass the memory went).
// After the first pass every outcome gets a price a day and a week back (on PostgreSQL), so the later passes'
// after-pass movers find a change for every open market, as in production once a week of history is stored
// (BENCH_PASS_HISTORY=0 leaves it out). No Next build: the full server's figure is bench/run.ts's (bench/README.md
// "Real scale"); this one is for iterating on the pass. BENCH_PASS_NODE_OPTIONS adds node flags to the child (e.g.
// `--trace-gc-nvp`, `--require` of a probe).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "../scripts/lib/build";

const SCALE = (process.env.BENCH_SCALE ?? "real") as "real" | "bench" | "demo";
const PASSES = Number(process.env.BENCH_PASSES ?? 2);
const HISTORY = process.env.BENCH_PASS_HISTORY !== "0";
const JWT_SECRET = "bench-jwt-secret-0123456789abcdef0123456789";
const CRON_SECRET = "bench-cron-secret-0123456789abcdef0123";

const scratch = mkdtempSync(path.join(os.tmpdir(), "predmkt-pass-memory-"));
Object.assign(process.env, { DATA_DIR: path.join(scratch, "tool"), JWT_SECRET, CRON_SECRET });
delete process.env.DATABASE_URL;

const startedAt = Date.now();
const progress = (line: string) => console.log(`[pass-memory ${((Date.now() - startedAt) / 1000).toFixed(0).padStart(4)} s] ${line}`);

interface PassAnswer {
  pass: number;
  wall_s: number;
  status: string;
  error: string | null;
  counts: Record<string, number>;
  upstream_requests: Record<string, number>;
  memory_after_mb: Record<string, number>;
}

async function main() {
  const processes = await import("./lib/processes");
  const database = await import("./lib/database");
  const { treeRssMb } = await import("./sampled-reads");

  progress(`starting the Polymarket simulator at scale "${SCALE}"`);
  const sim = await processes.startSimulatorProcess(SCALE, 1);
  const world = (await (await fetch(`${sim.url}/__sim/world`)).json()) as { counts: Record<string, number> };
  progress(`simulator: ${JSON.stringify(world.counts)}`);
  const counters = async () => (await (await fetch(`${sim.url}/__sim/counters`)).json()) as Record<string, number>;
  const upstreamTotal = (c: Record<string, number>) =>
    Object.entries(c).reduce((sum, [k, v]) => (/^\/(gamma|data|clob)\//.test(k) ? sum + v : sum), 0);

  const usePostgres = await database.reachable(database.POSTGRES_ADMIN_URL);
  const dataDir = path.join(scratch, "runner");
  const db = usePostgres ? await database.createPostgresDatabase(`predmkt_passmem_${process.pid}`) : null;
  progress(`database: ${db ? "PostgreSQL" : "PGlite (embedded, in the child)"}`);

  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  Object.assign(env, db?.serverEnv ?? {}, {
    DATA_DIR: dataDir,
    NODE_ENV: "production",
    POLYMARKET_GAMMA_URL: `${sim.url}/gamma`,
    POLYMARKET_DATA_URL: `${sim.url}/data`,
    POLYMARKET_CLOB_URL: `${sim.url}/clob`,
  });
  const extra = (process.env.BENCH_PASS_NODE_OPTIONS ?? "").split(/\s+/).filter(Boolean);
  const child: ChildProcess = spawn(process.execPath, [...extra, "--import", "tsx", "bench/lib/pass-runner.ts"], {
    cwd: ROOT,
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  // The child's log lines, stamped on arrival: the trace shows which stage each stretch of memory belongs to.
  const lines: { t_ms: number; line: string }[] = [];
  const onLine = (chunk: Buffer) => {
    for (const line of chunk.toString().split("\n").filter(Boolean))
      lines.push({ t_ms: Date.now() - startedAt, line: line.slice(0, 4000) });
  };
  child.stdout!.on("data", onLine);
  child.stderr!.on("data", onLine);
  const messages: unknown[] = [];
  let wake: (() => void) | null = null;
  child.on("message", (m) => {
    messages.push(m);
    wake?.();
  });
  const exited = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`the pass runner exited (${code}):\n${lines.map((l) => l.line).join("\n")}`))),
  );
  const next = async <T>(): Promise<T> => {
    while (messages.length === 0) await Promise.race([new Promise<void>((r) => (wake = r)), exited]);
    return messages.shift() as T;
  };

  const trace: { t_ms: number; pass: number; rss_mb: number }[] = [];
  const results: (PassAnswer & { upstream_total: number; rss_mb: { start: number; peak: number; samples: number } })[] = [];
  try {
    await next<{ ready: true }>();
    for (let pass = 1; pass <= PASSES; pass++) {
      await fetch(`${sim.url}/__sim/counters/reset`, { method: "POST" }).then((r) => r.arrayBuffer());
      const start = treeRssMb(child.pid!);
      let peak = start;
      let samples = 1;
      const timer = setInterval(() => {
        const rss = treeRssMb(child.pid!);
        trace.push({ t_ms: Date.now() - startedAt, pass, rss_mb: rss });
        peak = Math.max(peak, rss);
        samples++;
      }, 100);
      progress(`pass ${pass}: running (RSS ${start} MB)`);
      child.send({ pass });
      const answer = await next<PassAnswer>();
      clearInterval(timer);
      peak = Math.max(peak, treeRssMb(child.pid!));
      const upstream = upstreamTotal(await counters());
      results.push({ ...answer, upstream_total: upstream, rss_mb: { start, peak, samples: samples + 1 } });
      progress(
        `pass ${pass}: ${answer.status} in ${answer.wall_s} s, ${upstream} upstream requests, peak RSS ${peak} MB (from ${start}), ` +
          `after: ${JSON.stringify(answer.memory_after_mb)}, ${JSON.stringify(answer.counts)}${answer.error ? `, error: ${answer.error}` : ""}`,
      );
      if (pass === 1 && HISTORY && db) {
        // A price a day and a week back for every outcome, first sampled before both: each mover window has a start.
        const rows = await database.withClient(db.connectionString(), async (c) => {
          await c.query(`UPDATE outcomes SET first_sampled_at = first_sampled_at - interval '9 days' WHERE first_sampled_at IS NOT NULL`);
          const added = await c.query(
            `INSERT INTO price_samples (outcome_id, resolution_s, t, price)
             SELECT id, 60, priced_at - interval '25 hours', price * 0.9 FROM outcomes WHERE price IS NOT NULL
             UNION ALL
             SELECT id, 900, date_trunc('hour', priced_at) - interval '7 days 1 hour', price * 0.8 FROM outcomes WHERE price IS NOT NULL
             ON CONFLICT DO NOTHING`,
          );
          return added.rowCount ?? 0;
        });
        progress(`history: ${rows} price rows a day and a week back, so every open market has a move in every window`);
      }
    }
  } finally {
    child.kill("SIGTERM");
    await processes.stopAll();
    await db?.drop();
    rmSync(scratch, { recursive: true, force: true });
  }
  const dir = path.join(ROOT, "bench/results");
  mkdirSync(dir, { recursive: true });
  const out = {
    at: new Date().toISOString(),
    scale: SCALE,
    database: db ? "postgresql" : "pglite",
    simulator: world.counts,
    load_average: os.loadavg().map((n) => Math.round(n * 100) / 100),
    history: HISTORY && db !== null,
    node_options: extra,
    passes: results.map(({ upstream_requests: _, ...r }) => r),
    trace,
    log: lines,
  };
  writeFileSync(path.join(dir, "pass-memory-trace.json"), `${JSON.stringify(out, null, 2)}\n`);
  console.table(
    results.map((r) => ({
      pass: r.pass,
      status: r.status,
      wall_s: r.wall_s,
      upstream: r.upstream_total,
      start_rss_mb: r.rss_mb.start,
      peak_rss_mb: r.rss_mb.peak,
      markets: r.counts.markets,
    })),
  );
  progress(`load average ${out.load_average.join(" ")}; trace in bench/results/pass-memory-trace.json`);
}

main()
  .then(() => process.exit(0))
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
