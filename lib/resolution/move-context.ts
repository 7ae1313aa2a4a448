// `resolution_context` on movers and abnormal trades (docs/resolution.md): a move or a trade that follows a step of
// its market's resolution (a proposal, a dispute) within the reaction window is the settlement mechanic, not news.
// The market's steps come from our oracle index (lib/resolution/market-resolutions.ts), the move's path from our
// stored samples; only markets with a step near the move are read.
import type { Db } from "@/lib/db/client";
import { DEFAULT_REACTION_SECONDS, moveResolutionContext, type ResolutionContext, tradeResolutionContext } from "./resolution-context";
import { marketResolutions, resolutionEventsOf } from "./market-resolutions";
import { sampledSeries } from "./market-store";

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** Context per mover row (same order); null where no resolution step is near the move. */
export async function moverContexts(
  db: Db,
  rows: readonly { market_id: string; token_id: string; then_at: string }[],
  now: number,
): Promise<(ResolutionContext | null)[]> {
  const resolutions = await marketResolutions();
  if (!resolutions.byConditionId.size || !rows.length) return rows.map(() => null);
  const markets = await db.market.findMany({
    where: { id: { in: [...new Set(rows.map((r) => r.market_id))] } },
    select: { id: true, conditionId: true },
  });
  const conditionOf = new Map(markets.map((m) => [m.id, m.conditionId]));
  return Promise.all(
    rows.map(async (row) => {
      const events = resolutionEventsOf(resolutions, conditionOf.get(row.market_id) ?? "");
      const move = { start: seconds(row.then_at), end: now };
      // Only a step inside the move's window (or just before it) can explain it: skip the series read otherwise.
      if (!events.some((e) => e.at <= move.end && e.at >= move.start - DEFAULT_REACTION_SECONDS)) return null;
      const outcome = await db.outcome.findUnique({ where: { tokenId: row.token_id }, select: { id: true } });
      const series = outcome ? await sampledSeries(db, outcome.id, move.start - DEFAULT_REACTION_SECONDS, move.end) : [];
      return moveResolutionContext(move, series, events);
    }),
  );
}

/** Context per trade (same order): the resolution step the trade followed within the reaction window, if any. */
export async function tradeContexts(rows: readonly { condition_id: string; timestamp: string }[]): Promise<(ResolutionContext | null)[]> {
  const resolutions = await marketResolutions();
  if (!resolutions.byConditionId.size) return rows.map(() => null);
  return rows.map((row) => tradeResolutionContext(seconds(row.timestamp), resolutionEventsOf(resolutions, row.condition_id)));
}
