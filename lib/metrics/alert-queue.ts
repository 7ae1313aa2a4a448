// The alert delivery queue's state (docs/alerts.md#operating), for /api/health and the Prometheus gauges: read from
// the database, so any instance reports the queue that every sender shares. Each figure is one index range
// (`alert_deliveries (status, next_attempt_at)`): the cost grows with the undelivered rows, not the delivered history.
import type { Db } from "@/lib/db/client";

interface AlertQueueStats {
  /** Undelivered deliveries: pending, or failed and awaiting a retry. */
  depth: number;
  /** Age of the oldest undelivered one (since it was queued), seconds; null when none. */
  oldest_pending_age_s: number | null;
  /** Deliveries given up after their retries. */
  dead: number;
}

export async function alertQueueStats(db: Db, now = new Date()): Promise<AlertQueueStats> {
  const rows = await db.$queryRawUnsafe<{ depth: bigint | number; oldest: Date | null; dead: bigint | number }[]>(
    `SELECT (SELECT count(*) FROM alert_deliveries WHERE status IN ('pending', 'failed')) AS depth,
            (SELECT min(created_at) FROM alert_deliveries WHERE status IN ('pending', 'failed')) AS oldest,
            (SELECT count(*) FROM alert_deliveries WHERE status = 'dead') AS dead`,
  );
  const r = rows[0];
  return {
    depth: Number(r?.depth ?? 0),
    oldest_pending_age_s: r?.oldest ? Math.max(0, Math.round((now.getTime() - new Date(r.oldest).getTime()) / 1000)) : null,
    dead: Number(r?.dead ?? 0),
  };
}
