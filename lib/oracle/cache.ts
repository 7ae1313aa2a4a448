// In-process TTL cache for the oracle endpoints, on globalThis (Next can load this module in several bundles).
// Identical concurrent loads share one flight. When a refresh fails, the last good value is served for up to
// STALE_MAX_MS marked "stale"; past that the error propagates (502/504).
export const STALE_MAX_MS = 10 * 60_000;

interface Entry {
  value: unknown;
  storedAt: number;
}

interface CacheState {
  entries: Map<string, Entry>;
  inflight: Map<string, Promise<unknown>>;
}

const store = globalThis as unknown as { __predmktOracleCache?: CacheState };
function state(): CacheState {
  store.__predmktOracleCache ??= { entries: new Map(), inflight: new Map() };
  return store.__predmktOracleCache;
}

export interface CachedValue<T> {
  value: T;
  cache: "hit" | "miss" | "stale";
  ageS: number;
  /** Seconds this value stays fresh (0 when stale). */
  maxAgeS: number;
}

export async function cachedRead<T>(key: string, ttlMs: number, load: () => Promise<T>, now: () => number = Date.now): Promise<CachedValue<T>> {
  const { entries, inflight } = state();
  const entry = entries.get(key);
  const fresh = (e: Entry) => ({
    value: e.value as T,
    ageS: Math.floor((now() - e.storedAt) / 1000),
    maxAgeS: Math.max(0, Math.ceil((e.storedAt + ttlMs - now()) / 1000)),
  });
  if (entry && now() - entry.storedAt < ttlMs) return { ...fresh(entry), cache: "hit" };
  let flight = inflight.get(key) as Promise<T> | undefined;
  if (!flight) {
    flight = load();
    inflight.set(key, flight);
    flight.then(
      (value) => entries.set(key, { value, storedAt: now() }),
      () => undefined,
    ).finally(() => inflight.delete(key));
  }
  try {
    const value = await flight;
    return { value, cache: "miss", ageS: 0, maxAgeS: Math.ceil(ttlMs / 1000) };
  } catch (error) {
    const last = entries.get(key);
    if (last && now() - last.storedAt < STALE_MAX_MS) return { ...fresh(last), cache: "stale", maxAgeS: 0 };
    throw error;
  }
}

export function clearOracleCache(): void {
  state().entries.clear();
}
