// Aggregates over sampled data (stats, categories, movers per window, abnormal trades, ticks, whales) only change
// when a pass lands, so each is computed once per (key, as_of): right after the pass (lib/predmkt/after-pass.ts),
// or by the first reader when no pass ran in this process. Kept in memory and, when a KV store is configured, shared
// through it so the instance that ran the pass (a cron function) does the work for every instance.
// A value for client-chosen filters (whales of one market or event) is `filtered`: it is never written to the shared
// store and lives in an LRU of its own, so no flood of distinct filters can fill the store or push the aggregates out
// (SECURITY.md "Shared stores").
import { processCache } from "@/lib/cache/lru";
import { DATA_NAMESPACE } from "@/lib/kv/namespace";
import { kvBestEffort } from "@/lib/kv/best-effort";
import { getRedis } from "@/lib/kv/redis";

const MAX_ENTRIES = 64;
const MAX_FILTERED_ENTRIES = 64;
const KV_PREFIX = "predmkt:perpass:v1:";
// Long enough for a late pass; a new pass writes new keys, so nothing stale is ever read back.
const KV_TTL_MS = 15 * 60_000;

// Least recently used out first: a pass's own entries (about fifteen, written right after it lands) are never dropped
// for older ones, as they were when a full map was cleared wholesale. One of each per process (processCache).
const aggregates = processCache<Promise<unknown>>("per-pass:aggregates", { max: MAX_ENTRIES });
const filtered = processCache<Promise<unknown>>("per-pass:filtered", { max: MAX_FILTERED_ENTRIES });

/** Forget every per-pass value in this process (tests). */
export function clearPerPass(): void {
  aggregates.clear();
  filtered.clear();
}

/**
 * Values must be plain JSON (they may travel through the KV store); concurrent first requests share one computation.
 * `filtered`: the key carries a client-chosen filter (kept in process, in its own LRU).
 */
export function oncePerPass<T>(key: string, at: Date, compute: () => Promise<T>, options: { filtered?: boolean } = {}): Promise<T> {
  const cacheKey = `${key}|${at.toISOString()}`;
  const map = options.filtered ? filtered : aggregates;
  let pending = map.get(cacheKey) as Promise<T> | undefined;
  if (!pending) {
    pending = options.filtered ? compute() : sharedCompute(`${KV_PREFIX}${DATA_NAMESPACE}:${cacheKey}`, compute);
    map.set(cacheKey, pending);
    pending.catch(() => map.delete(cacheKey));
  }
  return pending;
}

async function sharedCompute<T>(kvKey: string, compute: () => Promise<T>): Promise<T> {
  const kv = getRedis();
  if (!kv) return compute();
  const stored = await kvBestEffort("get", () => kv.get<{ v: T }>(kvKey));
  if (stored && typeof stored === "object" && "v" in stored) return stored.v;
  const value = await compute();
  await kvBestEffort("set", () => kv.set(kvKey, { v: value }, { px: KV_TTL_MS }));
  return value;
}
