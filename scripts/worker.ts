// `npm run worker`: the background process of a self-hosted deployment (`npm start` + `npm run worker`): the ingest
// worker (Polymarket's websockets → the database, plus the sampler loop) and the oracle indexer loop, so the oracle
// answers stay current without a cron or a cold request paying for the scan (docs/oracle-indexer.md). The embedded database belongs to one process only: when a live server owns it,
// the worker must run inside that server instead (WORKER_IN_SERVER=true, which the demo sets), because a second
// PGlite on the same files corrupts them.
import { closeDb, getDb, liveOwner, pgliteDir } from "@/lib/db/client";
import { env } from "@/lib/env";
import { startJobs } from "@/lib/server/jobs";

async function main(): Promise<void> {
  if (env.embeddedDatabase) {
    const owner = liveOwner();
    if (owner && owner.pid !== process.pid) {
      console.error(
        `The embedded database ${pgliteDir()} is owned by process ${owner.pid} (the running server).\n` +
          "Only that process may write it: start the server with WORKER_IN_SERVER=true to run the worker inside it " +
          "(the demo does this), or set DATABASE_URL to a PostgreSQL database and run the worker beside the server.",
      );
      process.exit(1);
    }
  }
  await getDb();
  console.log(`worker: websockets ${env.POLYMARKET_RTDS_URL} and ${env.POLYMARKET_CLOB_WS_URL} (Ctrl-C to stop)`);
  // The ingest worker (with the sampler loop and its after-pass listeners) and the oracle indexer (lib/server/jobs.ts).
  const jobs = await startJobs({ ingest: true, samplerIntervalS: env.SAMPLER_INTERVAL_S, oracle: true, alerts: true, walletLedgers: true });
  console.log(`worker: ${jobs.running.join("; ")}`);
  // The worker's timers are unref'd; this keeps the process alive until a signal.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  const shutdown = async () => {
    clearInterval(keepAlive);
    await jobs.stop();
    await closeDb();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());
}

main().catch((error: unknown) => {
  console.error(`worker: ${(error as Error).message}`);
  process.exit(1);
});
