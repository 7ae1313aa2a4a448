// The upstream governor: every request to Polymarket takes a slot in the budgets of its host and of its endpoint
// before it is sent, and waits (queues) when a budget is spent instead of bursting into Cloudflare's throttling.
//
// The table is Polymarket's documented limits (docs.polymarket.com, API reference: rate-limits: "enforced by
// Cloudflare ... sliding windows ... throttled (delayed/queued), not immediately rejected"), per 10-second window.
// We spend at most BUDGET_SHARE of each: the limits are per client IP, shared with anything else behind it.
// Data API v2 paths (`/v2/trades`) fall under their v1 endpoint's budget (`/trades`): not documented separately,
// so the stricter reading. With Upstash/Redis configured the budgets are shared by every instance (1-second buckets
// summed over the window); when the store fails, this process counts alone.
import { AsyncLocalStorage } from "node:async_hooks";
import type { Redis } from "@upstash/redis";
import { getRedis } from "@/lib/kv/redis";
import { log } from "@/lib/log";
import type { UpstreamHost } from "./http";
import { withTimeout } from "@/lib/timeout";

export const WINDOW_MS = 10_000;
const BUDGET_SHARE = 0.8;

interface Limit {
  host: UpstreamHost;
  /** Path prefix (after stripping `/v2`); null: the whole host. */
  path: string | null;
  /** Documented requests per 10 s. */
  per10s: number;
}

/** docs.polymarket.com, API reference: rate-limits (crawled 2026-06). */
export const DOCUMENTED_LIMITS: readonly Limit[] = [
  { host: "gamma", path: null, per10s: 4000 },
  { host: "gamma", path: "/events", per10s: 500 },
  { host: "gamma", path: "/markets", per10s: 300 },
  { host: "gamma", path: "/comments", per10s: 200 },
  { host: "gamma", path: "/tags", per10s: 200 },
  { host: "gamma", path: "/public-search", per10s: 350 },
  { host: "data", path: null, per10s: 1000 },
  { host: "data", path: "/trades", per10s: 200 },
  { host: "data", path: "/positions", per10s: 150 },
  { host: "data", path: "/closed-positions", per10s: 150 },
  { host: "clob", path: null, per10s: 9000 },
  { host: "clob", path: "/prices-history", per10s: 1000 },
  { host: "clob", path: "/book", per10s: 1500 },
  { host: "clob", path: "/price", per10s: 1500 },
  { host: "clob", path: "/midpoint", per10s: 1500 },
];

export function scopeName(limit: Limit): string {
  return `${limit.host}${limit.path ?? ""}`;
}

/** The budgets one request counts against: its host's and, when documented, its endpoint's. */
export function limitsFor(host: UpstreamHost, path: string): Limit[] {
  const bare = path.replace(/^\/v2(?=\/)/, "");
  return DOCUMENTED_LIMITS.filter(
    (l) => l.host === host && (l.path === null || bare === l.path || bare.startsWith(`${l.path}/`) || bare.startsWith(`${l.path}?`)),
  );
}

export const budgetOf = (limit: Limit) => Math.floor(limit.per10s * BUDGET_SHARE);

interface GovernorState {
  /** Send times (ms) per scope within the current window, oldest first. */
  sent: Map<string, number[]>;
  /** Requests to one host are admitted one at a time, in arrival order. */
  queues: Map<UpstreamHost, Promise<void>>;
  /** Highest count seen in any window, per scope (for the bench and tests). */
  peak: Map<string, number>;
  /** Requests admitted per "host path" since start (for per-pass accounting). */
  requests: Map<string, number>;
}

const globalForGovernor = globalThis as unknown as { __predmktGovernor?: GovernorState };

function state(): GovernorState {
  globalForGovernor.__predmktGovernor ??= { sent: new Map(), queues: new Map(), peak: new Map(), requests: new Map() };
  return globalForGovernor.__predmktGovernor;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** "host path" with the ids, condition ids and slugs folded: `gamma /markets/{id}`, `gamma /events/slug/{slug}`. */
export function endpointKey(host: UpstreamHost, path: string): string {
  const bare = path.split("?")[0];
  const folded = bare.replace(/\/slug\/[^/]+$/, "/slug/{slug}").replace(/\/(\d+|0x[0-9a-fA-F]+)(?=\/|$)/g, "/{id}");
  return `${host} ${folded}`;
}

// Requests admitted while a caller's counter is in scope (a sampler pass's) are also counted there, so one pass's
// count leaves out whatever else the same process sends meanwhile (live endpoints, the dashboard's reads).
const scopedCounter = new AsyncLocalStorage<Map<string, number>>();

/** Runs `work` counting every upstream request it sends (attempts, retries included) into `into`, by endpointKey. */
export function countRequests<T>(into: Map<string, number>, work: () => Promise<T>): Promise<T> {
  return scopedCounter.run(into, work);
}

function pruned(list: number[], now: number): number[] {
  let i = 0;
  while (i < list.length && list[i] <= now - WINDOW_MS) i++;
  if (i > 0) list.splice(0, i);
  return list;
}

/** Milliseconds until every budget has room in this process's own window; 0 when it has room now. */
function localWait(limits: readonly Limit[], now: number): number {
  const s = state();
  let wait = 0;
  for (const l of limits) {
    const list = pruned(s.sent.get(scopeName(l)) ?? [], now);
    s.sent.set(scopeName(l), list);
    const budget = budgetOf(l);
    if (list.length >= budget) wait = Math.max(wait, list[list.length - budget] + WINDOW_MS - now);
  }
  return wait;
}

function recordLocal(limits: readonly Limit[], now: number): void {
  const s = state();
  for (const l of limits) {
    const list = s.sent.get(scopeName(l)) ?? [];
    list.push(now);
    s.sent.set(scopeName(l), list);
    s.peak.set(scopeName(l), Math.max(s.peak.get(scopeName(l)) ?? 0, list.length));
  }
}

const KV_PREFIX = "predmkt:governor:v1:";
const KV_TIMEOUT_MS = 300;

function withKvTimeout<T>(call: Promise<T>): Promise<T> {
  return withTimeout(call, KV_TIMEOUT_MS, "governor store timeout");
}

/**
 * Shared window: one counter per scope and second; a slot is taken by incrementing this second's counters and
 * given back when the sum over the window then exceeds a budget. Returns the wait (ms) when there was no room.
 */
async function sharedTake(kv: Pick<Redis, "mget" | "incr" | "decr" | "expire">, limits: readonly Limit[], now: number): Promise<number> {
  const second = Math.floor(now / 1000);
  const seconds = Array.from({ length: WINDOW_MS / 1000 }, (_, i) => second - i);
  const taken: string[] = [];
  for (const l of limits) {
    const key = `${KV_PREFIX}${scopeName(l)}:${second}`;
    const count = await withKvTimeout(kv.incr(key));
    taken.push(key);
    if (count === 1) await withKvTimeout(kv.expire(key, WINDOW_MS / 1000 + 5));
    const window = await withKvTimeout(kv.mget<(number | string | null)[]>(...seconds.map((s) => `${KV_PREFIX}${scopeName(l)}:${s}`)));
    const total = window.reduce<number>((sum, v) => sum + Number(v ?? 0), 0);
    if (total > budgetOf(l)) {
      for (const k of taken) await withKvTimeout(kv.decr(k));
      return 1000 - (now % 1000) + 5; // try again in the next second's bucket
    }
  }
  return 0;
}

/**
 * Waits for a slot in every budget of this request, in arrival order; throws `onTimeout()` when the wait would pass
 * the deadline. The wait counts against the caller's deadline like any other part of the request.
 */
export async function acquireSlot(host: UpstreamHost, path: string, deadline: number, onTimeout: () => Error): Promise<void> {
  const limits = limitsFor(host, path);
  const s = state();
  const counter = scopedCounter.getStore();
  const turn = (s.queues.get(host) ?? Promise.resolve()).then(async () => {
    let kv: Pick<Redis, "mget" | "incr" | "decr" | "expire"> | null = null;
    try {
      kv = getRedis();
    } catch {
      kv = null;
    }
    for (;;) {
      const now = Date.now();
      let wait = localWait(limits, now);
      if (wait === 0 && kv) {
        try {
          wait = await sharedTake(kv, limits, now);
        } catch (error) {
          log.warn("upstream governor: shared store failed, counting in process", { error: (error as Error).message });
          kv = null;
        }
      }
      if (wait === 0) {
        recordLocal(limits, Date.now());
        const key = endpointKey(host, path);
        s.requests.set(key, (s.requests.get(key) ?? 0) + 1);
        if (counter) counter.set(key, (counter.get(key) ?? 0) + 1);
        return;
      }
      if (Date.now() + wait >= deadline) throw onTimeout();
      await sleep(wait);
    }
  });
  // The next request waits for this one's admission, not for its outcome.
  s.queues.set(
    host,
    turn.catch(() => undefined),
  );
  return turn;
}

/** Highest number of requests seen in one window per scope, with its budget and documented limit. */
export function governorPeaks(): { scope: string; peak: number; budget: number; documented: number }[] {
  const s = state();
  return DOCUMENTED_LIMITS.filter((l) => s.peak.has(scopeName(l))).map((l) => ({
    scope: scopeName(l),
    peak: s.peak.get(scopeName(l)) ?? 0,
    budget: budgetOf(l),
    documented: l.per10s,
  }));
}

/** Requests admitted per "host path" since the process started (paths with ids folded). */
export function requestsByEndpoint(): Record<string, number> {
  return Object.fromEntries([...state().requests.entries()].sort(([a], [b]) => a.localeCompare(b)));
}
