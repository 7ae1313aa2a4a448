// Read service for whale positions: the union of top holders of every market above the volume floor (the sampler's
// rotating whale refresh), ranked by value; narrowed by market, event and a minimum position value.
import { rankWhales } from "@/lib/analytics/whales";
import { getDb } from "@/lib/db/client";
import { asOf, sampledMeta } from "./meta";
import { oncePerPass } from "./per-pass";
import { walletUrl } from "@/lib/upstream/ids";
import { CANONICAL_GRID } from "@/lib/api/canonical";

/** The endpoint's largest `limit`: each ranking is computed once per pass at that length and cut per request. */
const MAX_WHALES = 500;

export interface WhaleQuery {
  limit: number;
  market_id?: string;
  event_slug?: string;
  min_usd?: number;
}

interface WhaleDbRow {
  wallet: string;
  pseudonym: string | null;
  market_id: string;
  condition_id: string;
  event_slug: string | null;
  question: string;
  outcome: string;
  outcome_index: number;
  token_id: string;
  shares: number;
  entry_price: number | null;
  current_price: number | null;
  sampled_at: Date;
}

/** The largest value of the canonical `min_usd` grid at or below `minUsd` (lib/api/canonical.ts). */
function gridFloor(minUsd: number): number {
  return CANONICAL_GRID.min_usd.filter((g) => g <= minUsd).at(-1) ?? 0;
}

export async function listWhales(query: WhaleQuery) {
  const { limit } = query;
  const minUsd = query.min_usd ?? 0;
  const filters = { limit, market_id: query.market_id, event_slug: query.event_slug, min_usd: minUsd };
  const db = await getDb();
  const at = await asOf(db, "whales");
  if (!at) return { data: [], meta: sampledMeta(null, { count: 0, ...filters }) };
  // Values use the current price, which every pass moves, not only the holder refresh.
  const pricesAt = await asOf(db, "prices");
  // One ranking per pass for each `min_usd` of the canonical grid, cut per request to the exact `min_usd`: positions
  // worth at least `min_usd` are the top of the ranking at the grid value below it, so the answer is the same, and a
  // flood of distinct values computes and stores nothing new (SECURITY.md "Shared stores").
  const floor = gridFloor(minUsd);
  const key = `whales|${pricesAt?.toISOString()}|${query.market_id ?? ""}|${query.event_slug ?? ""}|${floor}`;
  const filtered = query.market_id !== undefined || query.event_slug !== undefined;
  const ranked = await oncePerPass(
    key,
    at,
    async () => {
      const rows = await db.$queryRawUnsafe<WhaleDbRow[]>(
        `SELECT w.wallet, w.pseudonym, w.market_id, w.condition_id, m.event_slug, w.question, w.outcome, w.outcome_index,
                w.token_id, w.shares, w.entry_price, o.price AS current_price, w.sampled_at
         FROM whale_positions w
         JOIN markets m ON m.id = w.market_id AND m.open
         LEFT JOIN outcomes o ON o.token_id = w.token_id
         WHERE ($1::text IS NULL OR w.market_id = $1 OR w.condition_id = $1)
           AND ($2::text IS NULL OR m.event_slug = $2)
           AND w.shares * COALESCE(o.price, 0) >= $3`,
        query.market_id ?? null,
        query.event_slug ?? null,
        floor,
      );
      return {
        rows: rankWhales(rows, MAX_WHALES).map((r) => ({ ...r, wallet_url: walletUrl(r.wallet), sampled_at: r.sampled_at.toISOString() })),
      };
    },
    { filtered },
  );
  // The same comparison as the query's (shares × price, unrounded).
  const data = ranked.rows.filter((r) => r.shares * (r.current_price ?? 0) >= minUsd).slice(0, limit);
  const oldest = data.reduce<string | null>((o, r) => (o === null || r.sampled_at < o ? r.sampled_at : o), null);
  return { data, meta: sampledMeta(at, { count: data.length, ...filters, oldest_sampled_at: oldest }) };
}
