// The global trade tape, complete or visibly not. The Data API's `/v2/trades` feed is read newest first with its
// cursor (keyset: no offset caps, no wrap-around — docs.polymarket.com, API reference: feeds/list-trades) back to the
// watermark, however many pages that takes. A walk is bounded by time: when the budget runs out, the stretch still
// unread is remembered with its cursor and the next pass resumes it. If the upstream cannot give that stretch any
// more (cursor refused, walk older than the first look-back), the stretch becomes a recorded gap — from, to, and an
// estimated count — on the pass record, in /api/health and in the `meta` of the endpoints built on the tape.
import type { Db } from "@/lib/db/client";
import { errorFields, log } from "@/lib/log";
import type { NormalizedTrade } from "@/lib/upstream/types";
import type { SamplerConfig } from "./config";
import type { SamplerSource } from "./source";
import type { TapeGap } from "@/lib/sampled/tape-gaps";
import { getState, setState, writeTrades } from "./store";

/** A walk cut short by the time budget: trades in [lower_s, upper_s] below `cursor` are still to be read. */
interface PendingWalk {
  cursor: string;
  lower_s: number;
  upper_s: number;
}

export interface TapeResult {
  trades: number;
  dropped: number;
  pages: number;
  gaps: TapeGap[];
  /** Stretches left for the next pass (not gaps: they will be read). */
  pending: number;
}

const WATERMARK = "trades_watermark";
const PENDING = "trades_pending";
/** At most this many unfinished walks are remembered; an older one beyond it becomes a gap. */
const MAX_PENDING = 20;

interface WalkOutcome {
  reached: boolean;
  cursor: string | null;
  newest: number | null;
  oldest: number | null;
  read: number;
}

/** The pass's time budget for the tape (`config.tapeBudgetMs` from the start of `sampleTape`). */
interface Budget {
  spent: () => boolean;
}

/**
 * Reads pages from `cursor` (null: the top of the tape) until a page reaches below `lowerS`, the tape ends, or the
 * time budget is spent. Every page is stored as it arrives.
 */
async function walk(
  db: Db,
  source: SamplerSource,
  config: SamplerConfig,
  start: string | null,
  lowerS: number,
  budget: Budget,
  result: TapeResult,
  keepFrom: number,
  renew: () => Promise<void>,
): Promise<WalkOutcome> {
  let cursor = start;
  const out: WalkOutcome = { reached: false, cursor, newest: null, oldest: null, read: 0 };
  while (!budget.spent()) {
    const page = await source.tapePage(cursor, config.tapePageSize);
    result.pages++;
    result.dropped += page.dropped.length;
    const trades: NormalizedTrade[] = page.trades;
    result.trades += await writeTrades(
      db,
      trades.filter((t) => t.timestamp_s >= keepFrom),
      config,
    );
    await renew();
    out.read += trades.length;
    for (const t of trades) {
      out.newest = Math.max(out.newest ?? t.timestamp_s, t.timestamp_s);
      out.oldest = Math.min(out.oldest ?? t.timestamp_s, t.timestamp_s);
    }
    // Trades of the boundary second may straddle pages: the walk goes one second past it, deduplicated by id.
    if (!page.next_cursor || (out.oldest !== null && out.oldest < lowerS)) {
      out.reached = true;
      out.cursor = null;
      return out;
    }
    cursor = page.next_cursor;
    out.cursor = cursor;
  }
  return out;
}

function estimate(rate: number, gap: { from_s: number; to_s: number }): number {
  return Math.max(1, Math.round(rate * Math.max(1, gap.to_s - gap.from_s)));
}

export async function sampleTape(
  db: Db,
  source: SamplerSource,
  config: SamplerConfig,
  now: () => Date,
  renew: () => Promise<void>,
  budgetClock: () => number = () => performance.now(),
): Promise<TapeResult> {
  const result: TapeResult = { trades: 0, dropped: 0, pages: 0, gaps: [], pending: 0 };
  const until = budgetClock() + config.tapeBudgetMs;
  const budget: Budget = { spent: () => budgetClock() >= until };
  const nowS = Math.floor(now().getTime() / 1000);
  const keepFrom = nowS - config.tradeRetentionS;
  const watermarkState = await getState(db, WATERMARK);
  const watermark = watermarkState?.value ? Number(watermarkState.value) : null;
  const pendingState = await getState(db, PENDING);
  let pending: PendingWalk[] = pendingState?.value ? (JSON.parse(pendingState.value) as PendingWalk[]) : [];
  // Observed density of the tape (fills per second), for estimating what a gap held.
  let rateRead = 0;
  let rateSpan = 0;
  const observe = (o: WalkOutcome) => {
    if (o.newest !== null && o.oldest !== null && o.newest > o.oldest) {
      rateRead += o.read;
      rateSpan += o.newest - o.oldest;
    }
  };

  // 1. The new top of the tape, down to the watermark (first pass: down to the first look-back).
  const lower = watermark ?? nowS - config.tapeFirstLookbackS;
  const top = await walk(db, source, config, null, lower, budget, result, keepFrom, renew);
  observe(top);
  const newWatermark = Math.max(watermark ?? 0, top.newest ?? 0);
  // The walk this pass had to leave: the next pass resumes it.
  const still: PendingWalk[] =
    !top.reached && top.cursor && top.oldest !== null ? [{ cursor: top.cursor, lower_s: lower, upper_s: top.oldest }] : [];

  // 2. Stretches earlier passes left unread, newest first, while the budget lasts.
  for (const p of pending) {
    if (budget.spent()) {
      still.push(p);
      continue;
    }
    try {
      const resumed = await walk(db, source, config, p.cursor, p.lower_s, budget, result, keepFrom, renew);
      observe(resumed);
      if (!resumed.reached && resumed.cursor)
        still.push({ cursor: resumed.cursor, lower_s: p.lower_s, upper_s: resumed.oldest ?? p.upper_s });
    } catch (error) {
      // The upstream no longer gives this stretch (its cursor is refused or expired): it is a gap, said out loud.
      const rate = rateSpan > 0 ? rateRead / rateSpan : 0;
      const gap = { from_s: p.lower_s, to_s: p.upper_s };
      result.gaps.push({ ...gap, estimated_count: estimate(rate, gap), reason: "the upstream refused the resume cursor" });
      log.warn("tape gap", { ...gap, ...errorFields(error) });
    }
  }
  // Too many unfinished walks: the oldest become gaps instead of growing without bound.
  while (still.length > MAX_PENDING) {
    const p = still.pop()!;
    const rate = rateSpan > 0 ? rateRead / rateSpan : 0;
    const gap = { from_s: p.lower_s, to_s: p.upper_s };
    result.gaps.push({ ...gap, estimated_count: estimate(rate, gap), reason: "too many unfinished tape walks" });
  }
  // A stretch entirely older than the retention is not worth reading any more; neither is it a gap anyone needs.
  pending = still.filter((p) => p.upper_s >= keepFrom);
  result.pending = pending.length;
  await setState(db, PENDING, now(), pending.length ? JSON.stringify(pending) : null);
  if (newWatermark > 0) await setState(db, WATERMARK, now(), String(newWatermark));
  return result;
}
