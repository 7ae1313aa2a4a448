// Replaying a cached answer from the gateway. Between two sampler passes a sampled answer is fixed bytes, yet a request
// for it walks Next's route machinery (about a third of its cost: README "Benchmarks"). So when a route handler has
// served a cached answer, withApi remembers the exact request it answered (path and query as sent, credentials
// left out) with the answer's ETag, version and a function that says what the version is now. The gateway, after the
// key and limit checks, replays the same bytes (or a 304) for the same request while the version still holds.
//
// Nothing is decided twice: the parameters were validated by the route for this very request text, and the version
// comes from the answer's own clock. Anything the gateway cannot replay exactly (an unknown request, a moved version,
// bytes evicted from the cache, a CSV negotiation) goes on to the route as before. Only answers that are the same for
// every client are remembered (the ones shared through the KV store), so a replay never crosses keys.
import { type Cache, processCache } from "@/lib/cache/lru";
import { CREDENTIAL_PARAMETERS } from "./strict-query";
import { observeCache } from "@/lib/metrics/registry";
import { type AnswerVersion, etagMatches, recallAnswerBytes } from "./cached-answer";

interface Replayable {
  /** Also the key of the bytes in the answer cache (answers without a variant are kept under their ETag). */
  etag: string;
  version: string;
  /** The answer's identity now (its version and freshness). */
  current: () => Promise<AnswerVersion>;
  /** The contract's path template and method, for metrics and usage, as withApi counts them. */
  route: string;
  method: string;
}

// Distinct request texts per process; least recently used out first. An entry is a few hundred bytes.
const MAX_REQUESTS = 20_000;

// One per process: the proxy and the route handlers are bundled apart but share a process (and these entries).
function replayable(): Cache<Replayable> {
  return processCache<Replayable>("replay", { max: MAX_REQUESTS });
}

/** Forget every remembered request (tests). */
export function clearReplay(): void {
  replayable().clear();
}

/** The request as the route saw it: path and query in the order sent, without the credentials (they vary by caller). */
export function replayKey(url: URL): string {
  const query = new URLSearchParams(url.search);
  for (const name of CREDENTIAL_PARAMETERS) query.delete(name);
  const text = query.toString();
  return text ? `${url.pathname}?${text}` : url.pathname;
}

/** Called by withApi after serving a cached answer: the same request text may be replayed while `version` holds. */
export function rememberReplay(url: URL, entry: Replayable): void {
  replayable().set(replayKey(url), entry);
}

interface Replayed {
  response: Response;
  route: string;
  method: string;
}

/**
 * The answer for this request if the gateway can give it exactly as the route would (headers: the answer's, plus
 * `headers`, which carry the request id and the rate-limit headers), else null.
 */
export async function replayAnswer(request: Request & { nextUrl: URL }, headers: Record<string, string>): Promise<Replayed | null> {
  if (request.method !== "GET") return null;
  // List endpoints negotiate CSV through Accept (lib/api/csv.ts); those answers are rendered by the route.
  if (/text\/csv/i.test(request.headers.get("accept") ?? "")) return null;
  const entry = replayable().get(replayKey(request.nextUrl));
  if (!entry) {
    observeCache("replay", "miss");
    return null;
  }
  let now: AnswerVersion;
  try {
    now = await entry.current();
  } catch {
    return null; // the clock's store is unreachable: the route answers (and reports it)
  }
  if (now.version !== entry.version) {
    observeCache("replay", "stale");
    return null;
  }
  const answerHeaders = new Headers(headers);
  answerHeaders.set("Cache-Control", `private, max-age=${Math.max(0, Math.floor(now.maxAgeS))}`);
  answerHeaders.set("ETag", entry.etag);
  const { route, method } = entry;
  if (etagMatches(request.headers.get("if-none-match"), entry.etag)) {
    observeCache("replay", "hit");
    return { response: new Response(null, { status: 304, headers: answerHeaders }), route, method };
  }
  const bytes = recallAnswerBytes(entry.etag);
  if (!bytes) {
    observeCache("replay", "miss"); // evicted from the answer cache: the route builds it again
    return null;
  }
  observeCache("replay", "hit");
  answerHeaders.set("Content-Type", "application/json");
  return { response: new Response(bytes, { status: 200, headers: answerHeaders }), route, method };
}
