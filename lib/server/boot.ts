// Server start-up (called from instrumentation.ts in the Node runtime): validate env, open and migrate the database,
// expose the embedded database to local tools (key CLI) through a loopback socket, start the demo sampler loop, and
// close everything cleanly on SIGINT/SIGTERM so PGlite's files are left consistent.
import { chmodSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { closeDb, getDb, getEmbeddedPglite, liveOwner, ownerFile, type PgliteOwner, pgliteDir } from "@/lib/db/client";
import { env } from "@/lib/env";
import { closeKv } from "@/lib/kv/redis";
import { errorFields, log } from "@/lib/log";

const globalForBoot = globalThis as unknown as { __predmktBooted?: Promise<void> };

// Local tools (key CLI, tests) reach the embedded database through this process. The bridge speaks the Postgres
// protocol without authentication, so it is a Unix socket readable by this user only, never a TCP port: any local
// process could otherwise insert a key.
async function startSocketBridge(): Promise<PGLiteSocketServer | null> {
  const pglite = await getEmbeddedPglite();
  if (!pglite || pgliteDir().startsWith("memory://")) return null;
  const socketPath = path.join(env.DATA_DIR, ".s.PGSQL.5432");
  if (socketPath.length > 100) throw new Error(`DATA_DIR is too long for a Unix socket path (${socketPath})`);
  rmSync(socketPath, { force: true }); // left by a crashed owner; we hold the owner record now
  const server = new PGLiteSocketServer({ db: pglite, path: socketPath, maxConnections: 4 });
  await server.start();
  chmodSync(socketPath, 0o600);
  writeFileSync(ownerFile(), JSON.stringify({ pid: process.pid, socketDir: env.DATA_DIR } satisfies PgliteOwner));
  return server;
}

async function startSampler(): Promise<(() => void) | null> {
  if (env.SAMPLER_INTERVAL_S <= 0) return null;
  const { startSamplerLoop } = await import("@/lib/sampler");
  log.info("sampler loop started", { interval_s: env.SAMPLER_INTERVAL_S });
  return startSamplerLoop(env.SAMPLER_INTERVAL_S);
}

async function boot(): Promise<void> {
  await getDb();
  const bridge = await startSocketBridge().catch((error) => {
    log.warn("embedded database socket bridge not started", errorFields(error));
    return null;
  });
  const stopSampler = await startSampler();
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info("shutting down", { signal });
    stopSampler?.();
    await bridge?.stop().catch(() => undefined);
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
