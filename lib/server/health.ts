import { checkRateLimitStore } from "@/lib/auth/ratelimit";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { alertQueueStats } from "@/lib/metrics/alert-queue";
import { recentTapeGaps } from "@/lib/sampled/tape-gaps";
import { type FeedHealthReport, readFeedHealth } from "@/lib/stream/ingest/drift";
import { withTimeout } from "@/lib/timeout";
import { droppedSinceStart } from "@/lib/upstream";
import packageJson from "@/package.json";

const DB_TIMEOUT_MS = 2000;

async function checkDatabase() {
  const kind = env.embeddedDatabase ? ("pglite" as const) : ("postgresql" as const);
  const started = performance.now();
  try {
    await withTimeout(
      getDb().then((db) => db.$queryRawUnsafe("SELECT 1")),
      DB_TIMEOUT_MS,
    );
    return { ok: true, kind, latency_ms: Math.round(performance.now() - started) };
  } catch (error) {
    // The reason is logged, not published: a public health check must not describe our infrastructure.
    log.warn("database health check failed", errorFields(error));
    return { ok: false, kind, latency_ms: null, error: "unreachable" };
  }
}

/**
 * How complete the sampled data is: upstream items the last pass dropped as unparseable (each is logged once with its
 * id), items dropped since this process started, and the stretches of the tape the sampler could not read.
 */
async function upstreamCompleteness() {
  try {
    const db = await getDb();
    const last = await db.samplerRun.findFirst({
      where: { status: "ok" },
      orderBy: { startedAt: "desc" },
      select: { startedAt: true, dropped: true },
    });
    return {
      last_pass: last ? { at: last.startedAt.toISOString(), dropped_items: last.dropped } : null,
      dropped_items_since_start: droppedSinceStart(),
      tape_gaps: await withTimeout(recentTapeGaps(db, new Date()), DB_TIMEOUT_MS),
    };
  } catch (error) {
    log.warn("upstream completeness check failed", errorFields(error));
    return { last_pass: null, dropped_items_since_start: droppedSinceStart(), tape_gaps: [] };
  }
}

/** The alert delivery queue (docs/alerts.md): undelivered deliveries, the oldest one's age, and dead ones. */
async function alertQueue() {
  try {
    return await withTimeout(
      getDb().then((db) => alertQueueStats(db)),
      DB_TIMEOUT_MS,
    );
  } catch (error) {
    log.warn("alert queue check failed", errorFields(error));
    return null;
  }
}

/** The ingest worker's live-feed parse report (docs/stream.md, "Feed drift"), wherever the worker runs. */
async function liveFeeds(): Promise<FeedHealthReport | null> {
  try {
    return await withTimeout(
      getDb().then((db) => readFeedHealth(db)),
      DB_TIMEOUT_MS,
    );
  } catch (error) {
    log.warn("live feed health check failed", errorFields(error));
    return null;
  }
}

type HealthReport = Awaited<ReturnType<typeof buildHealthReport>>;
const globalForHealth = globalThis as unknown as { __predmktHealth?: { at: number; report: Promise<HealthReport> } };

/**
 * The health report, computed at most once per HEALTH_CACHE_S in this process (concurrent callers share it): the
 * route is public, and each report costs 3 queries and a store ping.
 */
export function healthReport(now = Date.now(), cacheMs = env.HEALTH_CACHE_S * 1000): Promise<HealthReport> {
  const cached = globalForHealth.__predmktHealth;
  // A report stamped later than `now` (another caller's clock) is not reused.
  if (cached && now >= cached.at && now - cached.at < cacheMs) return cached.report;
  const report = buildHealthReport();
  globalForHealth.__predmktHealth = { at: now, report };
  report.catch(() => {
    if (globalForHealth.__predmktHealth?.report === report) globalForHealth.__predmktHealth = undefined;
  });
  return report;
}

async function buildHealthReport() {
  const [database, rateLimitStore] = await Promise.all([checkDatabase(), checkRateLimitStore()]);
  const upstream = database.ok
    ? await upstreamCompleteness()
    : { last_pass: null, dropped_items_since_start: droppedSinceStart(), tape_gaps: [] };
  const feeds = database.ok ? await liveFeeds() : null;
  // A rate-limit store outage degrades (limits fall back to per-instance counting); so does a live feed whose messages
  // mostly fail to parse (live ingest is off for it); a database outage is down.
  const status = !database.ok
    ? ("down" as const)
    : !rateLimitStore.ok || (feeds && !feeds.healthy)
      ? ("degraded" as const)
      : ("ok" as const);
  return {
    status,
    version: packageJson.version,
    time: new Date().toISOString(),
    checks: { database, rate_limit_store: rateLimitStore },
    upstream: { ...upstream, live_feeds: feeds },
    alerts: database.ok ? await alertQueue() : null,
  };
}
