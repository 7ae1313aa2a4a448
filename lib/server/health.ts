import { checkRateLimitStore } from "@/lib/auth/ratelimit";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { withTimeout } from "@/lib/timeout";
import packageJson from "@/package.json";

const DB_TIMEOUT_MS = 2000;

async function checkDatabase() {
  const kind = env.embeddedDatabase ? ("pglite" as const) : ("postgresql" as const);
  const started = performance.now();
  try {
    await withTimeout(getDb().then((db) => db.$queryRawUnsafe("SELECT 1")), DB_TIMEOUT_MS);
    return { ok: true, kind, latency_ms: Math.round(performance.now() - started) };
  } catch (error) {
    // The reason is logged, not published: a public health check must not describe our infrastructure.
    log.warn("database health check failed", errorFields(error));
    return { ok: false, kind, latency_ms: null, error: "unreachable" };
  }
}

export async function healthReport() {
  const [database, rateLimitStore] = await Promise.all([checkDatabase(), checkRateLimitStore()]);
  // A rate-limit store outage degrades (limits fall back to per-instance counting); a database outage is down.
  const status = !database.ok ? ("down" as const) : !rateLimitStore.ok ? ("degraded" as const) : ("ok" as const);
  return {
    status,
    version: packageJson.version,
    time: new Date().toISOString(),
    checks: { database, rate_limit_store: rateLimitStore },
  };
}
