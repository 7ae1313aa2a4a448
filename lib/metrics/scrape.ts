// What /api/metrics answers: the process's counters plus what is read from the database at scrape time, because the
// sampler pass, the oracle indexer and the alert senders may run in other processes (the worker, a cron function)
// than the one scraped: two lags and the alert queue (docs/observability.md).
import { getDb } from "@/lib/db/client";
import { errorFields, log } from "@/lib/log";
import { withTimeout } from "@/lib/timeout";
import { alertQueueStats } from "./alert-queue";
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

async function refreshAlertQueue(now: Date): Promise<void> {
  const queue = await withTimeout(
    getDb().then((db) => alertQueueStats(db, now)),
    DB_TIMEOUT_MS,
  );
  const m = metrics();
  m.alertQueueDepth.set(queue.depth);
  m.alertQueueOldestSeconds.set(queue.oldest_pending_age_s ?? -1);
  m.alertQueueDead.set(queue.dead);
}

/**
 * The Prometheus text exposition; a database that does not answer leaves the lags and the queue gauges at their last
 * value (logged). `now` is the clock the queue's oldest age is measured against (tests inject one).
 */
export async function scrapeMetrics(now = new Date()): Promise<{ contentType: string; body: string }> {
  try {
    await refreshLags();
  } catch (error) {
    log.warn("metrics: lags not refreshed", errorFields(error));
  }
  try {
    await refreshAlertQueue(now);
  } catch (error) {
    log.warn("metrics: alert queue not refreshed", errorFields(error));
  }
  const { registry } = metrics();
  return { contentType: registry.contentType, body: await registry.metrics() };
}
