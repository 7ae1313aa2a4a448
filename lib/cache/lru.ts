// The one in-process cache primitive (issue 23 item 3): a thin wrapper over lru-cache, bounded by entry count or by
// bytes (`sizeOf`), with an optional TTL. Every layer may import it (lib/cache sits below all of them); a cache that
// must survive Next's separate bundles of the proxy and the route handlers keeps its instance on globalThis by name.
import { LRUCache } from "lru-cache";

export interface CacheOptions<V> {
  /** Most entries kept (least recently used out first). */
  max?: number;
  /** Most bytes kept, with `sizeOf` giving an entry's bytes; an entry larger than this is not kept at all. */
  maxBytes?: number;
  sizeOf?: (value: V) => number;
  /** Entries lapse this long after they were set. */
  ttlMs?: number;
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
