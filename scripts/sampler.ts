// Self-hosted sampler loop: `npm run sampler` runs a pass every SAMPLER_INTERVAL_S seconds (default 60) against
// the configured database. The embedded database belongs to one process only: if a live server owns it, refuse and
// say how to run the sampler instead (inside that server), because a second PGlite on the same files corrupts them.
import { closeDb, liveOwner, pgliteDir } from "@/lib/db/client";
import { env } from "@/lib/env";
import { defaultOracleContext } from "@/lib/oracle/context";
import { startOracleIndexerLoop } from "@/lib/oracle/indexer";
import { startResolutionPublisher } from "@/lib/resolution/push";
import { startSamplerLoop } from "@/lib/sampler";

function main(): void {
  if (env.embeddedDatabase) {
    const owner = liveOwner();
    if (owner && owner.pid !== process.pid) {
      console.error(
        `The embedded database ${pgliteDir()} is owned by process ${owner.pid} (the running server).\n` +
          "Only that process may write it: the server samples by itself when SAMPLER_INTERVAL_S is set (the demo " +
          "does this), or call GET /api/cron/sample with Authorization: Bearer $CRON_SECRET.\n" +
          "To run this loop, stop the server first, or set DATABASE_URL to a PostgreSQL database.",
      );
      process.exit(1);
    }
  }
  const interval = env.SAMPLER_INTERVAL_S > 0 ? env.SAMPLER_INTERVAL_S : 60;
  console.log(`sampler: a pass every ${interval} s against ${env.embeddedDatabase ? pgliteDir() : "DATABASE_URL"} (Ctrl-C to stop)`);
  const stop = startSamplerLoop(interval);
  // The oracle indexer (chain logs and the oracle endpoints' stored answers) runs in the same process.
  const oracle = defaultOracleContext();
  console.log(`oracle indexer: a pass every ${oracle.config.indexIntervalS} s`);
  const stopOracle = startOracleIndexerLoop(oracle, oracle.config.indexIntervalS);
  // Each new disputes answer's lifecycle transitions go to the live stream's `resolution` topic.
  const stopPublisher = startResolutionPublisher(oracle);
  // The loop's timers are unref'd; this keeps the process alive until a signal.
  const keepAlive = setInterval(() => undefined, 1 << 30);
  const shutdown = async () => {
    stop();
    stopOracle();
    stopPublisher();
    clearInterval(keepAlive);
    await closeDb();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());
}

main();
