// The four oracle endpoints' bodies, read from the answers the indexer stored (lib/oracle/indexer.ts): a warm request
// reads one database row and makes no chain call. `meta.cache` is "hit" for a stored answer, "miss" when this request
// had to run the first indexer pass itself (nothing stored yet), "stale" when the stored answer is older than
// STALE_AFTER_MS (the indexer is failing or not running; the answer still carries its own `as_of` and block). An
// answer older than one indexer interval, with no indexer loop in this process, starts a pass in the background.
// With nothing stored and a first pass that fails, the pass's error is the answer: 502/504 for an RPC failure.
import { cachedAnswer, type CachedAnswer } from "@/lib/api/cached-answer";
import { ApiError } from "@/lib/api/errors";
import { errorFields, log } from "@/lib/log";
import type { DisputesBody, RoundsBody, SummaryBody, VotersBody } from "./bodies";
import { defaultOracleContext, type OracleContext } from "./context";
import { indexerLoopRunning, lastIndexError, runIndexerPass } from "./indexer";
import { readSnapshot, type SnapshotName, type StoredSnapshot } from "./snapshots";

const STALE_AFTER_MS = 10 * 60_000;

interface CacheInfo {
  cache: "hit" | "miss" | "stale";
  ageS: number;
  /** Seconds until the next indexer pass is due (how long a client may reuse the answer). */
  maxAgeS: number;
  /** When the indexer built the stored answer (ms since epoch): the answer's version. */
  builtAt: number;
}

/**
 * A body as a cached answer (lib/api/cached-answer.ts): one version per stored answer (and cache status), fresh until
 * the next indexer pass is due; `meta.age_s` ticks within a version, so the ETag is weak.
 */
export function chainAnswer<B>({ cached, body }: { cached: CacheInfo; body: B }): CachedAnswer<B> {
  return cachedAnswer(
    { version: `oracle:${cached.builtAt}:${cached.cache}`, variant: String(cached.ageS), maxAgeS: cached.maxAgeS, weak: true },
    () => body,
  );
}

async function stored<T extends { meta: { backfill_complete?: boolean } }>(
  ctx: OracleContext,
  name: SnapshotName,
): Promise<{ snapshot: StoredSnapshot<T>; cached: CacheInfo }> {
  const intervalMs = ctx.config.indexIntervalS * 1000;
  let snapshot = await readSnapshot<T>(ctx, name);
  let built = false;
  if (!snapshot) {
    await runIndexerPass(ctx);
    snapshot = await readSnapshot<T>(ctx, name);
    built = true;
    if (!snapshot) {
      throw (
        lastIndexError(ctx, name) ??
        new ApiError("service_unavailable", "The oracle index has not been built yet; the indexer is catching up.", {
          headers: { "Retry-After": String(ctx.config.indexIntervalS) },
        })
      );
    }
  }
  const ageMs = Date.now() - snapshot.builtAt.getTime();
  if (!built && (ageMs >= intervalMs || !snapshot.complete) && !indexerLoopRunning(ctx)) {
    // Off the request path (started after this answer is sent): the next request gets the newer state.
    setTimeout(() => {
      runIndexerPass(ctx).catch((error: unknown) => log.warn("oracle indexer: background pass failed", errorFields(error)));
    }, 0).unref?.();
  }
  const cache = built ? "miss" : ageMs > STALE_AFTER_MS ? "stale" : "hit";
  return {
    snapshot,
    cached: {
      cache,
      ageS: Math.floor(ageMs / 1000),
      maxAgeS: Math.max(0, Math.ceil((intervalMs - ageMs) / 1000)),
      builtAt: snapshot.builtAt.getTime(),
    },
  };
}

function withCache<T extends { data: unknown; meta: object }>(body: T, cached: CacheInfo) {
  return {
    data: body.data as T["data"],
    meta: { ...body.meta, cache: cached.cache, age_s: cached.ageS } as T["meta"] & { cache: CacheInfo["cache"]; age_s: number },
  };
}

export async function getOracleSummary(ctx = defaultOracleContext()) {
  const { snapshot, cached } = await stored<SummaryBody>(ctx, "summary");
  return { cached, body: withCache(snapshot.body, cached) };
}

export async function getOracleDisputes(ctx = defaultOracleContext()) {
  const { snapshot, cached } = await stored<DisputesBody>(ctx, "disputes");
  return { cached, body: withCache(snapshot.body, cached) };
}

export async function getOracleRounds(ctx = defaultOracleContext()) {
  const { snapshot, cached } = await stored<RoundsBody>(ctx, "rounds");
  return { cached, body: withCache(snapshot.body, cached) };
}

export async function getOracleVoters(query: { limit: number }, ctx = defaultOracleContext()) {
  const { snapshot, cached } = await stored<VotersBody>(ctx, "voters");
  const body = withCache(snapshot.body, cached);
  const data = body.data.slice(0, query.limit);
  return { cached, body: { data, meta: { ...body.meta, limit: query.limit, offset: 0, count: data.length } } };
}
