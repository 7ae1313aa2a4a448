// Self-hosted sampler loop: `npm run sampler` runs a pass every SAMPLER_INTERVAL_S seconds (default 60) against
// the configured database. The embedded database belongs to one process only: if a live server owns it, refuse and
// say how to run the sampler instead (inside that server), because a second PGlite on the same files corrupts them.
import { closeDb, liveOwner, pgliteDir } from "@/lib/db/client";
import { env } from "@/lib/env";
import { startJobs } from "@/lib/server/jobs";

async function main(): Promise<void> {
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
  // The sampler loop with its after-pass listeners, and the oracle indexer beside it (lib/server/jobs.ts).
  const jobs = await startJobs({ samplerIntervalS: interval, oracle: true });
  console.log(`sampler: ${jobs.running.join("; ")}`);
  // The loop's timers are unref'd; this keeps the process alive until a signal.
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
  console.error(`sampler: ${(error as Error).message}`);
  process.exit(1);
});
