// The one way this service talks to Polymarket: a deadline per request, retries with backoff that honour
// `Retry-After`, a concurrency cap per upstream host, coalescing of identical in-flight requests, and zod validation
// of every body. Failures leave here as ApiErrors with the codes docs/api-decisions.md#errors fixes: a timeout is `upstream_timeout`
// (504); 5xx, 429 after the retries, malformed bodies and network errors are `upstream_unavailable` (502).
import { backoffMs } from "@/lib/backoff";
import type { z } from "zod";
import { ApiError, upstreamError } from "@/lib/api/errors";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { acquireSlot } from "./governor";
import { observeUpstream } from "@/lib/metrics/registry";

export type UpstreamHost = "gamma" | "data" | "clob";

type QueryValue = string | number | boolean | undefined | null | readonly string[];

interface UpstreamRequest {
  host: UpstreamHost;
  /** Path below the host's base URL, starting with `/`. */
  path: string;
  query?: Record<string, QueryValue>;
  method?: "GET" | "POST";
  body?: unknown;
}

interface FetchOptions {
  /** Absolute deadline in ms since epoch; the whole call (queueing, attempts, backoff) must finish by then. */
  deadline?: number;
  /** Answer null for an upstream 404 (unknown slug/id) instead of failing. */
  allowNotFound?: boolean;
  /** Answer null for these statuses (e.g. 401/403/404 of an endpoint with a fallback) instead of failing. */
  nullOnStatus?: readonly number[];
  /**
   * A read that must be fresh: each HTTP attempt carries a changing `_` parameter, because the Data API's CDN caches
   * answers per URL for 300 s and ignores request no-cache headers (docs/upstream-live.md, "Fresh Data API reads").
   */
  fresh?: boolean;
  /** Told when the answer was produced upstream: now minus its `Age` header (the seconds a CDN held it), else now. */
  onProducedAt?: (ms: number) => void;
  /**
   * Reads a successful body as its bytes arrive instead of as one text (e.g. a list item by item, json-list.ts);
   * `schema` then checks what it made.
   */
  parseBody?: BodyParser;
}

export interface BodyParser {
  /** Keeps requests read differently from coalescing. */
  name: string;
  /**
   * A reader of one body, fed its chunks in order. At the end it answers what it made, or the body's text when the
   * body is not what it reads (an HTML page, an error text), which then goes the ordinary way. A SyntaxError thrown
   * from either makes the body malformed.
   */
  read: () => { push: (chunk: Uint8Array) => void; end: () => { parsed: unknown } | { text: string } };
}

let bustCounter = 0;
/** The URL with a cache-buster no other request carries. */
function withCacheBuster(url: string): string {
  bustCounter = (bustCounter + 1) % 1_000_000;
  return `${url}${url.includes("?") ? "&" : "?"}_=${Date.now()}${String(bustCounter).padStart(6, "0")}`;
}

// 429 and 5xx, including Cloudflare's own 520–524 (origin errors and timeouts in front of every Polymarket host:
// developers.cloudflare.com/support/troubleshooting/http-status-codes/cloudflare-5xx-errors).
const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504, 520, 521, 522, 523, 524]);
const BASE_BACKOFF_MS = 200;
const MAX_BACKOFF_MS = 2_000;

function baseUrl(host: UpstreamHost): string {
  const url = host === "gamma" ? env.POLYMARKET_GAMMA_URL : host === "data" ? env.POLYMARKET_DATA_URL : env.POLYMARKET_CLOB_URL;
  return (url ?? "").replace(/\/+$/, "");
}

/** Canonical URL: query keys sorted so that equal requests coalesce and cache under one key. */
function buildUrl(request: Pick<UpstreamRequest, "host" | "path" | "query">): string {
  const url = new URL(baseUrl(request.host) + request.path);
  const entries = Object.entries(request.query ?? {}).sort(([a], [b]) => a.localeCompare(b));
  for (const [key, value] of entries) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value as readonly string[]) url.searchParams.append(key, item);
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
      const timer = setTimeout(
        () => {
          const at = this.waiting.indexOf(entry);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(onTimeout());
        },
        Math.max(0, deadline - Date.now()),
      );
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
      if (next)
        next.resolve(); // the slot passes straight to the next waiter
      else this.active--;
    };
  }
}

interface UpstreamState {
  semaphores: Record<UpstreamHost, Semaphore>;
  inFlight: Map<string, Promise<unknown>>;
}

const globalForUpstream = globalThis as unknown as { __predmktUpstream?: UpstreamState };

function state(): UpstreamState {
  if (!globalForUpstream.__predmktUpstream) {
    const limit = () => env.UPSTREAM_CONCURRENCY;
    globalForUpstream.__predmktUpstream = {
      semaphores: { gamma: new Semaphore(limit), data: new Semaphore(limit), clob: new Semaphore(limit) },
      inFlight: new Map(),
    };
  }
  return globalForUpstream.__predmktUpstream;
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

// The messages below may name paths, hosts and network errors: they reach the log only (lib/api/errors.ts publicDetail).
function timeoutError(request: UpstreamRequest): ApiError {
  return upstreamError("upstream_timeout", request.host, `The upstream (${describe(request)}) did not answer in time.`);
}

function unavailableError(request: UpstreamRequest, why: string): ApiError {
  return upstreamError("upstream_unavailable", request.host, `The upstream (${describe(request)}) is unavailable: ${why}.`);
}

type Attempt =
  | { kind: "ok"; body: unknown; producedAtMs: number }
  | { kind: "status"; status: number }
  | { kind: "retryable"; why: string; retryAfterMs: number | null }
  | { kind: "fatal"; error: ApiError };

/** The body through `parser`, chunk by chunk; a malformed body stops the read and cancels the rest of the stream. */
async function readWith(parser: BodyParser, body: ReadableStream<Uint8Array>): Promise<{ parsed: unknown } | { text: string } | null> {
  const reading = parser.read();
  const stream = body.getReader();
  try {
    for (;;) {
      const { done, value } = await stream.read();
      if (done) return reading.end();
      reading.push(value);
    }
  } catch (error) {
    await stream.cancel().catch(() => undefined);
    if (error instanceof SyntaxError) return null;
    throw error;
  }
}

async function attempt(request: UpstreamRequest, url: string, deadline: number, parser: BodyParser | undefined): Promise<Attempt> {
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
    if (response.status === 404 || response.status === 401 || response.status === 403) {
      await response.body?.cancel().catch(() => undefined);
      return { kind: "status", status: response.status };
    }
    if (RETRYABLE_STATUS.has(response.status)) {
      await response.body?.cancel().catch(() => undefined);
      return { kind: "retryable", why: `HTTP ${response.status}`, retryAfterMs: parseRetryAfter(response.headers.get("retry-after")) };
    }
    const age = Number(response.headers.get("age"));
    // Once the body is in: now minus the seconds a CDN held the answer.
    const producedAtMs = () => Date.now() - (Number.isFinite(age) && age > 0 ? age * 1000 : 0);
    const htmlType = /text\/html/i.test(response.headers.get("content-type") ?? "");
    const read =
      parser && response.ok && !htmlType && response.body ? await readWith(parser, response.body) : { text: await response.text() };
    // A truncated or non-JSON body: the upstream is misbehaving, not slow.
    if (read === null) return { kind: "fatal", error: unavailableError(request, "malformed JSON body") };
    if ("parsed" in read) return { kind: "ok", body: read.parsed, producedAtMs: producedAtMs() };
    const text = read.text;
    // Cloudflare answers its own HTML pages (challenges, "Just a moment...") in front of the API: a transient edge
    // condition, retried like a 5xx, never parsed as data.
    if (htmlType || /^\s*<(!doctype|html)/i.test(text)) {
      return {
        kind: "retryable",
        why: `HTML page (HTTP ${response.status})`,
        retryAfterMs: parseRetryAfter(response.headers.get("retry-after")),
      };
    }
    if (!response.ok) return { kind: "fatal", error: unavailableError(request, `HTTP ${response.status}`) };
    try {
      return { kind: "ok", body: JSON.parse(text), producedAtMs: producedAtMs() };
    } catch {
      return { kind: "fatal", error: unavailableError(request, "malformed JSON body") };
    }
  } catch (error) {
    if (controller.signal.aborted) return { kind: "fatal", error: timeoutError(request) };
    return {
      kind: "retryable",
      why: (error as Error).cause ? String((error as Error).cause) : (error as Error).message,
      retryAfterMs: null,
    };
  } finally {
    clearTimeout(timer);
  }
}

async function send(
  request: UpstreamRequest,
  url: string,
  deadline: number,
  nullOn: readonly number[],
  fresh: boolean,
  parser: BodyParser | undefined,
): Promise<{ body: unknown; producedAtMs: number }> {
  const s = state();
  const maxAttempts = 1 + env.UPSTREAM_MAX_RETRIES;
  let lastWhy = "";
  for (let n = 0; n < maxAttempts; n++) {
    // Budget first (Polymarket's documented rate limits, governor.ts), then the per-host concurrency cap.
    await acquireSlot(request.host, request.path, deadline, () => timeoutError(request));
    const release = await s.semaphores[request.host].acquire(deadline, () => timeoutError(request));
    let result: Attempt;
    const started = performance.now();
    try {
      result = await attempt(request, fresh ? withCacheBuster(url) : url, deadline, parser);
    } finally {
      release();
    }
    observeUpstream(request.host, result.kind, (performance.now() - started) / 1000);
    if (result.kind === "ok") return { body: result.body, producedAtMs: result.producedAtMs };
    if (result.kind === "status") {
      if (nullOn.includes(result.status)) return { body: null, producedAtMs: Date.now() };
      throw unavailableError(request, `HTTP ${result.status}`);
    }
    if (result.kind === "fatal") throw result.error;
    lastWhy = result.why;
    if (n + 1 >= maxAttempts) break;
    const backoff = backoffMs(n, { baseMs: BASE_BACKOFF_MS, maxMs: MAX_BACKOFF_MS });
    const wait = result.retryAfterMs ?? backoff;
    // Waiting past the deadline would only turn an answer we already have (an error) into a timeout.
    if (Date.now() + wait >= deadline) break;
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
  const nullOn = [...(options.nullOnStatus ?? []), ...(options.allowNotFound ? [404] : [])];
  const fresh = options.fresh === true;
  const parser = options.parseBody;
  const key = `${request.method ?? "GET"} ${url} ${request.body !== undefined ? JSON.stringify(request.body) : ""} ${nullOn.join(",")}${fresh ? " fresh" : ""}${parser ? ` ${parser.name}` : ""}`;
  let pending = s.inFlight.get(key) as Promise<{ body: unknown; producedAtMs: number }> | undefined;
  if (!pending) {
    pending = send(request, url, options.deadline ?? defaultDeadline(), nullOn, fresh, parser).finally(() => s.inFlight.delete(key));
    s.inFlight.set(key, pending);
  }
  let body: unknown;
  try {
    const answer = await pending;
    body = answer.body;
    options.onProducedAt?.(answer.producedAtMs);
  } catch (error) {
    if (!(error instanceof ApiError)) throw unavailableError(request, (error as Error).message);
    throw error;
  }
  if (body === null) return null;
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const where = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
      .join("; ");
    log.warn("upstream body failed validation", { host: request.host, path: request.path, issues: where });
    throw unavailableError(request, `unexpected response shape (${where})`);
  }
  return parsed.data;
}
