// Abnormal-trade scoring: a trade is judged against its own market, not against a fixed dollar line. Pure.
//
// Definition (also in the OpenAPI description and the README):
//   x = ln(usd_size); over the market's reference trades (its sampled trades of the last 48 hours, this one included)
//   m = median(ln usd), MAD = median(|ln usd − m|);
//   z = 0.6745 · (x − m) / max(MAD, 0.25)        (Iglewicz–Hoaglin modified z-score on log size; the floor keeps a
//                                                  market whose trades are all one size from dividing by ~0)
//   share = usd_size / max(market 24 h volume, usd_size)
//   score = max(z, 0) / 3.5 + share / 0.10
// A trade is abnormal when score ≥ 1 and usd_size ≥ $500: either alone is enough (a modified z of 3.5, Iglewicz and
// Hoaglin's outlier cut-off, or 10 % of the market's day), and half of each together is too. With fewer than 10
// reference trades the size distribution is not trusted and only the share term counts.
import { roundUsd } from "./money";

export const ABNORMAL_RULES = {
  zThreshold: 3.5,
  shareThreshold: 0.1,
  scoreThreshold: 1,
  minUsd: 500,
  minReferenceTrades: 10,
  madFloor: 0.25,
  referenceWindowSeconds: 48 * 3600,
} as const;

export interface TradeToScore {
  usd_size: number;
}

export interface MarketContext {
  /** USD sizes of the market's reference trades. */
  reference_usd_sizes: readonly number[];
  /** The market's 24 h volume in USD (Gamma's figure, or the sampled sum if larger). */
  volume_24h_usd: number;
}

export interface TradeScore {
  score: number;
  z: number | null;
  market_median_usd: number | null;
  share_of_market_24h_volume: number;
  abnormal: boolean;
  reason: string;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const usd = (v: number) => `$${Math.round(v).toLocaleString("en-US")}`;
const pct = (v: number) => `${(v * 100).toFixed(v < 0.1 ? 1 : 0)}%`;

export function scoreTrade(trade: TradeToScore, market: MarketContext, rules = ABNORMAL_RULES): TradeScore {
  const sizes = market.reference_usd_sizes.filter((v) => v > 0);
  const denominator = Math.max(market.volume_24h_usd, trade.usd_size);
  const share = denominator > 0 ? trade.usd_size / denominator : 0;
  let z: number | null = null;
  let marketMedian: number | null = null;
  if (sizes.length >= rules.minReferenceTrades && trade.usd_size > 0) {
    const logs = sizes.map(Math.log);
    const m = median(logs);
    const mad = median(logs.map((x) => Math.abs(x - m)));
    z = (0.6745 * (Math.log(trade.usd_size) - m)) / Math.max(mad, rules.madFloor);
    marketMedian = Math.exp(m);
  } else if (sizes.length) {
    marketMedian = median(sizes);
  }
  const score = Math.max(z ?? 0, 0) / rules.zThreshold + share / rules.shareThreshold;
  const abnormal = score >= rules.scoreThreshold && trade.usd_size >= rules.minUsd;

  const parts: string[] = [];
  if (z !== null && marketMedian !== null) {
    parts.push(
      `${usd(trade.usd_size)} is ${z.toFixed(1)} robust deviations ${z >= 0 ? "above" : "below"} this market's typical trade ` +
        `(median ${usd(marketMedian)} over ${sizes.length} trades in 48 h)`,
    );
  } else {
    parts.push(`${usd(trade.usd_size)} in a market with only ${sizes.length} sampled trades in 48 h (too few to judge size)`);
  }
  parts.push(`${pct(share)} of the market's 24 h volume (${usd(market.volume_24h_usd)})`);
  const verdict = abnormal
    ? "flagged"
    : trade.usd_size < rules.minUsd
      ? `not flagged: below the ${usd(rules.minUsd)} floor`
      : "not flagged";
  return {
    score: Math.round(score * 1000) / 1000,
    z: z === null ? null : Math.round(z * 1000) / 1000,
    market_median_usd: marketMedian === null ? null : roundUsd(marketMedian),
    share_of_market_24h_volume: Math.round(share * 1e6) / 1e6,
    abnormal,
    reason: `${parts.join("; ")}; score ${score.toFixed(2)} (threshold ${rules.scoreThreshold}), ${verdict}.`,
  };
}

/** Scores every trade against its market and keeps the abnormal ones, highest score first (ties: newest first). */
export function findAbnormalTrades<T extends TradeToScore & { condition_id: string; timestamp: number; id: string }>(
  trades: readonly T[],
  markets: ReadonlyMap<string, MarketContext>,
  limit: number,
): (T & TradeScore)[] {
  const scored: (T & TradeScore)[] = [];
  for (const trade of trades) {
    const context = markets.get(trade.condition_id) ?? { reference_usd_sizes: [], volume_24h_usd: 0 };
    const result = scoreTrade(trade, context);
    if (result.abnormal) scored.push({ ...trade, ...result });
  }
  return scored.sort((a, b) => b.score - a.score || b.timestamp - a.timestamp || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(0, limit);
}
