// The one in-process cache primitive (issue 23 item 3): a thin wrapper over lru-cache, bounded by entry count or by
// bytes (`sizeOf`), with an optional TTL. Every layer may import it (lib/cache sits below all of them); a cache that
// must survive Next's separate bundles of the proxy and the route handlers keeps its instance on globalThis by name.
import { LRUCache } from "lru-cache";

interface CacheOptions<V> {
  /** Most entries kept (least recently used out first). */
  max?: number;
  /** Most bytes kept, with `sizeOf` giving an entry's bytes; an entry larger than this is not kept at all. */
  maxBytes?: number;
  sizeOf?: (value: V) => number;
  /** Entries lapse this long after they were set (a `set` may give its own `ttl`). */
  ttlMs?: number;
  /**
   * The clock TTLs are measured on, in ms. By default the wall clock (`Date.now`), like every other TTL in lib/, so a
   * test moves it with `vi.setSystemTime` instead of sleeping past a TTL.
   */
  now?: () => number;
}

export type Cache<V extends object> = LRUCache<string, V>;

export function createCache<V extends object>(options: CacheOptions<V>): Cache<V> {
  if (options.max === undefined && options.maxBytes === undefined) throw new Error("a cache needs max or maxBytes");
  const lru: Partial<LRUCache.OptionsBase<string, V, unknown>> = {};
  if (options.max !== undefined) lru.max = options.max;
  if (options.maxBytes !== undefined) {
    const sizeOf = options.sizeOf ?? (() => 1);
    lru.maxSize = options.maxBytes;
    lru.sizeCalculation = (value) => Math.max(1, sizeOf(value));
  }
  if (options.ttlMs !== undefined) lru.ttl = options.ttlMs;
  // Read at each use (a test may replace Date); lru-cache would otherwise keep one reading for 1 ms of real time.
  const now = options.now ?? (() => Date.now());
  lru.perf = { now: () => now() };
  lru.ttlResolution = 0;
  return new LRUCache<string, V>(lru as LRUCache.Options<string, V, unknown>);
}

/** One cache per process under `name`, shared by every bundle that asks for it (the proxy and the routes). */
export function processCache<V extends object>(name: string, options: CacheOptions<V>): Cache<V> {
  const registry = ((globalThis as unknown as { __predmktCaches?: Map<string, Cache<object>> }).__predmktCaches ??= new Map());
  let cache = registry.get(name) as Cache<V> | undefined;
  if (!cache) {
    cache = createCache(options);
    registry.set(name, cache);
  }
  return cache;
}

/**
 * Concurrent loads of one key share one promise: the first caller's `load` runs, later callers get its promise
 * until it settles. `inFlight` holds only loads in progress, so it is bounded by the callers waiting.
 */
export function coalesce<V>(inFlight: Map<string, Promise<V>>, key: string, load: () => Promise<V>): Promise<V> {
  const pending = inFlight.get(key);
  if (pending) return pending;
  const started = load().finally(() => inFlight.delete(key));
  inFlight.set(key, started);
  return started;
}
