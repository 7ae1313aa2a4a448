// Probe: our own code path of `markets/{id}/history?window=30d` without Next's routing — the route's handler
// (withApi and everything under it) called in process with a signed gateway header, on PostgreSQL.
//   setup:   npx tsx bench/history-probe.ts setup    (demo world, one pass, 31 days of history into predmkt_probe_sl)
//   measure: npx tsx bench/history-probe.ts measure  (sequential and 10 in flight; PROBE_PROF=1 adds a CPU profile)
//   drop:    npx tsx bench/history-probe.ts drop
import os from "node:os";
import path from "node:path";
import { mkdtempSync } from "node:fs";
import { Session } from "node:inspector/promises";

const DB = "predmkt_probe_sl";
const ADMIN = process.env.BENCH_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const url = Object.assign(new URL(ADMIN), { pathname: `/${DB}` }).toString();
const scratch = mkdtempSync(path.join(os.tmpdir(), "probe-"));
Object.assign(process.env, {
  DATA_DIR: scratch,
  JWT_SECRET: "bench-jwt-secret-0123456789abcdef0123456789",
  CRON_SECRET: "bench-cron-secret-0123456789abcdef0123",
  DATABASE_URL: url,
});
// `pass <simulator url>`: the child of setup that runs the pass (lib/env reads the upstream URLs at first import).
if (process.argv[2] === "pass") {
  const sim = process.argv[3];
  Object.assign(process.env, {
    POLYMARKET_GAMMA_URL: `${sim}/gamma`,
    POLYMARKET_DATA_URL: `${sim}/data`,
    POLYMARKET_CLOB_URL: `${sim}/clob`,
  });
}

const pct = (s: number[], p: number) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
const r2 = (n: number) => Math.round(n * 100) / 100;

async function setup() {
  const processes = await import("./lib/processes");
  const database = await import("./lib/database");
  const sim = await processes.startSimulatorProcess("demo", 1);
  await database.createPostgresDatabase(DB);
  const { execFileSync } = await import("node:child_process");
  execFileSync(process.execPath, ["--import", "tsx", __filename, "pass", sim.url], { stdio: "inherit" });
  const { seedHistory } = await import("./lib/seed-history");
  await database.withClient(url, (c) => seedHistory(c, (l) => console.log(l)));
  await processes.stopAll();
  process.exit(0);
}

async function measure() {
  (process.env as Record<string, string>).NODE_ENV = "production"; // as `next start`: no response-shape checks
  const { NextRequest } = await import("next/server");
  const { signGatewayHeader } = await import("@/lib/auth/gateway");
  const { GET } = await import("@/app/api/predmkt/markets/[id]/history/route");
  const { withClient } = await import("./lib/database");
  const ids = await withClient(url, async (c) =>
    (await c.query<{ id: string }>(`SELECT id FROM markets WHERE open ORDER BY id`)).rows.map((r) => r.id),
  );
  const client = { keyId: "0d9f3c1e-0000-4000-8000-000000000001", tier: "enterprise" as const, via: "api_key" as const };
  let n = 0;
  let bytes = 0;
  const once = async () => {
    const id = ids[(n++ * 7919) % ids.length]; // 7919 is prime: a permutation of the ids
    const requestId = crypto.randomUUID();
    const request = new NextRequest(`http://localhost/api/predmkt/markets/${id}/history?window=30d`, {
      headers: { "x-request-id": requestId, "x-predmkt-gateway": signGatewayHeader(client, requestId) },
    });
    const t = performance.now();
    const res = await GET(request, { params: Promise.resolve({ id }) });
    bytes += (await res.arrayBuffer()).byteLength;
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    return performance.now() - t;
  };
  // Every request a miss, as in the bench (a random market each): each market once per run, the answer cache emptied.
  const { clearAnswerCache } = await import("@/lib/api/cached-answer");
  const run = async (count: number, inFlight: number) => {
    clearAnswerCache();
    n = 0;
    count = Math.min(count, ids.length);
    const times: number[] = [];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (times.length < count) times.push(await once());
      }),
    );
    const wall = performance.now() - started;
    times.sort((a, b) => a - b);
    return { n: times.length, p50: r2(pct(times, 50)), p95: r2(pct(times, 95)), per_s: Math.round((times.length / wall) * 1000) };
  };
  await run(500, 10); // warm-up
  const session = process.env.PROBE_PROF ? new Session() : null;
  if (session) {
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.start");
  }
  const count = Number(process.env.PROBE_N ?? 3000);
  const sequential = await run(count, 1);
  const ten = await run(count, 10);
  console.log(
    JSON.stringify({ markets: ids.length, load: os.loadavg().map(r2), sequential, ten, avg_bytes: Math.round(bytes / (n || 1)) }),
  );
  if (session) {
    const { profile } = await session.post("Profiler.stop");
    const file = path.join(os.tmpdir(), `history-probe-${process.pid}.cpuprofile`);
    (await import("node:fs")).writeFileSync(file, JSON.stringify(profile));
    console.log(`profile: ${file} (npx tsx bench/profile-summary.ts ${file})`);
  }
  process.exit(0);
}

async function pass() {
  const { runSamplerPassNow } = await import("@/lib/server/jobs");
  const result = await runSamplerPassNow("probe");
  console.log("pass", result.status, JSON.stringify(result.counts));
  process.exit(0);
}

/** The history statement alone, through the Prisma client and through a plain pg pool: what the client adds. */
async function statement() {
  const { getDb } = await import("@/lib/db/client");
  const { historyStatement } = await import("@/lib/predmkt/history");
  const pg = (await import("pg")).default;
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const db = await getDb();
  const ids = (await pool.query<{ id: string }>(`SELECT id FROM markets WHERE open ORDER BY id`)).rows.map((r) => r.id);
  const via = {
    prisma: async (id: string) => {
      const { sql, params } = historyStatement(id, "30d");
      await db.$queryRawUnsafe(sql, ...params);
    },
    pg: async (id: string) => {
      const { sql, params } = historyStatement(id, "30d");
      await pool.query(sql, params);
    },
    pg_named: async (id: string) => {
      const { sql, params } = historyStatement(id, "30d");
      await pool.query({ name: "history-probe", text: sql, values: params });
    },
  };
  for (let round = 0; round < 3; round++) {
    for (const [name, run] of Object.entries(via)) {
      const times: number[] = [];
      const cpu = process.cpuUsage();
      const started = performance.now();
      for (const id of ids) {
        const t = performance.now();
        await run(id);
        times.push(performance.now() - t);
      }
      const wall = performance.now() - started;
      const used = process.cpuUsage(cpu);
      times.sort((a, b) => a - b);
      console.log(
        JSON.stringify({
          via: name,
          n: ids.length,
          p50: r2(pct(times, 50)),
          p95: r2(pct(times, 95)),
          cpu_ms_per_query: r2((used.user + used.system) / 1000 / ids.length),
          wall_ms_per_query: r2(wall / ids.length),
          load: os.loadavg().map(r2),
        }),
      );
    }
  }
  process.exit(0);
}

async function drop() {
  const { withClient } = await import("./lib/database");
  await withClient(ADMIN, (c) => c.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`));
}

const mode = process.argv[2];
void (
  mode === "setup" ? setup() : mode === "pass" ? pass() : mode === "drop" ? drop() : mode === "statement" ? statement() : measure()
).catch((e) => {
  console.error(e);
  process.exit(1);
});
