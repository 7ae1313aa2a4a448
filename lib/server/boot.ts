// Server start-up (called from instrumentation.ts in the Node runtime): validate env, open and migrate the database,
// expose the embedded database to local tools (key CLI) through a socket opened on request, start the process's jobs
// through the composition root (lib/server/jobs.ts), and close everything cleanly on SIGINT/SIGTERM so PGlite's
// files are left consistent.
import { rmSync } from "node:fs";
import { serveBridgeOnRequest } from "@/lib/db/bridge";
import { closeDb, getDb, getEmbeddedPglite, liveOwner, ownerFile, pgliteDir } from "@/lib/db/client";
import { env } from "@/lib/env";
import { flushUsage } from "@/lib/keys/usage-meter";
import { closeKv } from "@/lib/kv/redis";
import { errorFields, log } from "@/lib/log";
import { serverJobPlan, startJobs } from "@/lib/server/jobs";

const globalForBoot = globalThis as unknown as { __predmktBooted?: Promise<void> };

// Local tools (key CLI, tests) reach the embedded database through this process: a Unix socket opened only while a
// tool asks for it (lib/db/bridge.ts).
async function startSocketBridge(): Promise<(() => Promise<void>) | null> {
  const pglite = await getEmbeddedPglite();
  if (!pglite || pgliteDir().startsWith("memory://")) return null;
  return serveBridgeOnRequest(pglite, env.DATA_DIR, ownerFile());
}

async function boot(): Promise<void> {
  await getDb();
  const bridge = await startSocketBridge().catch((error) => {
    log.warn("embedded database socket bridge not started", errorFields(error));
    return null;
  });
  // The process's background work and its listeners, from one place (lib/server/jobs.ts).
  const jobs = await startJobs(serverJobPlan());
  if (jobs.running.length) log.info("jobs started", { jobs: jobs.running });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info("shutting down", { signal });
    await jobs.stop().catch((error) => log.warn("stopping jobs failed", errorFields(error)));
    // The last batch of usage counts, while the database and the shared store are still open (lib/keys/usage-meter.ts).
    await flushUsage();
    await bridge?.().catch(() => undefined);
    await closeKv().catch(() => undefined);
    await closeDb().catch(() => undefined);
    process.exit(0);
  };
  // Next's own signal handling may exit before the async shutdown finishes; never leave a stale owner record.
  process.once("exit", () => {
    if (liveOwner()?.pid === process.pid) rmSync(ownerFile(), { force: true });
  });
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
  log.info("server ready", { database: env.embeddedDatabase ? "pglite" : "postgresql", port: env.PORT });
}

export function bootServer(): Promise<void> {
  globalForBoot.__predmktBooted ??= boot();
  return globalForBoot.__predmktBooted;
}
