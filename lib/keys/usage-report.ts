// Usage read back from the rollup (`key_usage`, written by lib/keys/usage-meter.ts): a key holder's own view
// (GET /api/auth/usage) and the operator's view across keys (`npm run keys -- usage`), sorted so that keys near their
// tier's limit — the evidence for moving a key up a tier — come first.
import { type Tier, tierLimit, RATE_LIMIT_WINDOW_S } from "@/lib/auth/tiers";
import { ApiError } from "@/lib/api/errors";
import { type Db, getDb } from "@/lib/db/client";
import type { ApiKey } from "@/lib/generated/prisma/client";
import { STATUS_CLASSES, type StatusClass, unflushedUsage, type UsageRow } from "./usage-meter";

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const USAGE_HISTORY_DAYS = 30;

type ByStatus = Record<StatusClass, number>;
const emptyByStatus = (): ByStatus => ({ "2xx": 0, "4xx": 0, "429": 0, "5xx": 0 });

interface RollupRow {
  keyId: string;
  minute: Date;
  operation: string;
  statusClass: string;
  count: number;
}

function readRows(db: Db, since: Date, keyId?: string): Promise<RollupRow[]> {
  return db.keyUsage.findMany({ where: { minute: { gte: since }, ...(keyId ? { keyId } : {}) } });
}

const fromUnflushed = (rows: UsageRow[]): RollupRow[] =>
  rows.map((r) => ({ keyId: r.keyId, minute: new Date(r.minute), operation: r.operation, statusClass: r.statusClass, count: r.count }));

interface OperationDay {
  operation: string;
  requests: number;
  by_status: ByStatus;
}

interface UsageDay {
  date: string;
  requests: number;
  rate_limited: number;
  operations: OperationDay[];
}

interface KeyUsageView {
  key: { id: string; prefix: string; tier: Tier; expires_at: string | null; rotated_until: string | null };
  limit: { requests_per_minute: number; window_s: number };
  current_minute: { start: string; requests: number; rate_limited: number };
  days: UsageDay[];
}

/** A key holder's usage: this minute (including counts not yet flushed) and per day for the last 30 days. */
async function keyUsageView(db: Db, key: ApiKey, now = Date.now()): Promise<KeyUsageView> {
  const todayStart = now - (now % DAY_MS);
  const since = new Date(todayStart - (USAGE_HISTORY_DAYS - 1) * DAY_MS);
  const minuteStart = now - (now % MINUTE_MS);
  // Summed per day in the database: a busy key has tens of thousands of minute rows in 30 days.
  const daily = await db.$queryRaw<{ date: string; operation: string; statusClass: string; count: number }[]>`
    SELECT to_char(minute AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, operation, status_class AS "statusClass", SUM(count)::int AS count
    FROM key_usage WHERE key_id = ${key.id}::uuid AND minute >= ${since}
    GROUP BY 1, 2, 3`;
  const thisMinute = await db.keyUsage.findMany({ where: { keyId: key.id, minute: new Date(minuteStart) } });
  const unflushed = fromUnflushed(await unflushedUsage(key.id));
  const rows = [...daily, ...unflushed.map((r) => ({ ...r, date: r.minute.toISOString().slice(0, 10) }))];
  const current = { requests: 0, rate_limited: 0 };
  for (const row of [...thisMinute, ...unflushed]) {
    if (row.minute.getTime() !== minuteStart) continue;
    current.requests += row.count;
    if (row.statusClass === "429") current.rate_limited += row.count;
  }
  const days = new Map<string, Map<string, OperationDay>>();
  for (const row of rows) {
    const cls = row.statusClass as StatusClass;
    const date = row.date;
    const operations = days.get(date) ?? new Map<string, OperationDay>();
    days.set(date, operations);
    const entry = operations.get(row.operation) ?? { operation: row.operation, requests: 0, by_status: emptyByStatus() };
    operations.set(row.operation, entry);
    entry.requests += row.count;
    if (STATUS_CLASSES.includes(cls)) entry.by_status[cls] += row.count;
  }
  return {
    key: {
      id: key.id,
      prefix: key.prefix,
      tier: key.tier,
      expires_at: key.expiresAt?.toISOString() ?? null,
      rotated_until: key.graceEndsAt?.toISOString() ?? null,
    },
    limit: { requests_per_minute: tierLimit(key.tier), window_s: RATE_LIMIT_WINDOW_S },
    current_minute: { start: new Date(minuteStart).toISOString(), ...current },
    days: [...days.entries()]
      .sort(([a], [b]) => (a < b ? 1 : -1))
      .map(([date, operations]) => {
        const list = [...operations.values()].sort((a, b) => b.requests - a.requests || (a.operation < b.operation ? -1 : 1));
        return {
          date,
          requests: list.reduce((sum, o) => sum + o.requests, 0),
          rate_limited: list.reduce((sum, o) => sum + o.by_status["429"], 0),
          operations: list,
        };
      }),
  };
}

interface KeyUsageSummary {
  prefix: string;
  id: string;
  owner: string;
  tier: Tier;
  status: string;
  requests: number;
  peak_per_minute: number;
  limit_per_minute: number;
  /** Peak minute as a share of the limit: ≥ 1 means the key was refused (or nearly) at its busiest. */
  peak_share: number;
  rate_limited: number;
  errors_5xx: number;
  top_operations: { operation: string; requests: number }[];
  last_used: string | null;
}

/** Per key since `since`: sorted by peak share of the limit, then by volume. */
export async function usageSummaries(db: Db, options: { since: Date; key?: ApiKey }): Promise<KeyUsageSummary[]> {
  const keys = options.key ? [options.key] : await db.apiKey.findMany({ orderBy: { createdAt: "asc" } });
  const rows = await readRows(db, options.since, options.key?.id);
  const byKey = new Map<string, RollupRow[]>();
  for (const row of rows) byKey.set(row.keyId, [...(byKey.get(row.keyId) ?? []), row]);
  const summaries = keys
    .filter((k) => options.key || byKey.has(k.id) || k.status === "active")
    .map((key) => {
      const own = byKey.get(key.id) ?? [];
      const perMinute = new Map<number, number>();
      const perOperation = new Map<string, number>();
      let rateLimited = 0;
      let errors = 0;
      let lastMinute = 0;
      for (const row of own) {
        const minute = row.minute.getTime();
        perMinute.set(minute, (perMinute.get(minute) ?? 0) + row.count);
        perOperation.set(row.operation, (perOperation.get(row.operation) ?? 0) + row.count);
        if (row.statusClass === "429") rateLimited += row.count;
        if (row.statusClass === "5xx") errors += row.count;
        lastMinute = Math.max(lastMinute, minute);
      }
      const limit = tierLimit(key.tier);
      const peak = Math.max(0, ...perMinute.values());
      const lastUsed = key.lastUsedAt ?? (lastMinute ? new Date(lastMinute) : null);
      return {
        prefix: key.prefix,
        id: key.id,
        owner: key.owner,
        tier: key.tier,
        status: key.status,
        requests: [...perMinute.values()].reduce((a, b) => a + b, 0),
        peak_per_minute: peak,
        limit_per_minute: limit,
        peak_share: Math.round((peak / limit) * 1000) / 1000,
        rate_limited: rateLimited,
        errors_5xx: errors,
        top_operations: [...perOperation.entries()]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 3)
          .map(([operation, requests]) => ({ operation, requests })),
        last_used: lastUsed?.toISOString() ?? null,
      };
    });
  return summaries.sort((a, b) => b.peak_share - a.peak_share || b.requests - a.requests || (a.prefix < b.prefix ? -1 : 1));
}

/** GET /api/auth/usage: the gateway authenticated the key (or a token's parent key) behind `keyId`. */
export async function usageForClient(keyId: string, now = Date.now()): Promise<{ data: KeyUsageView; meta: { as_of: string } }> {
  const db = await getDb();
  const key = await db.apiKey.findUnique({ where: { id: keyId } });
  if (!key) throw new ApiError("invalid_api_key", "The API key is not recognised.");
  return { data: await keyUsageView(db, key, now), meta: { as_of: new Date(now).toISOString() } };
}
