// Probe: our own code path of `markets/{id}/history?window=30d` without Next's routing — the route's handler
// (withApi and everything under it) called in process with a signed gateway header, on PostgreSQL.
//   setup:   npx tsx bench/history-probe.ts setup    (demo world, one pass, 31 days of history into predmkt_probe_sl)
//   measure: npx tsx bench/history-probe.ts measure  (sequential and 10 in flight; PROBE_PROF=1 adds a CPU profile)
//   server:  npx tsx bench/history-probe.ts server   (the production server on that database: history 30d of a random
//            market, every request a miss, beside its floor in turns at 10 connections: /api/ping, a keyed 404 and the
//            history route's own 400; with the server's and PostgreSQL's CPU per request. PROBE_SECONDS per target
//            (default 8); PROBE_SEQUENTIAL=<n> adds n requests one at a time per target, identity and gzip;
//            PROBE_PROF=<dir> one CPU profile per target (bench/lib/cpu-profile.mjs); PROBE_DIST / PROBE_BUILD=0 the
//            build served)
//   drop:    npx tsx bench/history-probe.ts drop
//   PROBE_DB names the database (default predmkt_probe_sl).
import os from "node:os";
import path from "node:path";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { Session } from "node:inspector/promises";

const DB = process.env.PROBE_DB ?? "predmkt_probe_sl"; // PROBE_DB: another name, so two probes on one server do not share a database
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

/** CPU time (user + system, ms) of a process and its children so far (/proc; the server may fork). */
function serverCpuMs(pid: number, part: "all" | "system" | "main" = "all"): number {
  const tick = 1000 / 100; // USER_HZ
  const of = (p: number): number => {
    try {
      // "main": the JavaScript thread alone (/proc/<pid>/task/<pid>), without V8's GC helpers and libuv's pool.
      const stat = part === "main" ? `/proc/${p}/task/${p}/stat` : `/proc/${p}/stat`;
      const fields = readFileSync(stat, "utf8").split(") ")[1].split(" ");
      const own = ((part === "system" ? 0 : Number(fields[11])) + Number(fields[12])) * tick; // utime, stime
      const kids = existsSync(`/proc/${p}/task/${p}/children`)
        ? readFileSync(`/proc/${p}/task/${p}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number)
        : [];
      return own + kids.reduce((sum, k) => sum + of(k), 0);
    } catch {
      return 0;
    }
  };
  return of(pid);
}

/** Through the production server (`.next-bench`, built when the sources changed), the floor measured beside it. */
async function server() {
  const { ensureBuild, ROOT } = await import("../scripts/lib/build");
  const processes = await import("./lib/processes");
  const database = await import("./lib/database");
  const { load, statusText } = await import("./lib/load");
  // PROBE_DIST: another build directory (e.g. one per side of a before/after pair); PROBE_BUILD=0 serves it as it is
  // (a build of other sources: the "before" side).
  const distDir = process.env.PROBE_DIST ?? ".next-bench";
  if (process.env.PROBE_BUILD !== "0") ensureBuild(distDir, (l) => console.log(l));
  const profDir = process.env.PROBE_PROF ? path.resolve(process.env.PROBE_PROF) : null;
  const { pathToFileURL } = await import("node:url");
  const srv = await processes.startServer(distDir, {
    DATABASE_URL: url,
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "probe-server-")),
    JWT_SECRET: process.env.JWT_SECRET!,
    CRON_SECRET: process.env.CRON_SECRET!,
    RATE_LIMIT_ENTERPRISE: "1000000000", // the limiter stays in the path; only its limit is raised, as in bench/run.ts
    ...(profDir
      ? { BENCH_CPU_PROF_DIR: profDir, NODE_OPTIONS: `--import ${pathToFileURL(path.join(ROOT, "bench/lib/cpu-profile.mjs")).href}` }
      : {}),
  });
  try {
    const key = await database.createKey(url, "enterprise");
    const auth = { authorization: `Bearer ${key}` };
    const ids = await database.withClient(url, async (c) =>
      (await c.query<{ id: string }>(`SELECT id FROM markets WHERE open ORDER BY random()`)).rows.map((r) => r.id),
    );
    let next = 0;
    const historyPath = () => `/api/predmkt/markets/${ids[next++ % ids.length]}/history?window=30d`; // next: never reset
    const targets = [
      { name: "history", url: srv.url, headers: auth, path: historyPath },
      { name: "ping", url: `${srv.url}/api/ping`, headers: {} },
      { name: "gateway_404", url: `${srv.url}/api/predmkt/none`, headers: auth },
      // The history route itself up to its parameter check (a 400 from withApi: Next's hop to this route, no statement).
      {
        name: "history_400",
        url: srv.url,
        headers: auth,
        path: () => `/api/predmkt/markets/${ids[next++ % ids.length]}/history?window=2d`,
      },
    ];
    const seconds = Number(process.env.PROBE_SECONDS ?? 8);
    // Every history request a miss, as at the real scale: a pass "lands" (a finished sampler_runs row, as another
    // process's pass would leave) before each history run, so the server's answers and replays of the last run are
    // stale (the pass clock reads sampler_runs within PASS_POLL_MS); a run asks fewer markets than there are.
    const newPass = async () => {
      await database.withClient(url, (c) =>
        c.query(`INSERT INTO sampler_runs (trigger, status, started_at, finished_at) VALUES ('probe', 'ok', now(), now())`),
      );
      await new Promise((done) => setTimeout(done, 1500));
    };
    // One at a time (no queue): what each answer costs on its own, and what gzip adds (Node's fetch asks for it; Next
    // compresses by default; autocannon sends no Accept-Encoding). PROBE_SEQUENTIAL requests per target, default 0.
    const sequentialN = Number(process.env.PROBE_SEQUENTIAL ?? 0);
    if (sequentialN > 0) {
      const { sequential } = await import("./lib/load");
      const seq: Record<string, unknown> = {};
      const send = (t: (typeof targets)[number], encoding: string) => () =>
        fetch(`${t.url}${t.path ? t.path() : ""}`, { headers: { ...t.headers, "accept-encoding": encoding } });
      for (const t of targets) await sequential(100, send(t, "gzip")); // warm-up
      for (const encoding of ["identity", "gzip"])
        for (const t of targets) {
          if (t.name === "history") await newPass();
          if (profDir) process.kill(srv.pid, "SIGUSR2");
          const cpu = serverCpuMs(srv.pid);
          const r = await sequential(sequentialN, send(t, encoding));
          seq[`${t.name} ${encoding}`] = { ...r, server_cpu_ms: r2((serverCpuMs(srv.pid) - cpu) / sequentialN) };
          if (profDir) {
            process.kill(srv.pid, "SIGUSR2");
            await new Promise((done) => setTimeout(done, 1000));
          }
        }
      console.log(JSON.stringify({ sequential: seq, load: os.loadavg().map(r2) }));
    }
    await load({ url: srv.url, headers: auth, seconds: 2, path: historyPath }); // warm-up
    const rounds = 4;
    const runs = targets.map(() => [] as Awaited<ReturnType<typeof load>>[]);
    const cpuMs = targets.map(() => 0);
    const sysMs = targets.map(() => 0);
    const mainMs = targets.map(() => 0);
    const pgMs = targets.map(() => 0);
    // PostgreSQL's side: the CPU of the backends serving this database (the server's pool), read the same way.
    const backends = () =>
      database.withClient(url, async (c) =>
        (await c.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [DB])).rows.map(
          (r) => r.pid,
        ),
      );
    for (let round = 0; round < rounds; round++)
      for (const [i, t] of targets.entries()) {
        if (t.name === "history") await newPass();
        const pids = await backends();
        const pgBefore = new Map(pids.map((p) => [p, serverCpuMs(p)]));
        const cpu = serverCpuMs(srv.pid);
        const sys = serverCpuMs(srv.pid, "system");
        const main = serverCpuMs(srv.pid, "main");
        runs[i].push(await load({ url: t.url, headers: t.headers, path: t.path, seconds: seconds / rounds }));
        cpuMs[i] += serverCpuMs(srv.pid) - cpu;
        sysMs[i] += serverCpuMs(srv.pid, "system") - sys;
        mainMs[i] += serverCpuMs(srv.pid, "main") - main;
        for (const p of new Set([...pids, ...(await backends())])) pgMs[i] += serverCpuMs(p) - (pgBefore.get(p) ?? 0);
      }
    // With PROBE_PROF, one CPU profile per target after the measurement (cpu-profile.mjs numbers them phase1, 2, 3).
    const profiles: Record<string, string> = {};
    if (profDir) {
      const fs = await import("node:fs");
      fs.mkdirSync(profDir, { recursive: true });
      for (const [i, t] of targets.entries()) {
        if (t.name === "history") await newPass();
        process.kill(srv.pid, "SIGUSR2");
        const r = await load({ url: t.url, headers: t.headers, path: t.path, seconds: seconds / 3 });
        process.kill(srv.pid, "SIGUSR2");
        const file = path.join(profDir, `phase${i + 1}-${srv.pid}.cpuprofile`);
        for (let n = 0; n < 100 && !fs.existsSync(file); n++) await new Promise((done) => setTimeout(done, 100));
        profiles[t.name] = `${file} (${r.requests} requests)`;
      }
    }
    const { summarize } = await import("./lib/load");
    const out: Record<string, unknown> = { markets: ids.length, load: os.loadavg().map(r2) };
    for (const [i, t] of targets.entries()) {
      const statuses: Record<string, number> = {};
      for (const r of runs[i]) for (const [code, n] of Object.entries(r.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
      const s = summarize(
        runs[i].flatMap((r) => r.times),
        seconds,
        statuses,
      );
      const per = (ms: number) => r2(ms / Math.max(1, s.requests));
      out[t.name] = {
        rps: s.rps,
        p50_ms: s.p50_ms,
        p95_ms: s.p95_ms,
        p99_ms: s.p99_ms,
        server_cpu_ms: per(cpuMs[i]),
        server_system_ms: per(sysMs[i]),
        server_main_thread_ms: per(mainMs[i]),
        postgres_cpu_ms: per(pgMs[i]),
        statuses: statusText(s.statuses),
      };
    }
    console.log(JSON.stringify(out));
    if (profDir) console.log(JSON.stringify(profiles));
  } finally {
    await processes.stopAll();
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
  mode === "setup"
    ? setup()
    : mode === "pass"
      ? pass()
      : mode === "drop"
        ? drop()
        : mode === "statement"
          ? statement()
          : mode === "server"
            ? server()
            : measure()
).catch((e) => {
  console.error(e);
  process.exit(1);
});
