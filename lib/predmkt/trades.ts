// Read services for the trade tape and abnormal trades.
import type { z } from "zod";
import type { AbnormalTradeSchema, TradeSchema } from "@/lib/api/endpoints/predmkt-sampled";
import { ABNORMAL_RULES, findAbnormalTrades, type MarketContext } from "@/lib/analytics/abnormal";
import { getDb } from "@/lib/db/client";
import type { Trade } from "@/lib/generated/prisma/client";
import { asOf, sampledMeta } from "./meta";

type TradeBody = z.infer<typeof TradeSchema>;
type AbnormalBody = z.infer<typeof AbnormalTradeSchema>;

function tradeBody(t: Trade): TradeBody {
  return {
    id: t.id,
    tx_hash: t.txHash,
    market_id: t.marketId,
    condition_id: t.conditionId,
    event_slug: t.eventSlug,
    question: t.question,
    outcome: t.outcome,
    outcome_index: t.outcomeIndex,
    side: t.side === "SELL" ? "SELL" : "BUY",
    price: t.price,
    shares: t.shares,
    usd_size: Math.round(t.usdSize * 100) / 100,
    wallet: t.wallet,
    pseudonym: t.pseudonym,
    timestamp: t.timestamp.toISOString(),
  };
}

export async function listTrades(minUsd: number, limit: number) {
  const db = await getDb();
  const at = await asOf(db, "trades");
  if (!at) return { data: [], meta: sampledMeta(null, { count: 0, limit, min_usd: minUsd }) };
  const rows = await db.trade.findMany({
    where: minUsd > 0 ? { usdSize: { gte: minUsd } } : {},
    orderBy: [{ timestamp: "desc" }, { id: "desc" }],
    take: limit,
  });
  return { data: rows.map(tradeBody), meta: sampledMeta(at, { count: rows.length, limit, min_usd: minUsd }) };
}

const abnormalCache = new Map<string, AbnormalBody[]>();

export async function abnormalTrades(limit: number) {
  const db = await getDb();
  const at = await asOf(db, "trades");
  if (!at) return { data: [], meta: sampledMeta(null, { count: 0, limit }) };
  const key = at.toISOString();
  let ranked = abnormalCache.get(key);
  if (!ranked) {
    const dayAgo = new Date(at.getTime() - 86_400_000);
    const candidates = await db.trade.findMany({ where: { timestamp: { gt: dayAgo }, usdSize: { gte: ABNORMAL_RULES.minUsd } } });
    const conditionIds = [...new Set(candidates.map((t) => t.conditionId))];
    const reference = await db.trade.findMany({
      where: { conditionId: { in: conditionIds }, timestamp: { gt: new Date(at.getTime() - ABNORMAL_RULES.referenceWindowSeconds * 1000) } },
      select: { conditionId: true, usdSize: true, timestamp: true },
    });
    const markets = await db.market.findMany({ where: { conditionId: { in: conditionIds } }, select: { conditionId: true, volume24hUsd: true } });
    const gammaVolume = new Map(markets.map((m) => [m.conditionId, m.volume24hUsd]));
    const contexts = new Map<string, MarketContext & { sampled_24h: number }>();
    for (const id of conditionIds) contexts.set(id, { reference_usd_sizes: [], volume_24h_usd: 0, sampled_24h: 0 });
    for (const r of reference) {
      const c = contexts.get(r.conditionId)!;
      (c.reference_usd_sizes as number[]).push(r.usdSize);
      if (r.timestamp > dayAgo) c.sampled_24h += r.usdSize;
    }
    // Gamma's 24 h volume is the market's true figure; our sampled sum can only be larger if Gamma lags.
    for (const [id, c] of contexts) c.volume_24h_usd = Math.max(gammaVolume.get(id) ?? 0, c.sampled_24h);
    const found = findAbnormalTrades(
      candidates.map((t) => ({ ...t, condition_id: t.conditionId, usd_size: t.usdSize, timestamp: t.timestamp.getTime() / 1000 })),
      contexts,
      500,
    );
    const byId = new Map(candidates.map((t) => [t.id, t]));
    ranked = found.map((t) => ({
      ...tradeBody(byId.get(t.id)!),
      score: t.score,
      robust_z: t.z,
      market_median_usd: t.market_median_usd,
      share_of_market_24h_volume: t.share_of_market_24h_volume,
      reason: t.reason,
    }));
    if (abnormalCache.size > 8) abnormalCache.clear();
    abnormalCache.set(key, ranked);
  }
  const data = ranked.slice(0, limit);
  return { data, meta: sampledMeta(at, { count: data.length, limit }) };
}
