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

interface TradeToScore {
  usd_size: number;
}

export interface MarketContext {
  /** USD sizes of the market's reference trades. */
  reference_usd_sizes: readonly number[];
  /** The market's 24 h volume in USD (Gamma's figure, or the sampled sum if larger). */
  volume_24h_usd: number;
}

interface TradeScore {
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

/**
 * What a trade is judged against, computed once per market: the median and MAD of its reference trades' log sizes.
 * Every trade of a market shares one reference set, so scoring n trades of a market costs one O(n log n) summary plus
 * O(1) per trade, instead of re-sorting the reference set for each trade (a 30,000-fill burst in one market took
 * minutes that way: docs/abnormal.md).
 */
export interface MarketSummary {
  /** Reference trades with a positive size. */
  count: number;
  /** median(ln usd) and MAD(ln usd), or null with fewer than the rules' minimum of reference trades. */
  log_median: number | null;
  log_mad: number | null;
  /** The median trade in USD: exp(log median) when the distribution is trusted, else the plain median, else null. */
  median_usd: number | null;
  /** The plain median in USD (what a trade without a positive size is shown against), null without reference trades. */
  plain_median_usd: number | null;
  volume_24h_usd: number;
}

const sortedMedian = (sorted: Float64Array | readonly number[]) => {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export function summarizeMarket(market: MarketContext, rules = ABNORMAL_RULES): MarketSummary {
  const sizes = market.reference_usd_sizes.filter((v) => v > 0);
  const summary: MarketSummary = {
    count: sizes.length,
    log_median: null,
    log_mad: null,
    median_usd: null,
    plain_median_usd: sizes.length ? sortedMedian(Float64Array.from(sizes).sort()) : null,
    volume_24h_usd: market.volume_24h_usd,
  };
  if (sizes.length >= rules.minReferenceTrades) {
    // Typed arrays sort numerically in place; the values are the same doubles the definition's median() sorts.
    const logs = Float64Array.from(sizes, Math.log).sort();
    const m = sortedMedian(logs);
    const deviations = logs.map((x) => Math.abs(x - m)).sort();
    summary.log_median = m;
    summary.log_mad = sortedMedian(deviations);
    summary.median_usd = Math.exp(m);
  } else {
    summary.median_usd = summary.plain_median_usd;
  }
  return summary;
}

export function scoreTrade(trade: TradeToScore, market: MarketContext, rules = ABNORMAL_RULES): TradeScore {
  return scoreAgainst(trade, summarizeMarket(market, rules), rules);
}

interface Measured {
  score: number;
  z: number | null;
  marketMedian: number | null;
  share: number;
  abnormal: boolean;
}

/** The numbers of a trade's score (no text): what deciding abnormal needs, O(1). */
function measure(trade: TradeToScore, market: MarketSummary, rules: typeof ABNORMAL_RULES): Measured {
  const denominator = Math.max(market.volume_24h_usd, trade.usd_size);
  const share = denominator > 0 ? trade.usd_size / denominator : 0;
  let z: number | null = null;
  let marketMedian = market.plain_median_usd;
  if (market.log_median !== null && market.log_mad !== null && trade.usd_size > 0) {
    z = (0.6745 * (Math.log(trade.usd_size) - market.log_median)) / Math.max(market.log_mad, rules.madFloor);
    marketMedian = market.median_usd;
  }
  const score = Math.max(z ?? 0, 0) / rules.zThreshold + share / rules.shareThreshold;
  return { score, z, marketMedian, share, abnormal: score >= rules.scoreThreshold && trade.usd_size >= rules.minUsd };
}

/** Scores one trade against its market's summary (summarizeMarket): O(1). */
export function scoreAgainst(trade: TradeToScore, market: MarketSummary, rules = ABNORMAL_RULES): TradeScore {
  return described(trade, market, measure(trade, market, rules), rules);
}

/** The score with its reason: the text (number formatting) costs more than the numbers, so only kept trades get it. */
function described(trade: TradeToScore, market: MarketSummary, measured: Measured, rules: typeof ABNORMAL_RULES): TradeScore {
  const { score, z, marketMedian, share, abnormal } = measured;
  const parts: string[] = [];
  if (z !== null && marketMedian !== null) {
    parts.push(
      `${usd(trade.usd_size)} is ${z.toFixed(1)} robust deviations ${z >= 0 ? "above" : "below"} this market's typical trade ` +
        `(median ${usd(marketMedian)} over ${market.count} trades in 48 h)`,
    );
  } else {
    parts.push(`${usd(trade.usd_size)} in a market with only ${market.count} sampled trades in 48 h (too few to judge size)`);
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

type Scorable = TradeToScore & { condition_id: string; timestamp: number; id: string };
const NO_MARKET: MarketSummary = { count: 0, log_median: null, log_mad: null, median_usd: null, plain_median_usd: null, volume_24h_usd: 0 };

/** The abnormal ones among `trades`, each scored against its market's summary (unknown markets: against nothing). */
export function abnormalAmong<T extends Scorable>(trades: readonly T[], summaries: ReadonlyMap<string, MarketSummary>): (T & TradeScore)[] {
  const out: (T & TradeScore)[] = [];
  for (const trade of trades) {
    const summary = summaries.get(trade.condition_id) ?? NO_MARKET;
    const measured = measure(trade, summary, ABNORMAL_RULES);
    if (measured.abnormal) out.push({ ...trade, ...described(trade, summary, measured, ABNORMAL_RULES) });
  }
  return out;
}

/**
 * abnormalAmong in slices of `sliceSize` trades, awaiting `between()` after each slice but the last: the caller passes
 * a turn of its event loop, so scoring a burst never holds other work behind one long loop (docs/abnormal.md).
 */
export async function abnormalAmongInSlices<T extends Scorable>(
  trades: readonly T[],
  summaries: ReadonlyMap<string, MarketSummary>,
  between: () => Promise<unknown>,
  sliceSize = 2_000,
): Promise<(T & TradeScore)[]> {
  const out: (T & TradeScore)[] = [];
  for (let start = 0; start < trades.length; start += sliceSize) {
    if (start > 0) await between();
    for (const t of abnormalAmong(trades.slice(start, start + sliceSize), summaries)) out.push(t);
  }
  return out;
}

/** Highest score first (ties: newest first, then id), cut to `limit`. */
export function rankAbnormal<T extends Scorable & TradeScore>(scored: T[], limit: number): T[] {
  return scored.sort((a, b) => b.score - a.score || b.timestamp - a.timestamp || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(0, limit);
}

/** Scores every trade against its market and keeps the abnormal ones, highest score first (ties: newest first). */
export function findAbnormalTrades<T extends Scorable>(
  trades: readonly T[],
  markets: ReadonlyMap<string, MarketContext>,
  limit: number,
): (T & TradeScore)[] {
  const summaries = new Map<string, MarketSummary>();
  for (const trade of trades) {
    const context = markets.get(trade.condition_id);
    if (context && !summaries.has(trade.condition_id)) summaries.set(trade.condition_id, summarizeMarket(context));
  }
  return rankAbnormal(abnormalAmong(trades, summaries), limit);
}
