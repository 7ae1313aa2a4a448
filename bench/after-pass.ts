// First read after a pass in the self-hosted setup (`npm start` + `npm run worker` on one PostgreSQL): the worker
// runs the sampler passes, the server only reads. Before the composition root (lib/server/jobs.ts) nothing in the
// server computed a pass's aggregates, so the first reader of each paid for them; now the server sees the worker's
// pass within PASS_WATCH_MS and computes them at once. This runs the real worker (`scripts/worker.ts`, a child) against
// the simulator and plays the server's reading side in this process (the services an endpoint calls, without HTTP),
// with PASS_WATCH_MS=0 (the old behaviour: readers pay) and then the default.
//   npx tsx bench/after-pass.ts            both modes, BENCH_PASSES passes each (default 4)
// Prints, per mode, the time of the first read of each aggregate after each pass (p50 and max over the passes).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const PASSES = Number(process.env.BENCH_PASSES ?? 4);
const INTERVAL_S = Number(process.env.BENCH_SAMPLER_INTERVAL_S ?? 30);
// A reader arrives this long after the pass ended (it is seen by then in both modes).
const READER_DELAY_MS = Number(process.env.BENCH_READER_DELAY_MS ?? 12000);
const ROOT = path.resolve(__dirname, "..");

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

async function runMode(watchMs: number): Promise<Record<string, number[]>> {
  const name = `bench_afterpass_${process.pid}_${watchMs}`;
  const url = `postgresql://postgres@127.0.0.1:5432/${name}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-afterpass-"));
  // The reading side's settings, read once by lib/env when the modules below are first imported.
  // A PostgreSQL deployment needs its secrets in the environment (any 32+ characters for a bench).
  const secret = "bench-after-pass-secret-0123456789abcdef";
  Object.assign(process.env, {
    DATABASE_URL: url,
    PASS_WATCH_MS: String(watchMs),
    DATA_DIR: dataDir,
    SAMPLER_INTERVAL_S: "0",
    JWT_SECRET: secret,
    CRON_SECRET: secret,
  });
  const { createPostgresDatabase } = await import("./lib/database");
  const { startSimulator } = await import("../sim/polymarket");
  const database = await createPostgresDatabase(name);
  const sim = await startSimulator({ seed: 7, scale: "demo" });
  const worker: ChildProcess = spawn(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/worker.ts"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      ...sim.env,
      POLYMARKET_CLOB_WS_URL: sim.clobWsUrl,
      POLYMARKET_RTDS_URL: sim.rtdsUrl,
      ETH_RPC_URL: "http://127.0.0.1:9",
      POLYGON_RPC_URL: "http://127.0.0.1:9",
      SAMPLER_INTERVAL_S: String(INTERVAL_S),
      LOG_LEVEL: "warn",
    },
  });
  const { currentPass } = await import("../lib/predmkt/pass-clock");
  const { startJobs } = await import("../lib/server/jobs");
  const { getStats } = await import("../lib/predmkt/events");
  const { movers } = await import("../lib/predmkt/movers");
  const { listWhales } = await import("../lib/predmkt/whales");
  const { abnormalTrades } = await import("../lib/predmkt/trades");
  const { closeDb } = await import("../lib/db/client");
  const jobs = await startJobs({ passWatchMs: watchMs });
  const reads: [string, () => Promise<unknown>][] = [
    ["stats", getStats],
    ["movers 1h", () => movers("1h", 20)],
    ["abnormal", () => abnormalTrades(20)],
    ["whales", () => listWhales({ limit: 20 })],
  ];
  const times: Record<string, number[]> = Object.fromEntries(reads.map(([n]) => [n, []]));
  try {
    let seen = (await currentPass()).generation;
    for (let pass = 0; pass < PASSES;) {
      await new Promise((r) => setTimeout(r, 200));
      const stamp = await currentPass();
      if (stamp.generation === seen || !stamp.endedAt) continue;
      seen = stamp.generation;
      await new Promise((r) => setTimeout(r, Math.max(0, stamp.endedAt!.getTime() + READER_DELAY_MS - Date.now())));
      for (const [n, read] of reads) {
        const started = performance.now();
        await read();
        times[n].push(Math.round(performance.now() - started));
      }
      pass += 1;
      console.error(`  PASS_WATCH_MS=${watchMs} pass ${pass}: ${reads.map(([n]) => `${n} ${times[n].at(-1)} ms`).join(", ")}`);
    }
  } finally {
    await jobs.stop();
    worker.kill("SIGTERM");
    await new Promise((r) => worker.once("exit", r));
    await closeDb();
    await sim.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return times;
}

async function main() {
  const mode = process.env.BENCH_PASS_WATCH_MS;
  if (mode !== undefined) {
    console.log(JSON.stringify(await runMode(Number(mode))));
    return;
  }
  // Each mode in its own process: the settings are read once per process.
  for (const watchMs of [0, 1000]) {
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), __filename], {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "inherit"],
        env: { ...process.env, BENCH_PASS_WATCH_MS: String(watchMs) },
      });
      let stdout = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.once("exit", (code) => (code === 0 ? resolve(stdout) : reject(new Error(`mode ${watchMs} exited ${code}`))));
    });
    const times = JSON.parse(out.trim().split("\n").at(-1)!) as Record<string, number[]>;
    const label =
      watchMs === 0 ? "readers pay (PASS_WATCH_MS=0, as before)" : `server computes on seeing the pass (PASS_WATCH_MS=${watchMs})`;
    console.log(`first read after a worker's pass, ${label}:`);
    for (const [n, xs] of Object.entries(times))
      console.log(`  ${n.padEnd(10)} p50 ${percentile(xs, 50)} ms, max ${Math.max(...xs)} ms (${xs.join(", ")})`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
