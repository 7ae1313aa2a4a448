// Per-key and per-IP sliding-window rate limits through @upstash/ratelimit when a shared store is configured
// (Upstash REST, or self-hosted Redis via REDIS_URL), otherwise an in-process limiter with the same algorithm.
//
// Store-outage policy (documented in the README): if the shared store errors or does not answer within
// RATE_LIMIT_STORE_TIMEOUT_MS, the request is counted by the in-process limiter instead — limits stay enforced per
// server instance, the request is neither failed nor delayed, and /api/health reports the store as down.
//
// The in-process limiter reads its own clock, which a test can hold (docs/testing.md "Waiting in tests"): a test
// server with RATE_LIMIT_CLOCK_HELD (refused on a deployment), a unit test with `holdLimiterClock`. Held, every
// request falls in one window, so a test counts exact admissions without waiting for a window's edge to pass.
import { Ratelimit } from "@upstash/ratelimit";
import { type Cache, createCache } from "@/lib/cache/lru";
import { env } from "@/lib/env";
import { getLimitsKv, type KvKind } from "@/lib/kv/redis";
import { errorFields, log } from "@/lib/log";
import { withTimeout } from "@/lib/timeout";

export const WINDOW_MS = 60_000;

export interface LimitResult {
  success: boolean;
  limit: number;
  remaining: number;
  /** Unix ms at which the current window ends. */
  reset: number;
  store: "memory" | KvKind;
}

type WindowEntry = { window: number; current: number; previous: number };

/**
 * Upstash's sliding window, in process: the count of the current fixed window plus the previous window's count
 * weighted by how much of it still overlaps the sliding window. A fresh identifier gets exactly `limit` requests.
 *
 * Memory is bounded without ever forgetting everything: identifiers are kept in least-recently-used order and the
 * oldest is evicted past `maxEntries`. Identifiers that were refused ("offenders") live in their own LRU and are only
 * evicted by newer offenders, so a flood of fresh identifiers (forged addresses, random keys) can push out other
 * fresh identifiers but never hands a limited client a new allowance.
 *
 * This is the limiter's state, not a cache: an evicted entry is a forgotten count, not a miss to load again. It sits
 * on the cache primitive only for its bounded least-recently-used map, with no TTL (an entry older than the previous
 * window already counts as empty; a TTL would add nothing but a second clock).
 */
export class MemorySlidingWindow {
  private readonly windows: Cache<WindowEntry>;
  private readonly offenders: Cache<WindowEntry>;

  constructor(
    private readonly windowMs = WINDOW_MS,
    maxEntries = 100_000,
    maxOffenders = Math.max(1, Math.floor(maxEntries / 5)),
  ) {
    this.windows = createCache<WindowEntry>({ max: maxEntries });
    this.offenders = createCache<WindowEntry>({ max: maxOffenders });
  }

  get size(): { entries: number; offenders: number } {
    return { entries: this.windows.size, offenders: this.offenders.size };
  }

  limit(identifier: string, limit: number, now = Date.now()): Omit<LimitResult, "store"> {
    const window = Math.floor(now / this.windowMs);
    const wasOffender = this.offenders.has(identifier);
    let entry = this.offenders.get(identifier) ?? this.windows.get(identifier);
    if (!entry || entry.window < window - 1) entry = { window, current: 0, previous: 0 };
    else if (entry.window === window - 1) entry = { window, current: 0, previous: entry.current };
    const weightedPrevious = Math.floor((1 - (now % this.windowMs) / this.windowMs) * entry.previous);
    const reset = (window + 1) * this.windowMs;
    const refused = weightedPrevious + entry.current >= limit;
    if (!refused) entry.current += 1;
    // Set as the most recent of its map (the least recent goes past the bound); an offender stays one until its
    // windows age out.
    this.windows.delete(identifier);
    this.offenders.delete(identifier);
    const offending = refused || (wasOffender && entry.previous + entry.current >= limit);
    const home = offending ? this.offenders : this.windows;
    home.set(identifier, entry);
    if (refused) return { success: false, limit, remaining: 0, reset };
    return { success: true, limit, remaining: Math.max(0, limit - (entry.current + weightedPrevious)), reset };
  }
}

const globalForLimits = globalThis as unknown as {
  __predmktLimits?: {
    memory: MemorySlidingWindow;
    addresses: MemorySlidingWindow;
    shared: Map<number, Ratelimit>;
    lastStoreError: number;
    storeDownSince: number | null;
    /** The instant the in-process limiter's clock stands at, or null for the wall clock. */
    heldAt: number | null;
  };
};
const state = (globalForLimits.__predmktLimits ??= {
  memory: new MemorySlidingWindow(),
  // Budgets keyed by client address live apart from key budgets: a flood of addresses can only evict its own kind.
  addresses: new MemorySlidingWindow(WINDOW_MS, 50_000),
  shared: new Map<number, Ratelimit>(),
  lastStoreError: 0,
  storeDownSince: null,
  heldAt: env.RATE_LIMIT_CLOCK_HELD ? Date.now() : null,
});

/**
 * Holds the in-process limiter's clock at `at` (null: back to the wall clock). For tests: the proxy and the routes
 * share one limiter per process, so this holds theirs too. A shared store counts on its own clock and is not held.
 */
export function holdLimiterClock(at: number | null): void {
  state.heldAt = at;
}

function sharedLimiter(limit: number): Ratelimit | null {
  const kv = getLimitsKv();
  if (!kv) return null;
  let limiter = state.shared.get(limit);
  if (!limiter) {
    limiter = new Ratelimit({
      redis: kv.redis,
      limiter: Ratelimit.slidingWindow(limit, "60 s"),
      prefix: `predmkt:rl:${limit}`,
      // Our own timeout below decides the fallback; Upstash's would report success with limit 0.
      timeout: 0,
      analytics: false,
    });
    state.shared.set(limit, limiter);
  }
  return limiter;
}

/** Counts one request for `identifier` (e.g. `key:<id>` or `ip:<addr>`) against `limit` per 60 s. */
export async function consume(identifier: string, limit: number): Promise<LimitResult> {
  const limiter = sharedLimiter(limit);
  if (limiter) {
    try {
      const result = await withTimeout(
        limiter.limit(identifier),
        env.RATE_LIMIT_STORE_TIMEOUT_MS,
        "rate-limit store did not answer in time",
      );
      state.storeDownSince = null;
      return { success: result.success, limit: result.limit, remaining: result.remaining, reset: result.reset, store: getLimitsKv()!.kind };
    } catch (error) {
      state.storeDownSince ??= Date.now();
      if (Date.now() - state.lastStoreError > 60_000) {
        state.lastStoreError = Date.now();
        log.warn("rate-limit store unreachable; counting in process", errorFields(error));
      }
    }
  }
  const memory = identifier.startsWith("key:") ? state.memory : state.addresses;
  const wall = Date.now();
  const now = state.heldAt ?? wall;
  const result = memory.limit(identifier, limit, now);
  // The window's end as the wall clock sees it, as far away as on the limiter's clock: the same instant unless the
  // clock is held, and then a window that never ends keeps announcing the time it had left (Retry-After stays true).
  return { ...result, reset: wall + (result.reset - now), store: "memory" };
}

export function rateLimitStoreKind(): "memory" | KvKind {
  return getLimitsKv()?.kind ?? "memory";
}

/** Pings the shared store (for /api/health). */
export async function checkRateLimitStore(): Promise<{ ok: boolean; kind: "memory" | KvKind; latency_ms: number | null; error?: string }> {
  const kv = getLimitsKv();
  if (!kv) return { ok: true, kind: "memory", latency_ms: 0 };
  const started = performance.now();
  try {
    await withTimeout(kv.redis.ping(), Math.max(env.RATE_LIMIT_STORE_TIMEOUT_MS, 1000));
    return { ok: true, kind: kv.kind, latency_ms: Math.round(performance.now() - started) };
  } catch (error) {
    // The reason is logged, not published: a public health check must not describe our infrastructure.
    log.warn("rate-limit store health check failed", errorFields(error));
    return { ok: false, kind: kv.kind, latency_ms: null, error: "unreachable" };
  }
}

/** The headers every response that identified a key carries (IETF draft pair plus the legacy X- set). */
export function rateLimitHeaders(
  result: Pick<LimitResult, "limit" | "remaining" | "reset">,
  tier: string | null,
  now = Date.now(),
): Record<string, string> {
  const resetIn = Math.max(0, Math.ceil((result.reset - now) / 1000));
  const policy = tier ? "apikey" : "ip";
  return {
    ...(tier ? { "X-Api-Tier": tier } : {}),
    "X-RateLimit-Limit": String(result.limit),
    "X-RateLimit-Remaining": String(result.remaining),
    "X-RateLimit-Reset": String(Math.ceil(result.reset / 1000)),
    "RateLimit-Policy": `"${policy}";q=${result.limit};w=${WINDOW_MS / 1000}`,
    RateLimit: `"${policy}";r=${result.remaining};t=${resetIn}`,
  };
}

/** Whole seconds until the window resets, at least 1 (RFC 9110 delay-seconds). */
export function retryAfterSeconds(reset: number, now = Date.now()): number {
  return Math.max(1, Math.ceil((reset - now) / 1000));
}
