// Writing trades the worker hears, and filling what it missed, through the sampler's own trade path: the same
// normalisation (lib/upstream's Data API trade schema, whose fill identity hashes transaction, token, wallet, side,
// size, price and second) and the same idempotent writer (lib/sampler/store writeTrades, ON CONFLICT DO NOTHING).
// A fill heard on the socket and later read from REST is therefore one row, published once.
import type { Db } from "@/lib/db/client";
import { errorFields, log } from "@/lib/log";
import { DEFAULT_CONFIG } from "@/lib/sampler/config";
import type { SamplerSource } from "@/lib/sampler/source";
import { writeTrades } from "@/lib/sampler/store";
import type { NormalizedTrade } from "@/lib/upstream/types";

/** Seconds of overlap read before an outage began: trades of the boundary second may straddle it. */
const OVERLAP_S = 5;

export interface GapFillResult {
  inserted: number;
  pages: number;
  /** False when the REST tape could not reach back to the gap's start (the gap is recorded). */
  complete: boolean;
  oldestReached: number | null;
}

export async function storeTrades(db: Db, trades: readonly NormalizedTrade[]): Promise<number> {
  const keepFrom = Date.now() / 1000 - DEFAULT_CONFIG.tradeRetentionS;
  return writeTrades(
    db,
    trades.filter((t) => t.timestamp_s >= keepFrom),
    DEFAULT_CONFIG,
  );
}

/**
 * Reads the REST tape newest first (the `/v2/trades` cursor) until it reaches `sinceS` (minus a little overlap) and
 * stores every page. A walk is bounded by the sampler's tape time budget; what lies beyond is recorded as an unfilled
 * gap in the pass record (`sampler_runs`, trigger `worker-gap`, with `tape_gaps`), never silently dropped. A complete
 * walk is recorded too unless `recordComplete` is false (the worker's routine tape sweep: a row every few seconds
 * would bury the pass history).
 */
export async function fillFromTape(
  db: Db,
  source: SamplerSource,
  sinceS: number,
  reason: string,
  options: { recordComplete?: boolean } = {},
): Promise<GapFillResult> {
  const startedAt = new Date();
  const config = DEFAULT_CONFIG;
  let inserted = 0;
  let pages = 0;
  let oldest: number | null = null;
  let complete = false;
  let error: string | null = null;
  try {
    // Monotonic, like the sampler's tape budget (lib/sampler/tape.ts): a wall-clock step neither stretches nor cuts it.
    const until = performance.now() + config.tapeBudgetMs;
    let cursor: string | null = null;
    while (performance.now() < until) {
      const page = await source.tapePage(cursor, config.tapePageSize);
      const trades = page.trades;
      pages++;
      inserted += await storeTrades(db, trades);
      for (const t of trades) oldest = Math.min(oldest ?? Infinity, t.timestamp_s);
      if (!page.next_cursor || (oldest !== null && oldest < sinceS - OVERLAP_S)) {
        complete = true;
        break;
      }
      cursor = page.next_cursor;
    }
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
    log.warn("worker: gap fill from the REST tape failed", { reason, ...errorFields(e) });
  }
  const finishedAt = new Date();
  const nowS = Math.floor(finishedAt.getTime() / 1000);
  // What the unread stretch probably held, from the density of what was read.
  const estimate = () => (oldest === null || nowS <= oldest ? 0 : Math.round((inserted / (nowS - oldest)) * Math.max(0, oldest - sinceS)));
  const gap = complete
    ? null
    : `tape gap not filled (${reason}): trades from ${new Date(sinceS * 1000).toISOString()} to ${oldest === null ? "now" : new Date(oldest * 1000).toISOString()} are missing${error ? `: ${error}` : ""}`;
  if (!complete) log.warn("worker: tape gap recorded", { reason, since: sinceS, oldest_reached: oldest });
  if (complete && options.recordComplete === false) return { inserted, pages, complete, oldestReached: oldest };
  await db.samplerRun
    .create({
      data: {
        trigger: "worker-gap",
        status: complete ? "ok" : "failed",
        startedAt,
        finishedAt,
        trades: inserted,
        error: gap,
        tapeGaps: complete
          ? undefined
          : [{ from_s: sinceS, to_s: oldest ?? nowS, estimated_count: estimate(), reason: `worker: ${reason}` }],
      },
    })
    .catch((e) => log.warn("worker: could not record the gap fill", errorFields(e)));
  return { inserted, pages, complete, oldestReached: oldest };
}
