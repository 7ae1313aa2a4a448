// The one cached-response helper. An answer is identified by (endpoint, normalised parameters, version): the
// version is the sampler pass for sampled answers, the upstream fetch for `-live` answers and the chain read for
// oracle answers. Its bytes are built once per identity and kept in a process-wide LRU bounded by bytes (and in
// the shared KV store when one is configured, so serverless instances share the work); the ETag is derived from
// the identity, so a client's If-None-Match is answered 304 without building or even looking the bytes up.
// Freshness is always in seconds: `Cache-Control: private, max-age=<seconds the answer still holds>`.
import { createHash } from "node:crypto";
import { coalesce, processCache } from "@/lib/cache/lru";
import { env } from "@/lib/env";
import { kvBestEffort } from "@/lib/kv/best-effort";
import { DATA_NAMESPACE } from "@/lib/kv/namespace";
import { getRedis } from "@/lib/kv/redis";
import { observeCache } from "@/lib/metrics/registry";

export interface AnswerVersion {
  /** What the body is a function of besides the endpoint and its parameters. */
  version: string;
  /** Whole seconds the answer still holds (the next sampler pass is due, the TTL ends). */
  maxAgeS: number;
  /**
   * Strong: equal versions give byte-identical bodies. Weak (`W/`): the body also carries a clock (`meta.age_s`),
   * so two answers of one version are equivalent but not identical (RFC 9110 §8.8.1).
   */
  weak?: boolean;
  /** The part of a weak answer's body that moves within one version (its `meta.age_s`): keys the bytes, not the ETag. */
  variant?: string;
  /** Share the bytes through the KV store (sampled answers); live and oracle bodies are already shared upstream. */
  shared?: boolean;
  /**
   * The identity as it is now (sampled answers: the pass clock). With it, the gateway may replay this answer for the
   * same request while the version holds (lib/api/replay.ts).
   */
  current?: () => Promise<AnswerVersion>;
}

/** A handler's answer that withApi serves through the cache: the version now, and how to build the body. */
export class CachedAnswer<T = unknown> {
  constructor(
    readonly identity: AnswerVersion,
    readonly build: () => Promise<T> | T,
  ) {}
}

export function cachedAnswer<T>(identity: AnswerVersion, build: () => Promise<T> | T): CachedAnswer<T> {
  return new CachedAnswer(identity, build);
}

type Bytes = Uint8Array<ArrayBuffer>;
const utf8 = new TextEncoder();

const maxBytes = () => env.ANSWER_CACHE_MAX_MB * 1024 * 1024;
// One LRU per process bounded by bytes (an answer larger than the whole budget is not kept), shared by the proxy's
// bundle (replays) and the routes' (processCache).
const answers = processCache<Bytes>("answer-bytes", { maxBytes: maxBytes(), sizeOf: (bytes) => bytes.length });
const globalForAnswers = globalThis as unknown as { __predmktAnswersBuilding?: Map<string, Promise<Bytes>> };
const building = (globalForAnswers.__predmktAnswersBuilding ??= new Map<string, Promise<Bytes>>());

/** Forget every cached answer in this process (tests). */
export function clearAnswerCache(): void {
  answers.clear();
}

export function answerCacheStats(): { entries: number; bytes: number; max_bytes: number } {
  return { entries: answers.size, bytes: answers.calculatedSize, max_bytes: maxBytes() };
}

/** The bytes of an answer this process built, for a replay in the gateway (lib/api/replay.ts); counted as a hit. */
export function recallAnswerBytes(bytesKey: string): Bytes | undefined {
  const bytes = answers.get(bytesKey);
  if (bytes) observeCache("answer", "hit");
  return bytes;
}

/** `"<27 base64url chars>"`: sha-256 of (endpoint + normalised parameters, version). */
function answerEtag(key: string, identity: AnswerVersion): string {
  const digest = createHash("sha256")
    .update(DATA_NAMESPACE)
    .update("\0")
    .update(key)
    .update("\0")
    .update(identity.version)
    .digest("base64url");
  return `${identity.weak ? "W/" : ""}"${digest.slice(0, 27)}"`;
}

/** If-None-Match (RFC 9110 §13.1.2) uses the weak comparison: `W/"x"` matches `"x"`; `*` matches any answer. */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = etag.replace(/^W\//, "");
  return ifNoneMatch.split(",").some((candidate) => {
    const c = candidate.trim();
    return c === "*" || c.replace(/^W\//, "") === opaque;
  });
}

const KV_PREFIX = "predmkt:answer:v1:";
const BUDGET_PREFIX = "predmkt:answer-budget:v1:";

/** Bytes written to the shared store for answers of this version so far, counted with `size`; false past the budget. */
async function withinSharedBudget(
  kv: NonNullable<ReturnType<typeof getRedis>>,
  version: string,
  size: number,
  ttlMs: number,
): Promise<boolean> {
  const key = `${BUDGET_PREFIX}${DATA_NAMESPACE}:${createHash("sha256").update(version).digest("base64url").slice(0, 16)}`;
  const used = await kvBestEffort("incrby", async () => {
    const total = await kv.incrby(key, size);
    if (total === size) await kv.pexpire(key, ttlMs);
    return total;
  });
  // An unreachable store keeps the answer in process, like an exhausted budget.
  return used !== undefined && used <= env.ANSWER_KV_BUDGET_MB * 1024 * 1024;
}

/** What was written to the shared store under KV_PREFIX, in bytes (tests and the bench). */
export async function sharedAnswerBytes(): Promise<number> {
  const kv = getRedis();
  if (!kv) return 0;
  let total = 0;
  let cursor = "0";
  do {
    const [next, keys] = await kv.scan(cursor, { match: `${KV_PREFIX}*`, count: 1000 });
    cursor = String(next);
    for (const key of keys) total += await kv.strlen(key);
  } while (cursor !== "0");
  return total;
}

async function buildBytes(bytesKey: string, identity: AnswerVersion, build: () => unknown): Promise<Bytes> {
  const kv = identity.shared ? getRedis() : null;
  // Shared bytes are stored as base64 text: the KV client JSON-decodes what it reads, and JSON text would come back
  // as an object, not as the exact bytes.
  if (kv) {
    const stored = await kvBestEffort("get", () => kv.get<string>(`${KV_PREFIX}${bytesKey}`));
    if (typeof stored === "string") return new Uint8Array(Buffer.from(stored, "base64"));
  }
  const bytes = utf8.encode(JSON.stringify(await build()));
  if (kv) {
    const ttlMs = Math.max(identity.maxAgeS, 60) * 1000 + 60_000;
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("base64");
    // Every instance together writes at most ANSWER_KV_BUDGET_MB per version (a sampler pass): counted in the store
    // before writing, so a flood of distinct answers fills the budget, never the store (SECURITY.md "Shared stores").
    if (await withinSharedBudget(kv, identity.version, text.length, ttlMs)) {
      await kvBestEffort("set", () => kv.set(`${KV_PREFIX}${bytesKey}`, text, { px: ttlMs }));
    }
  }
  return bytes;
}

/** The answer's bytes: from memory, else from the KV store, else built once (concurrent requests share the build). */
export async function answerBytes(bytesKey: string, answer: CachedAnswer): Promise<Bytes> {
  const hit = answers.get(bytesKey);
  observeCache("answer", hit ? "hit" : "miss");
  if (hit) return hit;
  return coalesce(building, bytesKey, async () => {
    const bytes = await buildBytes(bytesKey, answer.identity, answer.build);
    answers.set(bytesKey, bytes);
    return bytes;
  });
}

/** Where an answer's bytes are kept: under its ETag, or beside it for a weak answer's moving part. */
function bytesKeyOf(etag: string, identity: AnswerVersion): string {
  return identity.variant === undefined ? etag : `${etag}|${identity.variant}`;
}

/**
 * Builds an answer's bytes ahead of any request (the default answers after a pass, lib/api/prerender.ts), exactly as
 * respondCached would on a miss; returns its ETag.
 */
export async function prepareAnswer(key: string, answer: CachedAnswer): Promise<string> {
  const etag = answerEtag(key, answer.identity);
  await answerBytes(bytesKeyOf(etag, answer.identity), answer);
  return etag;
}

/**
 * Serves a cached answer: 304 with no body when If-None-Match holds the answer's ETag, otherwise the cached bytes.
 * `headers` already carry the request id (and the gateway adds the rate-limit headers to whatever this returns).
 */
export async function respondCached(request: Request, key: string, answer: CachedAnswer, headers: Headers): Promise<Response> {
  const etag = answerEtag(key, answer.identity);
  headers.set("ETag", etag);
  headers.set("Cache-Control", `private, max-age=${Math.max(0, Math.floor(answer.identity.maxAgeS))}`);
  if (etagMatches(request.headers.get("if-none-match"), etag)) {
    observeCache("answer", "hit");
    return new Response(null, { status: 304, headers });
  }
  const bytes = await answerBytes(bytesKeyOf(etag, answer.identity), answer);
  headers.set("Content-Type", "application/json");
  return new Response(bytes, { status: 200, headers });
}
