// Usage metering off the request path (README "API keys", usage). Each authenticated request adds one to an in-memory
// counter per (key, minute, operation, status class); a timer moves the counters out in batches, never one database
// write per request:
// - without a shared store, each process upserts its batch into `key_usage` (counts add up on conflict);
// - with Redis/Upstash configured, each process adds its batch to one Redis hash (HINCRBY), and whichever process
//   flushes next claims the whole hash with an atomic RENAME and upserts it, so serverless instances that never flush
//   themselves still add up, and a count is moved to the database exactly once.
// A failed write puts the batch back, so an outage of the database delays usage figures but loses none. The last
// batch is flushed at shutdown (lib/server/boot.ts).
import { randomUUID } from "node:crypto";
import { getDb, type Db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { DATA_NAMESPACE } from "@/lib/kv/namespace";
import { getLimitsKv } from "@/lib/kv/redis";
import { errorFields, log } from "@/lib/log";
import { Prisma } from "@/lib/generated/prisma/client";

export const STATUS_CLASSES = ["2xx", "4xx", "429", "5xx"] as const;
export type StatusClass = (typeof STATUS_CLASSES)[number];

export const USAGE_FLUSH_INTERVAL_MS = env.USAGE_FLUSH_MS;
const MINUTE_MS = 60_000;
const ROWS_PER_STATEMENT = 500;

/** 429 apart from other client errors: it is the evidence that a key has outgrown its tier. */
export function statusClass(status: number): StatusClass {
  if (status === 429) return "429";
  if (status >= 500) return "5xx";
  if (status >= 400) return "4xx";
  return "2xx";
}

interface MeterState {
  pending: Map<string, number>;
  timer: NodeJS.Timeout | null;
  flushing: Promise<void> | null;
}

// On globalThis: the proxy (which counts the 429s it refuses) and the route handlers are bundled apart but share a process.
const globalForMeter = globalThis as unknown as { __predmktUsageMeter?: MeterState };
const state: MeterState = (globalForMeter.__predmktUsageMeter ??= { pending: new Map<string, number>(), timer: null, flushing: null });

const field = (keyId: string, minute: number, operation: string, cls: StatusClass) => `${keyId}|${minute}|${cls}|${operation}`;

interface UsageRow {
  keyId: string;
  minute: number;
  statusClass: StatusClass;
  operation: string;
  count: number;
}

function parseField(name: string, count: number): UsageRow | null {
  const [keyId, minute, cls, ...operation] = name.split("|");
  if (!keyId || !Number.isFinite(Number(minute)) || !STATUS_CLASSES.includes(cls as StatusClass) || !(count > 0)) return null;
  return { keyId, minute: Number(minute), statusClass: cls as StatusClass, operation: operation.join("|"), count };
}

/** Counts one request. Synchronous and allocation-light: this runs on every authenticated request. */
export function recordUsage(keyId: string, operation: string, status: number, now = Date.now()): void {
  const name = field(keyId, now - (now % MINUTE_MS), operation, statusClass(status));
  state.pending.set(name, (state.pending.get(name) ?? 0) + 1);
  if (!state.timer) {
    state.timer = setInterval(() => void flushUsage(), USAGE_FLUSH_INTERVAL_MS);
    state.timer.unref();
  }
}

function mergeBack(batch: Map<string, number>): void {
  for (const [name, count] of batch) state.pending.set(name, (state.pending.get(name) ?? 0) + count);
}

/** Adds the rows to `key_usage`: one statement per 500 rows, conflicts add their counts. */
async function writeUsageRows(db: Db, rows: UsageRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const values = rows
      .slice(start, start + ROWS_PER_STATEMENT)
      .map((r) => Prisma.sql`(${r.keyId}::uuid, ${new Date(r.minute)}, ${r.operation}, ${r.statusClass}, ${r.count})`);
    await db.$executeRaw`
      INSERT INTO key_usage (key_id, minute, operation, status_class, count) VALUES ${Prisma.join(values)}
      ON CONFLICT (key_id, minute, operation, status_class) DO UPDATE SET count = key_usage.count + EXCLUDED.count`;
  }
}

const rowsOf = (entries: Iterable<[string, unknown]>) =>
  [...entries].map(([name, count]) => parseField(name, Number(count))).filter((r): r is UsageRow => r !== null);

/**
 * The Redis hash this deployment's counters meet in. Counts belong to the database they are flushed to, so the name
 * is derived from it: deployments (or test servers) sharing one Redis never flush each other's counts.
 */
function sharedUsageKey(): string {
  return `predmkt:usage:${DATA_NAMESPACE}`;
}

async function flushToStore(batch: Map<string, number>): Promise<void> {
  const kv = getLimitsKv();
  if (!kv) {
    if (batch.size) await writeUsageRows(await getDb(), rowsOf(batch));
    return;
  }
  const pendingKey = sharedUsageKey();
  if (batch.size) {
    const pipeline = kv.redis.pipeline();
    for (const [name, count] of batch) pipeline.hincrby(pendingKey, name, count);
    await pipeline.exec();
  }
  batch.clear(); // in the shared hash now: a failure below must not add it twice
  const claimed = `${pendingKey}:flushing:${randomUUID()}`;
  try {
    await kv.redis.rename(pendingKey, claimed);
  } catch (error) {
    if (/no such key/i.test(String(error))) return; // nothing pending anywhere
    throw error;
  }
  const counts = (await kv.redis.hgetall<Record<string, unknown>>(claimed)) ?? {};
  try {
    await writeUsageRows(await getDb(), rowsOf(Object.entries(counts)));
  } catch (error) {
    // Back into the shared hash for the next flush (by this process or another).
    const pipeline = kv.redis.pipeline();
    for (const [name, count] of Object.entries(counts)) pipeline.hincrby(pendingKey, name, Number(count));
    await pipeline.exec();
    await kv.redis.del(claimed);
    throw error;
  }
  await kv.redis.del(claimed);
}

/** Moves every count recorded so far out of this process. Concurrent calls share one flush. */
export function flushUsage(): Promise<void> {
  state.flushing ??= (async () => {
    const batch = state.pending;
    state.pending = new Map();
    try {
      await flushToStore(batch);
    } catch (error) {
      mergeBack(batch);
      log.warn("usage flush failed; counts kept for the next flush", errorFields(error));
    } finally {
      state.flushing = null;
    }
  })();
  return state.flushing;
}

/** Counts recorded but not yet in the database, for one key: this process's, plus the shared hash's with a store. */
export async function unflushedUsage(keyId: string): Promise<UsageRow[]> {
  const rows = rowsOf(state.pending).filter((r) => r.keyId === keyId);
  const kv = getLimitsKv();
  if (kv) {
    try {
      const shared = (await kv.redis.hgetall<Record<string, unknown>>(sharedUsageKey())) ?? {};
      rows.push(...rowsOf(Object.entries(shared)).filter((r) => r.keyId === keyId));
    } catch (error) {
      log.warn("usage store unreachable; this minute's count is this process's only", errorFields(error));
    }
  }
  return rows;
}

export type { UsageRow };
