// The one way this service talks to Polymarket: a deadline per request, retries with backoff that honour
// `Retry-After`, a concurrency cap per upstream host, coalescing of identical in-flight requests, and zod validation
// of every body. Failures leave here as ApiErrors with the codes DESIGN.md fixes: a timeout is `upstream_timeout`
// (504); 5xx, 429 after the retries, malformed bodies and network errors are `upstream_unavailable` (502).
import type { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { env } from "@/lib/env";
import { log } from "@/lib/log";

export type UpstreamHost = "gamma" | "data" | "clob";

export type QueryValue = string | number | boolean | undefined | null | readonly string[];

export interface UpstreamRequest {
  host: UpstreamHost;
  /** Path below the host's base URL, starting with `/`. */
  path: string;
  query?: Record<string, QueryValue>;
  method?: "GET" | "POST";
  body?: unknown;
}

export interface FetchOptions {
  /** Absolute deadline in ms since epoch; the whole call (queueing, attempts, backoff) must finish by then. */
  deadline?: number;
  /** Answer null for an upstream 404 (unknown slug/id) instead of failing. */
  allowNotFound?: boolean;
}

const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);
const BASE_BACKOFF_MS = 200;
const MAX_BACKOFF_MS = 2_000;

export function baseUrl(host: UpstreamHost): string {
  const url = host === "gamma" ? env.POLYMARKET_GAMMA_URL : host === "data" ? env.POLYMARKET_DATA_URL : env.POLYMARKET_CLOB_URL;
  return (url ?? "").replace(/\/+$/, "");
}

/** Canonical URL: query keys sorted so that equal requests coalesce and cache under one key. */
export function buildUrl(request: Pick<UpstreamRequest, "host" | "path" | "query">): string {
  const url = new URL(baseUrl(request.host) + request.path);
  const entries = Object.entries(request.query ?? {}).sort(([a], [b]) => a.localeCompare(b));
  for (const [key, value] of entries) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, item);
    else url.searchParams.set(key, String(value));
  }
  return url.toString();
}

// ---------------------------------------------------------------------------------------------------------------
// Per-host concurrency cap. Polymarket throttles per IP (Cloudflare); a burst of our own requests must queue here
// rather than pile onto the upstream. Waiting in the queue counts against the caller's deadline.

class Semaphore {
  private active = 0;
  private readonly waiting: { resolve: () => void; reject: (e: unknown) => void }[] = [];

  constructor(private readonly limit: () => number) {}

  async acquire(deadline: number, onTimeout: () => Error): Promise<() => void> {
    if (this.active < this.limit()) {
      this.active++;
      return this.releaser();
    }
    await new Promise<void>((resolve, reject) => {
      const entry = { resolve: () => (clearTimeout(timer), resolve()), reject };
      const timer = setTimeout(() => {
        const at = this.waiting.indexOf(entry);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(onTimeout());
      }, Math.max(0, deadline - Date.now()));
      this.waiting.push(entry);
    });
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next.resolve(); // the slot passes straight to the next waiter
      else this.active--;
    };
  }

  get inUse(): number {
    return this.active;
  }
  get queued(): number {
    return this.waiting.length;
  }
}

interface UpstreamState {
  semaphores: Record<UpstreamHost, Semaphore>;
  inFlight: Map<string, Promise<unknown>>;
  stats: Record<UpstreamHost, { requests: number; retries: number; failures: number; coalesced: number }>;
}

const globalForUpstream = globalThis as unknown as { __predmktUpstream?: UpstreamState };

function state(): UpstreamState {
  if (!globalForUpstream.__predmktUpstream) {
    const limit = () => env.UPSTREAM_CONCURRENCY;
    const zero = () => ({ requests: 0, retries: 0, failures: 0, coalesced: 0 });
    globalForUpstream.__predmktUpstream = {
      semaphores: { gamma: new Semaphore(limit), data: new Semaphore(limit), clob: new Semaphore(limit) },
      inFlight: new Map(),
      stats: { gamma: zero(), data: zero(), clob: zero() },
    };
  }
  return globalForUpstream.__predmktUpstream;
}

/** Counters since start: upstream requests actually sent, retries, failed calls, and calls served by coalescing. */
export function upstreamStats(): Record<UpstreamHost, { requests: number; retries: number; failures: number; coalesced: number; in_use: number; queued: number }> {
  const s = state();
  const out = {} as ReturnType<typeof upstreamStats>;
  for (const host of ["gamma", "data", "clob"] as const) {
    out[host] = { ...s.stats[host], in_use: s.semaphores[host].inUse, queued: s.semaphores[host].queued };
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------

export function defaultDeadline(): number {
  return Date.now() + env.UPSTREAM_TIMEOUT_MS;
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function describe(request: UpstreamRequest): string {
  return `${request.host} ${request.path}`;
}

function timeoutError(request: UpstreamRequest): ApiError {
  return new ApiError("upstream_timeout", `The upstream (${describe(request)}) did not answer in time.`);
}

function unavailableError(request: UpstreamRequest, why: string): ApiError {
  return new ApiError("upstream_unavailable", `The upstream (${describe(request)}) is unavailable: ${why}.`);
}

type Attempt =
  | { kind: "ok"; body: unknown }
  | { kind: "not_found" }
  | { kind: "retryable"; why: string; retryAfterMs: number | null }
  | { kind: "fatal"; error: ApiError };

async function attempt(request: UpstreamRequest, url: string, deadline: number): Promise<Attempt> {
  const remaining = deadline - Date.now();
  if (remaining <= 0) return { kind: "fatal", error: timeoutError(request) };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), remaining);
  try {
    const response = await fetch(url, {
      method: request.method ?? "GET",
      headers: { accept: "application/json", ...(request.body !== undefined ? { "content-type": "application/json" } : {}) },
      body: request.body !== undefined ? JSON.stringify(request.body) : undefined,
      signal: controller.signal,
      cache: "no-store",
    });
    if (response.status === 404) {
      await response.body?.cancel().catch(() => undefined);
      return { kind: "not_found" };
    }
    if (RETRYABLE_STATUS.has(response.status)) {
      await response.body?.cancel().catch(() => undefined);
      return { kind: "retryable", why: `HTTP ${response.status}`, retryAfterMs: parseRetryAfter(response.headers.get("retry-after")) };
    }
    const text = await response.text();
    if (!response.ok) return { kind: "fatal", error: unavailableError(request, `HTTP ${response.status}`) };
    try {
      return { kind: "ok", body: JSON.parse(text) };
    } catch {
      // A truncated or non-JSON body: the upstream is misbehaving, not slow.
      return { kind: "fatal", error: unavailableError(request, "malformed JSON body") };
    }
  } catch (error) {
    if (controller.signal.aborted) return { kind: "fatal", error: timeoutError(request) };
    return { kind: "retryable", why: (error as Error).cause ? String((error as Error).cause) : (error as Error).message, retryAfterMs: null };
  } finally {
    clearTimeout(timer);
  }
}

async function send(request: UpstreamRequest, url: string, deadline: number, allowNotFound: boolean): Promise<unknown> {
  const s = state();
  const maxAttempts = 1 + env.UPSTREAM_MAX_RETRIES;
  let lastWhy = "";
  for (let n = 0; n < maxAttempts; n++) {
    const release = await s.semaphores[request.host].acquire(deadline, () => timeoutError(request));
    let result: Attempt;
    try {
      s.stats[request.host].requests++;
      result = await attempt(request, url, deadline);
    } finally {
      release();
    }
    if (result.kind === "ok") return result.body;
    if (result.kind === "not_found") {
      if (allowNotFound) return null;
      throw unavailableError(request, "HTTP 404");
    }
    if (result.kind === "fatal") throw result.error;
    lastWhy = result.why;
    if (n + 1 >= maxAttempts) break;
    const backoff = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** n) * (0.5 + Math.random() / 2);
    const wait = result.retryAfterMs ?? backoff;
    // Waiting past the deadline would only turn an answer we already have (an error) into a timeout.
    if (Date.now() + wait >= deadline) break;
    s.stats[request.host].retries++;
    log.warn("upstream retry", { host: request.host, path: request.path, why: result.why, wait_ms: Math.round(wait), attempt: n + 1 });
    await sleep(wait);
  }
  throw unavailableError(request, lastWhy);
}

/**
 * Sends one upstream request and validates its JSON body with `schema`. Identical requests in flight at the same
 * time share one upstream call. Returns null for a 404 when `allowNotFound`.
 */
export async function fetchUpstream<S extends z.ZodType>(
  request: UpstreamRequest,
  schema: S,
  options: FetchOptions = {},
): Promise<z.output<S> | null> {
  const s = state();
  const url = buildUrl(request);
  const key = `${request.method ?? "GET"} ${url} ${request.body !== undefined ? JSON.stringify(request.body) : ""} ${options.allowNotFound ? "404ok" : ""}`;
  let pending = s.inFlight.get(key);
  if (pending) {
    s.stats[request.host].coalesced++;
  } else {
    pending = send(request, url, options.deadline ?? defaultDeadline(), options.allowNotFound ?? false).finally(() => s.inFlight.delete(key));
    s.inFlight.set(key, pending);
  }
  let body: unknown;
  try {
    body = await pending;
  } catch (error) {
    s.stats[request.host].failures++;
    if (!(error instanceof ApiError)) throw unavailableError(request, (error as Error).message);
    throw error;
  }
  if (body === null) return null;
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    s.stats[request.host].failures++;
    const where = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
      .join("; ");
    log.warn("upstream body failed validation", { host: request.host, path: request.path, issues: where });
    throw unavailableError(request, `unexpected response shape (${where})`);
  }
  return parsed.data;
}
