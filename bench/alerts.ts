// Alerts bench (docs/alerts.md "Measured", bench/README.md): prints figures and asserts nothing. `npm run bench:alerts`.
// Runs the same measurements once per database, each in a child process of its own (the database is chosen when
// lib/env.ts is first read): a throwaway PostgreSQL database (`predmkt_bench_alerts_<pid>` at BENCH_POSTGRES_URL's
// server, migrated, dropped at the end; skipped when none is reachable) and the embedded PGlite in memory, where the
// bench's own inserts, the matcher and the sender share the one connection as they do in the demo. The receiver is a
// third process (bench/lib/alert-receiver.mjs), so receiving never shares the sender's event loop.
//
// 1. Latency: BENCH_ALERTS_SUBSCRIPTIONS (100) subscriptions, each a `trade` rule on its own wallet, delivering to
//    the receiver; trades stored at BENCH_ALERTS_RATE (50) a second for BENCH_ALERTS_S (20) s, each matching exactly
//    one subscription, while the self-hosted alert worker runs (startAlerts, ALERTS_POLL_MS). Figure: stored (the
//    INSERT has returned) → the receiver has read the body, p50/p95/p99/max. Then the same with subscription 0's
//    endpoint down, once hanging until the 10 s deadline and once answering 503: the other 99's latency beside it.
// 2. One receiver down for an hour, on an injected clock: every simulated minute each subscription gets one match;
//    subscription 0 answers 503 all hour, then comes back. Figures: its queue depth and the whole queue's depth and
//    oldest age through the hour, its attempt times (the retry schedule, with jitter), the others' undelivered rows
//    after each minute and their wall-clock latency beside a control hour with nothing down, and the down one's
//    recovery (time to empty on the simulated clock, order, ids, nothing lost).
// The machine's load (1-minute load average, whole-machine CPU busy from /proc/stat, this process's CPU) is sampled
// every second during each measurement and printed beside it.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../scripts/lib/net";
import type { Config } from "./lib/alerts-common";
import { createPostgresDatabase, POSTGRES_ADMIN_URL, reachable } from "./lib/database";

const ROOT = path.resolve(import.meta.dirname, "..");
const SUBSCRIPTIONS = Number(process.env.BENCH_ALERTS_SUBSCRIPTIONS ?? 100);
const RATE = Number(process.env.BENCH_ALERTS_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_ALERTS_S ?? 20);
const DATABASES = (process.env.BENCH_ALERTS_DB ?? "postgresql,pglite").split(",");
const PHASES = (process.env.BENCH_ALERTS_PHASES ?? "none,hang,503").split(",") as Config["phases"];
const HOUR = process.env.BENCH_ALERTS_HOUR !== "0";

function startReceiver(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(ROOT, "bench/lib/alert-receiver.mjs"), String(port)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.stdout.once("data", () => resolve(child));
    child.once("exit", (code) => reject(new Error(`receiver exited (${code})`)));
  });
}

const running = new Set<ChildProcess>();

/** Runs the measurements in a child on one database; resolves with its figures. */
function runChild(env: Record<string, string>, config: Config): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "bench/alerts-run.ts")], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...env,
      JWT_SECRET: randomBytes(24).toString("base64url"),
      CRON_SECRET: randomBytes(24).toString("base64url"),
      BENCH_ALERTS_CONFIG: JSON.stringify(config),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  let out = "";
  let partial = "";
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
    const lines = (partial + d.toString()).split("\n");
    partial = lines.pop() ?? "";
    // Progress lines and warnings pass through; the service's info logs (worker started, …) do not.
    for (const line of lines)
      if (line && !line.startsWith("RESULT ") && !line.startsWith('{"level":"info"')) process.stderr.write(`  ${line}\n`);
  });
  return new Promise((resolve, reject) =>
    child.once("exit", (code) => {
      const line = out.split("\n").find((l) => l.startsWith("RESULT "));
      if (code === 0 && line) resolve(JSON.parse(line.slice(7)) as Record<string, unknown>);
      else reject(new Error(`bench child exited ${code}`));
    }),
  );
}

async function main(): Promise<void> {
  const started = new Date();
  const port = await freePort();
  const receiver = await startReceiver(port);
  // A Ctrl-C must not leave the receiver or a run behind (the run's throwaway database is dropped by the next run).
  process.once("SIGINT", () => {
    receiver.kill("SIGTERM");
    for (const child of running) child.kill("SIGTERM");
    process.exit(130);
  });
  const config: Config = {
    subscriptions: SUBSCRIPTIONS,
    rate: RATE,
    seconds: SECONDS,
    phases: PHASES,
    hour: HOUR,
    receiver: `http://127.0.0.1:${port}`,
  };
  const runs: Record<string, unknown>[] = [];
  const scratch = mkdtempSync(path.join(os.tmpdir(), "bench-alerts-"));
  try {
    for (const kind of DATABASES) {
      if (kind === "postgresql") {
        if (!(await reachable(POSTGRES_ADMIN_URL))) {
          console.error(`PostgreSQL: none reachable at ${POSTGRES_ADMIN_URL}; skipped`);
          continue;
        }
        const db = await createPostgresDatabase(`predmkt_bench_alerts_${process.pid}`);
        console.error(`PostgreSQL: throwaway database at ${db.connectionString()}`);
        try {
          runs.push(await runChild({ DATABASE_URL: db.connectionString() }, config));
        } finally {
          await db.drop();
        }
      } else if (kind === "pglite") {
        console.error("PGlite: embedded, in memory, in the bench's process");
        runs.push(await runChild({ PGLITE_DIR: "memory://", DATA_DIR: path.join(scratch, "pglite") }, config));
      }
    }
  } finally {
    receiver.kill("SIGTERM");
    rmSync(scratch, { recursive: true, force: true });
  }
  const figures = {
    started: started.toISOString(),
    finished: new Date().toISOString(),
    machine: { cpus: os.cpus().length, cpu_model: os.cpus()[0]?.model, node: process.version },
    config: { subscriptions: SUBSCRIPTIONS, rate: RATE, seconds: SECONDS, phases: PHASES, hour: HOUR },
    runs,
  };
  mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
  writeFileSync(path.join(ROOT, "bench/results/alerts-latest.json"), `${JSON.stringify(figures, null, 2)}\n`);
  console.log("\nwritten: bench/results/alerts-latest.json");
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
