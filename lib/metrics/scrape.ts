// What /api/metrics answers: the process's counters plus two lags read from the database at scrape time, because the
// sampler pass and the oracle indexer may run in another process (the worker, a cron function) than the one scraped.
import { getDb } from "@/lib/db/client";
import { errorFields, log } from "@/lib/log";
import { withTimeout } from "@/lib/timeout";
import { metrics } from "./registry";

const DB_TIMEOUT_MS = 2_000;

async function secondsSince(at: () => Promise<Date | null>): Promise<number> {
  const when = await withTimeout(at(), DB_TIMEOUT_MS);
  return when ? Math.max(0, (Date.now() - when.getTime()) / 1000) : -1;
}

async function refreshLags(): Promise<void> {
  const db = await getDb();
  const m = metrics();
  m.samplerLagSeconds.set(
    await secondsSince(async () => {
      const run = await db.samplerRun.findFirst({ where: { status: "ok" }, orderBy: { startedAt: "desc" }, select: { finishedAt: true } });
      return run?.finishedAt ?? null;
    }),
  );
  m.oracleIndexLagSeconds.set(
    await secondsSince(async () => {
      const newest = await db.oracleSnapshot.findFirst({ orderBy: { builtAt: "desc" }, select: { builtAt: true } });
      return newest?.builtAt ?? null;
    }),
  );
}

/** The Prometheus text exposition; a database that does not answer leaves the lags at their last value (logged). */
export async function scrapeMetrics(): Promise<{ contentType: string; body: string }> {
  try {
    await refreshLags();
  } catch (error) {
    log.warn("metrics: lags not refreshed", errorFields(error));
  }
  const { registry } = metrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}
