// Read services for the latest ticks and one market's sampled history.
import { ApiError } from "@/lib/api/errors";
import { roundProbability } from "@/lib/analytics/changes";
import { getDb } from "@/lib/db/client";
import { resolutionForWindow } from "./movers";
import { asOf, NOT_SAMPLED_NOTE, sampledMeta, WINDOW_SECONDS } from "./meta";

export async function latestTicks(limit: number) {
  const db = await getDb();
  const at = await asOf(db, "prices");
  if (!at) return { data: [], meta: sampledMeta(null, { count: 0, limit }) };
  // Each outcome remembers its latest price change (time and previous price); the feed is those, newest first.
  const rows = await db.$queryRawUnsafe<
    { market_id: string; question: string; token_id: string; outcome: string; outcome_index: number; price: number; previous_price: number | null; t: Date }[]
  >(
    `SELECT o.market_id, m.question, o.token_id, o.name AS outcome, o.index AS outcome_index, o.price, o.previous_price,
            o.last_change_at AS t
     FROM outcomes o JOIN markets m ON m.id = o.market_id AND m.open
     WHERE o.last_change_at IS NOT NULL AND o.price IS NOT NULL
     ORDER BY o.last_change_at DESC, o.market_id, o.index
     LIMIT $1`,
    limit,
  );
  const data = rows.map((r) => ({
    market_id: r.market_id,
    question: r.question,
    token_id: r.token_id,
    outcome: r.outcome,
    outcome_index: r.outcome_index,
    price: roundProbability(r.price),
    previous_price: r.previous_price === null ? null : roundProbability(r.previous_price),
    timestamp: r.t.toISOString(),
  }));
  return { data, meta: sampledMeta(at, { count: data.length, limit }) };
}

export async function marketHistory(id: string, window: string) {
  const db = await getDb();
  const at = await asOf(db, "prices");
  const market = await db.market.findFirst({ where: id.startsWith("0x") ? { conditionId: { equals: id, mode: "insensitive" } } : { id } });
  if (!market) throw new ApiError("not_found", at ? `No market with id '${id}'.` : `No market with id '${id}' (${NOT_SAMPLED_NOTE}).`);
  const outcome = await db.outcome.findFirst({ where: { marketId: market.id }, orderBy: { index: "asc" } });
  if (!outcome) throw new ApiError("not_found", `Market '${id}' has no outcomes with a CLOB token.`);
  const windowSeconds = WINDOW_SECONDS[window];
  const resolution = resolutionForWindow(windowSeconds);
  const end = outcome.pricedAt ?? at ?? new Date();
  const start = new Date(end.getTime() - windowSeconds * 1000);
  const [before] = await db.priceSample.findMany({
    where: { outcomeId: outcome.id, resolutionS: resolution, t: { lte: start } },
    orderBy: { t: "desc" },
    take: 1,
  });
  const inside = await db.priceSample.findMany({
    where: { outcomeId: outcome.id, resolutionS: resolution, t: { gt: start, lte: end } },
    orderBy: { t: "asc" },
  });
  const points = [...(before ? [before] : []), ...inside].map((s) => ({ t: Math.floor(s.t.getTime() / 1000), p: roundProbability(s.price) }));
  if (outcome.price !== null && outcome.pricedAt) {
    const t = Math.floor(outcome.pricedAt.getTime() / 1000);
    if (!points.length || points[points.length - 1].t < t) points.push({ t, p: roundProbability(outcome.price) });
  }
  return {
    data: { market_id: market.id, question: market.question, outcome: outcome.name, token_id: outcome.tokenId, resolution_s: resolution, points },
    meta: sampledMeta(at, { count: points.length, window }),
  };
}
