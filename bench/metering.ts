// Throughput before and after usage metering (README "API keys", usage): two production servers from two builds of
// the same tree, one without the metering hooks (`before`) and one with them (`after`), each on its own embedded
// database with its own enterprise key, loaded in alternating runs (A B B A ...) so that background load hits both
// alike. The figure is the median req/s of each side's runs on `GET /api/predmkt/stats` (key lookup, limiter, handler).
//   BENCH_BEFORE_DIST=.next-bench-before BENCH_AFTER_DIST=.next-test npx tsx bench/metering.ts
//   BENCH_ROUNDS=6 BENCH_SECONDS=8 BENCH_CONNECTIONS=10 (defaults)
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createKey, embeddedDatabase } from "./lib/database";
import { load, type LoadResult } from "./lib/load";
import { startServer, stopAll } from "./lib/processes";
import { recordUsage } from "@/lib/keys/usage-meter";

const BEFORE_DIST = process.env.BENCH_BEFORE_DIST ?? ".next-bench-before";
const AFTER_DIST = process.env.BENCH_AFTER_DIST ?? ".next-test";
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const TARGET = "/api/predmkt/stats";
const dataDirs: string[] = [];

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function side(name: string, distDir: string) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `predmkt-bench-${name}-`));
  dataDirs.push(dataDir);
  const database = embeddedDatabase(dataDir);
  // No sampler (the answer is the empty-database stats either way) and a limit the load cannot reach.
  const server = await startServer(distDir, { ...database.serverEnv, SAMPLER_INTERVAL_S: "0", RATE_LIMIT_ENTERPRISE: "10000000" });
  const key = await createKey(database.connectionString(), "enterprise");
  const headers = { authorization: `Bearer ${key}` };
  const check = await fetch(`${server.url}${TARGET}`, { headers });
  if (check.status !== 200) throw new Error(`${name}: ${TARGET} answered ${check.status}: ${await check.text()}`);
  return { name, url: `${server.url}${TARGET}`, headers, runs: [] as LoadResult[] };
}

/**
 * The metering hook's own cost, without a server's noise: `recordUsage` called in this process over a realistic spread
 * of keys and operations (the flush timer it starts is stopped before it first fires, so nothing is written).
 */
function hookCost(calls = 1_000_000): number {
  const keys = Array.from({ length: 50 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
  const operations = ["GET /api/predmkt/stats", "GET /api/predmkt/events/{slug}", "GET /api/predmkt/movers", "POST /api/auth/token"];
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) recordUsage(keys[i % keys.length], operations[i % operations.length], i % 17 ? 200 : 429);
  const elapsedNs = Number(process.hrtime.bigint() - started);
  const meter = (globalThis as { __predmktUsageMeter?: { timer: NodeJS.Timeout | null; pending: Map<string, number> } })
    .__predmktUsageMeter;
  if (meter?.timer) clearInterval(meter.timer);
  meter?.pending.clear();
  return elapsedNs / calls;
}

async function main() {
  const nsPerCall = hookCost();
  console.log(`recordUsage: ${nsPerCall.toFixed(0)} ns per call`);
  const before = await side("before", BEFORE_DIST);
  const after = await side("after", AFTER_DIST);
  // Warm both (JIT, caches) before measuring.
  for (const s of [before, after]) await load({ url: s.url, headers: s.headers, connections: CONNECTIONS, seconds: 2 });
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [after, before] : [before, after];
    for (const s of order) {
      const result = await load({ url: s.url, headers: s.headers, connections: CONNECTIONS, seconds: SECONDS });
      s.runs.push(result);
      console.log(`round ${round + 1} ${s.name.padEnd(6)} ${result.rps} req/s p50 ${result.p50_ms} ms ${JSON.stringify(result.statuses)}`);
    }
  }
  const figures = [before, after].map((s) => ({
    name: s.name,
    runs: s.runs.map((r) => r.rps),
    median_rps: median(s.runs.map((r) => r.rps)),
    median_p50_ms: median(s.runs.map((r) => r.p50_ms)),
    non_200: s.runs.reduce((n, r) => n + r.requests - (r.statuses["200"] ?? 0), 0),
  }));
  const [b, a] = figures;
  // Each round's pair ran back to back, so its ratio is less exposed to drifting background load than the medians.
  const ratios = before.runs.map((r, i) => after.runs[i].rps / r.rps);
  console.log(
    JSON.stringify(
      {
        target: TARGET,
        connections: CONNECTIONS,
        seconds: SECONDS,
        rounds: ROUNDS,
        record_usage_ns: Math.round(nsPerCall),
        figures,
        ratios,
      },
      null,
      2,
    ),
  );
  console.log(
    `median throughput: before ${b.median_rps} req/s, after ${a.median_rps} req/s ` +
      `(${(((a.median_rps - b.median_rps) / b.median_rps) * 100).toFixed(1)} %); median paired ratio after/before ${median(ratios).toFixed(3)}; ` +
      `hook ${nsPerCall.toFixed(0)} ns = ${((nsPerCall / 1e6 / a.median_p50_ms) * 100).toFixed(4)} % of a median request's p50`,
  );
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(async () => {
    await stopAll();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });
