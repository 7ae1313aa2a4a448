// Server start-up (called from instrumentation.ts in the Node runtime): validate env, open and migrate the database,
// expose the embedded database to local tools (key CLI) through a socket opened on request, start the demo sampler loop, and
// close everything cleanly on SIGINT/SIGTERM so PGlite's files are left consistent.
import { rmSync } from "node:fs";
import { serveBridgeOnRequest } from "@/lib/db/bridge";
import { closeDb, getDb, getEmbeddedPglite, liveOwner, ownerFile, pgliteDir } from "@/lib/db/client";
import { env } from "@/lib/env";
import { flushUsage } from "@/lib/keys/usage-meter";
import { closeKv } from "@/lib/kv/redis";
import { errorFields, log } from "@/lib/log";

const globalForBoot = globalThis as unknown as { __predmktBooted?: Promise<void> };

// Local tools (key CLI, tests) reach the embedded database through this process: a Unix socket opened only while a
// tool asks for it (lib/db/bridge.ts).
async function startSocketBridge(): Promise<(() => Promise<void>) | null> {
  const pglite = await getEmbeddedPglite();
  if (!pglite || pgliteDir().startsWith("memory://")) return null;
  return serveBridgeOnRequest(pglite, env.DATA_DIR, ownerFile());
}

async function startSampler(): Promise<(() => void) | null> {
  if (env.WORKER_IN_SERVER) {
    // The ingest worker runs the sampler loop itself (lib/stream/ingest/worker.ts).
    const { startWorker } = await import("@/lib/stream/ingest/worker");
    const worker = startWorker();
    return () => void worker.stop();
  }
  if (env.SAMPLER_INTERVAL_S <= 0) return null;
  const { startSamplerLoop } = await import("@/lib/sampler");
  await import("@/lib/predmkt/after-pass"); // the loop's passes compute the sampled aggregates right after landing
  log.info("sampler loop started", { interval_s: env.SAMPLER_INTERVAL_S });
  return startSamplerLoop(env.SAMPLER_INTERVAL_S);
}

// The oracle indexer runs beside the sampler (same switch): the demo and a self-hosted server keep their oracle
// answers current without a cron, and each new disputes answer's transitions go to the stream's `resolution` topic.
async function startOracleIndexer(): Promise<(() => void) | null> {
  if (env.SAMPLER_INTERVAL_S <= 0) return null;
  const { defaultOracleContext } = await import("@/lib/oracle/context");
  const { startOracleIndexerLoop } = await import("@/lib/oracle/indexer");
  const { startResolutionPublisher } = await import("@/lib/resolution/push");
  const ctx = defaultOracleContext();
  log.info("oracle indexer loop started", { interval_s: ctx.config.indexIntervalS });
  const stopLoop = startOracleIndexerLoop(ctx, ctx.config.indexIntervalS);
  const stopPublisher = startResolutionPublisher(ctx);
  return () => {
    stopLoop();
    stopPublisher();
  };
}

// The leaderboard ledgers job (docs/wallets.md#leaderboard) runs beside the sampler (same switch).
async function startWalletJobs(): Promise<(() => void) | null> {
  if (env.SAMPLER_INTERVAL_S <= 0) return null;
  const { startLeaderboardLedgers } = await import("@/lib/wallets/jobs");
  return startLeaderboardLedgers();
}

async function boot(): Promise<void> {
  await getDb();
  const bridge = await startSocketBridge().catch((error) => {
    log.warn("embedded database socket bridge not started", errorFields(error));
    return null;
  });
  const stopSampler = await startSampler();
  const stopOracleIndexer = await startOracleIndexer();
  const stopWalletJobs = await startWalletJobs();
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info("shutting down", { signal });
    stopSampler?.();
    stopOracleIndexer?.();
    stopWalletJobs?.();
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
