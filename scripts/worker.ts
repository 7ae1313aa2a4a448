// `npm run worker`: the background process of a self-hosted deployment (`npm start` + `npm run worker`): the ingest
// worker (Polymarket's websockets → the database, plus the sampler loop) and the oracle indexer loop, so the oracle
// answers stay current without a cron or a cold request paying for the scan (docs/oracle-indexer.md). The embedded database belongs to one process only: when a live server owns it,
// the worker must run inside that server instead (WORKER_IN_SERVER=true, which the demo sets), because a second
// PGlite on the same files corrupts them.
import { closeDb, getDb, liveOwner, pgliteDir } from "@/lib/db/client";
import { env } from "@/lib/env";
import { defaultOracleContext } from "@/lib/oracle/context";
import { startOracleIndexerLoop } from "@/lib/oracle/indexer";
import { startResolutionPublisher } from "@/lib/resolution/push";
import { startWorker } from "@/lib/stream/ingest/worker";
import { startLeaderboardLedgers } from "@/lib/wallets/jobs";

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
  const worker = startWorker();
  const oracle = defaultOracleContext();
  const stopOracle = startOracleIndexerLoop(oracle, oracle.config.indexIntervalS);
  // Each new disputes answer's lifecycle transitions go to the live stream's `resolution` topic.
  const stopPublisher = startResolutionPublisher(oracle);
  console.log(`worker: oracle indexer every ${oracle.config.indexIntervalS} s`);
  const stopWalletJobs = startLeaderboardLedgers();
  // The worker's timers are unref'd; this keeps the process alive until a signal.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  const shutdown = async () => {
    clearInterval(keepAlive);
    stopOracle();
    stopPublisher();
    stopWalletJobs?.();
    await worker.stop();
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
