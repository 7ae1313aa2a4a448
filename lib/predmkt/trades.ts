// Read services for the trade tape and abnormal trades.
import type { z } from "zod";
import type { AbnormalTradeSchema, TradeSchema } from "./shapes";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import {
  ABNORMAL_RULES,
  abnormalAmongInSlices,
  type MarketContext,
  type MarketSummary,
  rankAbnormal,
  summarizeMarket,
} from "@/lib/analytics/abnormal";
import { roundUsd } from "@/lib/analytics/money";
import { type Db, getDb } from "@/lib/db/client";
import { recentTapeGaps } from "@/lib/sampled/tape-gaps";
import { asOf, sampledMeta } from "./meta";
import { oncePerPass } from "./per-pass";
import { tradeContexts } from "@/lib/resolution/move-context";
import { walletUrl } from "@/lib/upstream/ids";

type TradeBody = z.infer<typeof TradeSchema>;
type AbnormalBody = z.infer<typeof AbnormalTradeSchema>;

export interface TradeRow {
  id: string;
  tx_hash: string;
  market_id: string | null;
  condition_id: string;
  event_slug: string | null;
  question: string | null;
  outcome: string | null;
  outcome_index: number | null;
  side: string;
  price: number;
  shares: number;
  usd_size: number;
  wallet: string;
  pseudonym: string | null;
  timestamp: Date;
}

// Market texts live on `markets`; the tape joins them in when read.
export const TRADE_COLUMNS = `t.id, t.tx_hash, t.market_id, t.condition_id, m.event_slug, m.question, t.outcome, t.outcome_index, t.side,
  t.price, t.shares, t.usd_size, t.wallet, t.pseudonym, t.timestamp`;

export function tradeBody(t: TradeRow): TradeBody {
  return {
    id: t.id,
    tx_hash: t.tx_hash,
    market_id: t.market_id,
    condition_id: t.condition_id,
    event_slug: t.event_slug,
    question: t.question,
    outcome: t.outcome,
    outcome_index: t.outcome_index,
    side: t.side === "SELL" ? "SELL" : "BUY",
    price: t.price,
    shares: t.shares,
    usd_size: roundUsd(t.usd_size),
    wallet: t.wallet,
    wallet_url: walletUrl(t.wallet),
    pseudonym: t.pseudonym,
    timestamp: t.timestamp.toISOString(),
  };
}

export async function listTrades(minUsd: number, limit: number) {
  const db = await getDb();
  const at = await asOf(db, "trades");
  if (!at) return { data: [], meta: sampledMeta(null, { count: 0, limit, min_usd: minUsd }) };
  const rows = await db.$queryRawUnsafe<TradeRow[]>(
    `SELECT ${TRADE_COLUMNS} FROM trades t LEFT JOIN markets m ON m.id = t.market_id
     WHERE t.usd_size >= $1 ORDER BY t.timestamp DESC, t.id DESC LIMIT $2`,
    minUsd,
    limit,
  );
  // Stretches of the tape the sampler could not read are named, never silently missing.
  const tapeGaps = await recentTapeGaps(db, at);
  return { data: rows.map(tradeBody), meta: sampledMeta(at, { count: rows.length, limit, min_usd: minUsd, tape_gaps: tapeGaps }) };
}

export async function abnormalTrades(limit: number) {
  const db = await getDb();
  const at = await asOf(db, "trades");
  if (!at) return { data: [], meta: sampledMeta(null, { count: 0, limit }) };
  const ranked = await oncePerPass("abnormal", at, async (): Promise<AbnormalBody[]> => {
    const dayAgo = new Date(at.getTime() - 86_400_000);
    // Only what scoring needs of each candidate (a burst brings tens of thousands); full rows for the ones kept.
    const candidates = await db.$queryRawUnsafe<Candidate[]>(
      `SELECT t.id, t.market_id, t.condition_id, t.usd_size, t.timestamp FROM trades t
       WHERE t.timestamp > $1::timestamptz AND t.usd_size >= $2`,
      dayAgo.toISOString(),
      ABNORMAL_RULES.minUsd,
    );
    const found = await rankCandidates(db, candidates, at);
    const rows = found.length
      ? await db.$queryRawUnsafe<TradeRow[]>(
          `SELECT ${TRADE_COLUMNS} FROM trades t LEFT JOIN markets m ON m.id = t.market_id WHERE t.id = ANY($1::text[])`,
          found.map((t) => t.id),
        )
      : [];
    // A trade removed between the two reads (a replaced stretch of the tape) is left out, not invented.
    const scored = withRows(found, rows);
    const contexts = await tradeContexts(scored);
    return scored.map((t, i) => ({ ...t, resolution_context: contexts[i] }));
  });
  const data = ranked.slice(0, limit);
  const tapeGaps = await recentTapeGaps(db, at);
  return { data, meta: sampledMeta(at, { count: data.length, limit, tape_gaps: tapeGaps }) };
}

/** What scoring needs of a trade. */
interface Candidate {
  id: string;
  market_id: string | null;
  condition_id: string;
  usd_size: number;
  timestamp: Date;
}

/** Trades scored between two turns of the event loop (a slice takes a few milliseconds). */
const SCORING_SLICE = 2_000;
/** The most abnormal trades kept per scoring (the endpoint's largest `limit`). */
const MAX_ABNORMAL = 500;

/**
 * Scores candidate trades (usd ≥ the rule's minimum) against their markets as of `at`: the /abnormal ranking and the
 * stream's `abnormal` topic use this one function, so both say the same about the same trade.
 */
export async function scoreAbnormal(
  db: Db,
  candidates: readonly TradeRow[],
  at: Date,
): Promise<Omit<AbnormalBody, "resolution_context">[]> {
  return withRows(await rankCandidates(db, candidates, at), candidates);
}

type Ranked = Awaited<ReturnType<typeof rankCandidates>>[number];

function withRows(found: readonly Ranked[], rows: readonly TradeRow[]): Omit<AbnormalBody, "resolution_context">[] {
  const byId = new Map(rows.map((t) => [t.id, t]));
  return found.flatMap((t) => {
    const row = byId.get(t.id);
    if (!row) return [];
    return [
      {
        ...tradeBody(row),
        score: t.score,
        robust_z: t.z,
        market_median_usd: t.market_median_usd,
        share_of_market_24h_volume: t.share_of_market_24h_volume,
        reason: t.reason,
      },
    ];
  });
}

async function rankCandidates(db: Db, candidates: readonly Candidate[], at: Date) {
  const dayAgo = new Date(at.getTime() - 86_400_000);
  const marketIds = [...new Set(candidates.map((t) => t.market_id).filter((id): id is string => id !== null))];
  // Sizes only, and whether each lies in the last 24 h: no Date per reference trade.
  const reference = marketIds.length
    ? await db.$queryRawUnsafe<{ market_id: string; usd_size: number; in_day: boolean }[]>(
        `SELECT market_id, usd_size, timestamp > $3::timestamptz AS in_day FROM trades
         WHERE market_id = ANY($1::text[]) AND timestamp > $2::timestamptz`,
        marketIds,
        new Date(at.getTime() - ABNORMAL_RULES.referenceWindowSeconds * 1000).toISOString(),
        dayAgo.toISOString(),
      )
    : [];
  const markets = await db.market.findMany({ where: { id: { in: marketIds } }, select: { id: true, volume24hUsd: true } });
  const gammaVolume = new Map(markets.map((m) => [m.id, m.volume24hUsd]));
  const contexts = new Map<string, MarketContext & { sampled_24h: number }>();
  for (const id of marketIds) contexts.set(id, { reference_usd_sizes: [], volume_24h_usd: 0, sampled_24h: 0 });
  for (const r of reference) {
    const c = contexts.get(r.market_id)!;
    (c.reference_usd_sizes as number[]).push(r.usd_size);
    if (r.in_day) c.sampled_24h += r.usd_size;
  }
  // Gamma's 24 h volume is the market's true figure; our sampled sum can only be larger if Gamma lags.
  for (const [id, c] of contexts) c.volume_24h_usd = Math.max(gammaVolume.get(id) ?? 0, c.sampled_24h);
  // Each market is summarised once (one sort of its reference sizes), then each trade costs O(1). Scoring runs in
  // slices with a turn of the event loop between them, so a burst of tens of thousands of fills in one market never
  // holds the server's requests behind one long loop (docs/abnormal.md).
  const summaries = new Map<string, MarketSummary>();
  for (const [id, c] of contexts) {
    summaries.set(id, summarizeMarket(c));
    if (c.reference_usd_sizes.length >= SCORING_SLICE) await yieldToEventLoop();
  }
  // Trades of markets we do not know (closed or not yet listed) are scored by share alone, against nothing.
  const scorable = candidates.map((t) => ({
    id: t.id,
    condition_id: t.market_id ?? `unknown:${t.condition_id}`,
    usd_size: t.usd_size,
    timestamp: t.timestamp.getTime() / 1000,
  }));
  return rankAbnormal(await abnormalAmongInSlices(scorable, summaries, () => yieldToEventLoop(), SCORING_SLICE), MAX_ABNORMAL);
}
