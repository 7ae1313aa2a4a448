// The oracle endpoints' cache: the same TTL cache as the upstream layer (coalesced loads, last good value served
// "stale" for up to 10 minutes when a refresh fails, then the error: 502/504), kept in process only — chain reads
// carry bigints and are cheap to redo per instance.
import { cachedLoad, clearLocalCache } from "@/lib/upstream/cache";

export interface CachedValue<T> {
  value: T;
  cache: "hit" | "miss" | "stale";
  ageS: number;
  /** Seconds this value stays fresh (0 when stale). */
  maxAgeS: number;
}

export async function cachedRead<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<CachedValue<T>> {
  const cached = await cachedLoad(`oracle:${key}`, { ttlS: ttlMs / 1000, kv: null }, load);
  return { value: cached.value, cache: cached.cache, ageS: cached.ageS, maxAgeS: cached.ttlRemainingS };
}

export function clearOracleCache(): void {
  clearLocalCache();
}
