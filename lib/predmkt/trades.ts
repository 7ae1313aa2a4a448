// Read services for the trade tape and abnormal trades.
import type { z } from "zod";
import type { AbnormalTradeSchema, TradeSchema } from "./shapes";
import { ABNORMAL_RULES, findAbnormalTrades, type MarketContext } from "@/lib/analytics/abnormal";
import { roundUsd } from "@/lib/analytics/money";
import { type Db, getDb } from "@/lib/db/client";
import { recentTapeGaps } from "@/lib/sampler/tape";
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
    const candidates = await db.$queryRawUnsafe<TradeRow[]>(
      `SELECT ${TRADE_COLUMNS} FROM trades t LEFT JOIN markets m ON m.id = t.market_id
       WHERE t.timestamp > $1::timestamptz AND t.usd_size >= $2`,
      dayAgo.toISOString(),
      ABNORMAL_RULES.minUsd,
    );
    const scored = await scoreAbnormal(db, candidates, at);
    const contexts = await tradeContexts(scored);
    return scored.map((t, i) => ({ ...t, resolution_context: contexts[i] }));
  });
  const data = ranked.slice(0, limit);
  const tapeGaps = await recentTapeGaps(db, at);
  return { data, meta: sampledMeta(at, { count: data.length, limit, tape_gaps: tapeGaps }) };
}

/**
 * Scores candidate trades (usd ≥ the rule's minimum) against their markets as of `at`: the /abnormal ranking and the
 * stream's `abnormal` topic use this one function, so both say the same about the same trade.
 */
export async function scoreAbnormal(
  db: Db,
  candidates: readonly TradeRow[],
  at: Date,
): Promise<Omit<AbnormalBody, "resolution_context">[]> {
  const dayAgo = new Date(at.getTime() - 86_400_000);
  const marketIds = [...new Set(candidates.map((t) => t.market_id).filter((id): id is string => id !== null))];
  const reference = await db.trade.findMany({
    where: { marketId: { in: marketIds }, timestamp: { gt: new Date(at.getTime() - ABNORMAL_RULES.referenceWindowSeconds * 1000) } },
    select: { marketId: true, usdSize: true, timestamp: true },
  });
  const markets = await db.market.findMany({ where: { id: { in: marketIds } }, select: { id: true, volume24hUsd: true } });
  const gammaVolume = new Map(markets.map((m) => [m.id, m.volume24hUsd]));
  const contexts = new Map<string, MarketContext & { sampled_24h: number }>();
  for (const id of marketIds) contexts.set(id, { reference_usd_sizes: [], volume_24h_usd: 0, sampled_24h: 0 });
  for (const r of reference) {
    const c = contexts.get(r.marketId!)!;
    (c.reference_usd_sizes as number[]).push(r.usdSize);
    if (r.timestamp > dayAgo) c.sampled_24h += r.usdSize;
  }
  // Gamma's 24 h volume is the market's true figure; our sampled sum can only be larger if Gamma lags.
  for (const [id, c] of contexts) c.volume_24h_usd = Math.max(gammaVolume.get(id) ?? 0, c.sampled_24h);
  // Trades of markets we do not know (closed or not yet listed) are scored by share alone, against nothing.
  const found = findAbnormalTrades(
    candidates.map((t) => ({
      id: t.id,
      condition_id: t.market_id ?? `unknown:${t.condition_id}`,
      usd_size: t.usd_size,
      timestamp: t.timestamp.getTime() / 1000,
    })),
    contexts,
    500,
  );
  const byId = new Map(candidates.map((t) => [t.id, t]));
  return found.map((t) => ({
    ...tradeBody(byId.get(t.id)!),
    score: t.score,
    robust_z: t.z,
    market_median_usd: t.market_median_usd,
    share_of_market_24h_volume: t.share_of_market_24h_volume,
    reason: t.reason,
  }));
}
