// TTL cache for Polymarket bodies, with request coalescing and stale-on-error (what lib/ computes from them, such as
// the disputes join, has its own caches: docs/architecture.md, "Caches").
// Two layers: an in-process LRU (always, on the cache primitive), and the shared KV store when one is configured
// (Upstash REST or Redis) so that serverless instances share one upstream fetch per key and TTL instead of each
// hitting Polymarket. The KV layer is best effort (lib/kv/best-effort.ts): every KV call has a short timeout and a
// failure falls back to the in-process layer; it never fails a request. On upstream failure the last good body is
// served for up to STALE_MAX_AGE_S, marked "stale".
import type { Redis } from "@upstash/redis";
import { ApiError } from "@/lib/api/errors";
import { createHash } from "node:crypto";
import { coalesce, processCache } from "@/lib/cache/lru";
import { env } from "@/lib/env";
import { kvBestEffort } from "@/lib/kv/best-effort";
import { getRedis } from "@/lib/kv/redis";
import { log } from "@/lib/log";
import { observeCache } from "@/lib/metrics/registry";

export type CacheStatus = "hit" | "miss" | "stale";

export interface Cached<T> {
  value: T;
  cache: CacheStatus;
  /** When the body was fetched from the upstream (ms since epoch). */
  fetchedAt: number;
  /** Whole seconds since fetchedAt. */
  ageS: number;
  /** Seconds the body stays fresh; 0 for stale bodies. Drives `Cache-Control: max-age`. */
  ttlRemainingS: number;
}

interface CacheOptions {
  ttlS: number;
  /** Deadline for waiting on another instance's fetch of the same key (ms since epoch). */
  deadline?: number;
  /** KV store to share through; defaults to getRedis(). Tests pass a fake; null disables the shared layer. */
  kv?: Pick<Redis, "get" | "set" | "del"> | null;
}

/** How long a last good body may stand in for a failing upstream (docs/api-decisions.md#caching: 10 minutes). */
export const STALE_MAX_AGE_S = 600;
const KEY_PREFIX = "predmkt:upstream:v1:";
/** Bodies kept in process, least recently used out first; no TTL of its own: each caller's `ttlS` decides freshness. */
export const LOCAL_MAX_ENTRIES = 2_000;
const LOCK_POLL_MS = 100;

interface Entry<T = unknown> {
  v: T;
  t: number;
}

// On globalThis by name (processCache): the proxy's and the routes' bundles share one cache per process.
const entries = processCache<Entry>("upstream-bodies", { max: LOCAL_MAX_ENTRIES });
const globalForCache = globalThis as unknown as { __predmktUpstreamInFlight?: Map<string, Promise<Cached<unknown>>> };
const inFlight = (globalForCache.__predmktUpstreamInFlight ??= new Map<string, Promise<Cached<unknown>>>());

/** Forget every cached body in this process (tests). */
export function clearLocalCache(): void {
  entries.clear();
}

/**
 * Key of a body in the shared KV store. Namespaced by the upstream base URLs: instances pointed at another upstream
 * (a simulator, a staging proxy) sharing one Redis must never serve each other's bodies.
 */
export function kvKeyFor(key: string): string {
  const upstream = createHash("sha256")
    .update([env.POLYMARKET_GAMMA_URL, env.POLYMARKET_DATA_URL, env.POLYMARKET_CLOB_URL].join("|"))
    .digest("hex")
    .slice(0, 12);
  return `${KEY_PREFIX}${upstream}:${key}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function isEntry(value: unknown): value is Entry {
  return typeof value === "object" && value !== null && "t" in value && typeof (value as Entry).t === "number" && "v" in value;
}

function result<T>(entry: Entry<T>, status: CacheStatus, ttlS: number, now = Date.now()): Cached<T> {
  observeCache("upstream", status);
  const ageMs = Math.max(0, now - entry.t);
  return {
    value: entry.v,
    cache: status,
    fetchedAt: entry.t,
    ageS: Math.floor(ageMs / 1000),
    ttlRemainingS: status === "stale" ? 0 : Math.max(0, Math.ceil((ttlS * 1000 - ageMs) / 1000)),
  };
}

const fresh = (entry: Entry | undefined, ttlS: number, now = Date.now()) => !!entry && now - entry.t < ttlS * 1000;

/** Only upstream failures fall back to a stale body; a 404 or a bad parameter is an answer, not an outage. */
export function mayServeStale(error: unknown): boolean {
  return !(error instanceof ApiError) || error.code === "upstream_unavailable" || error.code === "upstream_timeout";
}

/**
 * Returns the cached body for `key` while it is younger than `ttlS`; otherwise loads it once (concurrent callers
 * in this process share the load; with a KV store, other instances wait for the lock holder's result), and on
 * failure serves the last good body up to STALE_MAX_AGE_S old.
 */
export async function cachedLoad<T>(key: string, options: CacheOptions, loader: () => Promise<T>): Promise<Cached<T>> {
  // A get makes the entry recent: eviction under memory pressure is least-recently-used.
  const local = entries.get(key) as Entry<T> | undefined;
  if (fresh(local, options.ttlS)) return result(local!, "hit", options.ttlS);
  return coalesce(inFlight as Map<string, Promise<Cached<T>>>, key, () => loadShared(key, options, loader, local));
}

async function loadShared<T>(
  key: string,
  options: CacheOptions,
  loader: () => Promise<T>,
  local: Entry<T> | undefined,
): Promise<Cached<T>> {
  const kv = options.kv === undefined ? getRedis() : options.kv;
  const kvKey = kvKeyFor(key);
  const lockKey = `${kvKey}:lock`;
  let shared: Entry<T> | undefined;
  let holdsLock = false;

  if (kv) {
    const got = await kvBestEffort("get", () => kv.get<Entry<T>>(kvKey));
    if (isEntry(got)) {
      shared = got;
      if (fresh(shared, options.ttlS)) {
        entries.set(key, shared);
        return result(shared, "hit", options.ttlS);
      }
    }
    // One instance fetches; the others wait for its result instead of all hitting the upstream at once.
    const deadline = options.deadline ?? Date.now() + 10_000;
    const lockMs = Math.max(1_000, deadline - Date.now() + 1_000);
    const locked = await kvBestEffort("lock", () => kv.set(lockKey, "1", { nx: true, px: lockMs }));
    holdsLock = locked === "OK";
    if (!holdsLock && locked !== undefined) {
      while (Date.now() + LOCK_POLL_MS < deadline) {
        await sleep(LOCK_POLL_MS);
        const again = await kvBestEffort("get", () => kv.get<Entry<T>>(kvKey));
        if (isEntry(again) && fresh(again, options.ttlS)) {
          entries.set(key, again);
          return result(again, "hit", options.ttlS);
        }
        const stillLocked = await kvBestEffort("get-lock", () => kv.get(lockKey));
        if (stillLocked === null) break; // the holder gave up or failed: fetch ourselves
      }
    }
  }

  try {
    const value = await loader();
    const entry: Entry<T> = { v: value, t: Date.now() };
    entries.set(key, entry);
    if (kv) {
      // Kept past the TTL so another instance can serve it stale if the upstream fails.
      await kvBestEffort("set", () => kv.set(kvKey, entry, { px: (options.ttlS + STALE_MAX_AGE_S) * 1000 }));
    }
    return result(entry, "miss", options.ttlS);
  } catch (error) {
    if (mayServeStale(error)) {
      const candidates = [local, entries.get(key) as Entry<T> | undefined, shared].filter(
        (e): e is Entry<T> => !!e && Date.now() - e.t <= STALE_MAX_AGE_S * 1000,
      );
      const newest = candidates.sort((a, b) => b.t - a.t)[0];
      if (newest) {
        log.warn("upstream failed; serving stale body", {
          key,
          age_s: Math.floor((Date.now() - newest.t) / 1000),
          error: (error as Error).message,
        });
        return result(newest, "stale", options.ttlS);
      }
    }
    throw error;
  } finally {
    if (kv && holdsLock) await kvBestEffort("unlock", () => kv.del(lockKey));
  }
}
