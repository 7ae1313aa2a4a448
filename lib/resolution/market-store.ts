// The market side of the join, read from what the sampler stored: markets by the ids a dispute hashes to, their
// outcomes, and an outcome's sampled price series over a span (finest tier first, coarser tiers where the finer ones
// have been pruned: raw 48 h, 15-minute rollups 8 d, hourly 31 d).
import type { PricePoint } from "@/lib/analytics/changes";
import type { Db } from "@/lib/db/client";
import type { MarketFacts } from "./dispute-market";
import type { JoinableMarket } from "./join";
import { STORAGE_TIERS } from "@/lib/sampled/tiers";

export interface StoredMarket extends JoinableMarket, MarketFacts {
  /** Outcome token rows: surrogate id (for price samples), CLOB token id, latest price. */
  outcomeRows: { id: number; tokenId: string; index: number; price: number | null }[];
  closed: boolean;
}

/**
 * Markets whose condition id is one of `conditionIds`, whose neg-risk request id is one of `negRiskRequestIds` or whose
 * Gamma questionID is one of `questionIds` (lowercase or not), with their outcomes in index order.
 * Condition ids are stored lower-case (lib/sampler/store.ts), so this is an equality lookup on the unique index.
 */
export async function marketsByConditionIds(
  db: Db,
  conditionIds: readonly string[],
  negRiskRequestIds: readonly string[] = [],
  questionIds: readonly string[] = [],
) {
  if (!conditionIds.length && !negRiskRequestIds.length && !questionIds.length) return [];
  const markets = await db.market.findMany({
    where: {
      OR: [
        { conditionId: { in: conditionIds.map((id) => id.toLowerCase()) } },
        // A neg-risk market's condition id does not follow from the dispute: Gamma's negRiskRequestID is its key.
        { negRiskRequestId: { in: negRiskRequestIds.map((id) => id.toLowerCase()) } },
        // A NegRiskOperator's questionId is Gamma's questionID of its market (docs/resolution.md, step 4).
        ...(questionIds.length ? [{ questionId: { in: questionIds.map((id) => id.toLowerCase()) } }] : []),
      ],
    },
  });
  if (!markets.length) return [];
  const outcomes = await db.outcome.findMany({ where: { marketId: { in: markets.map((m) => m.id) } }, orderBy: { index: "asc" } });
  return markets.map((m): StoredMarket => {
    const rows = outcomes.filter((o) => o.marketId === m.id);
    return {
      id: m.id,
      conditionId: m.conditionId,
      questionID: m.questionId,
      negRiskRequestID: m.negRiskRequestId,
      condition_id: m.conditionId,
      slug: m.slug,
      question: m.question,
      event_slug: m.eventSlug,
      outcomes: rows.map((o) => o.name),
      outcomeRows: rows.map((o) => ({ id: o.id, tokenId: o.tokenId, index: o.index, price: o.price })),
      closed: m.closed,
    };
  });
}

/** An outcome's stored series over [from, to] (Unix seconds), with the point in force at `from` first when stored. */
export async function sampledSeries(db: Db, outcomeId: number, from: number, to: number): Promise<PricePoint[]> {
  const series: PricePoint[] = [];
  let coveredFrom = to + 1;
  for (const { resolutionS } of STORAGE_TIERS) {
    if (coveredFrom <= from) break;
    const [rows, [before]] = await Promise.all([
      db.priceSample.findMany({
        where: { outcomeId, resolutionS, t: { gt: new Date(from * 1000), lt: new Date(coveredFrom * 1000) } },
        orderBy: { t: "asc" },
      }),
      db.priceSample.findMany({
        where: { outcomeId, resolutionS, t: { lte: new Date(from * 1000) } },
        orderBy: { t: "desc" },
        take: 1,
      }),
    ]);
    const points = [...(before ? [before] : []), ...rows].map((r) => ({ t: Math.floor(r.t.getTime() / 1000), p: r.price }));
    if (!points.length) continue;
    series.unshift(...points);
    coveredFrom = points[0].t;
  }
  return series;
}
