// The disputes join's own cache (docs/architecture.md, "Caches"): what lib/resolution computes from a stored oracle
// answer (the disputes joined to their markets, the markets' resolutions, one dispute's detail), keyed by that
// answer's build time, on the cache primitive. It is not the upstream cache: that one holds Polymarket bodies and
// shares them through the KV store under Polymarket's URLs, while a join is a function of our own database.
// Per key: one computation for concurrent callers, reused for JOIN_TTL_S; when a recomputation fails, the last join of
// the same key stands in for up to STALE_MAX_AGE_S (as for an upstream body: docs/api-decisions.md#caching).
import { type Cache, coalesce, processCache } from "@/lib/cache/lru";
import { log } from "@/lib/log";
import { observeCache } from "@/lib/metrics/registry";
import { mayServeStale, STALE_MAX_AGE_S } from "@/lib/upstream";

/** How long one computed join is reused at most (the indexer stores a newer answer every pass anyway). */
export const JOIN_TTL_S = 60;

interface Entry<V> {
  value: V;
  /** When it was computed (ms since epoch). */
  at: number;
}

interface JoinCache<V> {
  /** The join for `key`: the cached one while younger than JOIN_TTL_S, else `build`'s (once for concurrent callers). */
  load(key: string, build: () => Promise<V>): Promise<V>;
}

const globalForJoins = globalThis as unknown as { __predmktJoinsInFlight?: Map<string, Map<string, Promise<unknown>>> };
const inFlightByName = (globalForJoins.__predmktJoinsInFlight ??= new Map<string, Map<string, Promise<unknown>>>());
const all = new Set<Cache<Entry<unknown>>>();

/**
 * A join cache of at most `max` entries (least recently used out first), one per process and `name`. An entry is
 * kept STALE_MAX_AGE_S, the longest it may stand in for a failed recomputation.
 */
export function joinCache<V>(name: string, max: number): JoinCache<V> {
  const entries = processCache<Entry<V>>(`join:${name}`, { max, ttlMs: STALE_MAX_AGE_S * 1000 });
  all.add(entries as Cache<Entry<unknown>>);
  let inFlight = inFlightByName.get(name) as Map<string, Promise<V>> | undefined;
  if (!inFlight) inFlightByName.set(name, (inFlight = new Map<string, Promise<V>>()));
  const pending = inFlight;

  return {
    async load(key, build) {
      const cached = entries.get(key);
      if (cached && Date.now() - cached.at < JOIN_TTL_S * 1000) {
        observeCache("join", "hit");
        return cached.value;
      }
      return coalesce(pending, key, async () => {
        try {
          const value = await build();
          entries.set(key, { value, at: Date.now() });
          observeCache("join", "miss");
          return value;
        } catch (error) {
          const last = entries.get(key);
          if (!last || !mayServeStale(error)) throw error;
          log.warn("join failed; serving the last one", {
            cache: name,
            key,
            age_s: Math.floor((Date.now() - last.at) / 1000),
            error: (error as Error).message,
          });
          observeCache("join", "stale");
          return last.value;
        }
      });
    },
  };
}

/** Forget every join in this process (tests). */
export function clearJoinCaches(): void {
  for (const entries of all) entries.clear();
}
