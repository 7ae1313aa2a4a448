// Read service for whale positions: the union of top holders of every market above the volume floor (the sampler's
// rotating whale refresh), ranked by value; narrowed by market, event and a minimum position value.
import { rankWhales, type ValuedPosition } from "@/lib/analytics/whales";
import { type Db, getDb } from "@/lib/db/client";
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

/** What ranking needs of a position (lib/analytics/whales.ts rankWhales): no texts beyond its key. */
interface ScanRow {
  wallet: string;
  token_id: string;
  shares: number;
  entry_price: number | null;
  current_price: number | null;
}

/** Positions read per statement while ranking. */
const WHALES_PAGE = 2_000;

export interface WhaleFilter {
  marketId: string | null;
  eventSlug: string | null;
  /** Positions worth at least this (shares × current price, unrounded). */
  minUsd: number;
}

/**
 * The best `keep` open positions the filter selects, exactly as `rankWhales` over all of them ranks them, without
 * holding all of them (every eligible market's top holders: hundreds of thousands at Polymarket's size;
 * docs/upstream-behaviours.md "Listing pages in bounded memory"): positions are scanned a keyset page at a time by
 * their key (wallet, token id), each row only what the value needs, and only the best are kept between pages — the
 * ranking is a total order (value, wallet, token id), so the best of each page's union with the best so far is exactly
 * the best of all. The texts of those few are read last.
 */
export async function topWhales(db: Db, filter: WhaleFilter, keep = MAX_WHALES, pageSize = WHALES_PAGE) {
  let best: (ScanRow & ValuedPosition)[] = [];
  for (let after = ["", ""]; ;) {
    const rows = await db.$queryRawUnsafe<ScanRow[]>(
      `SELECT w.wallet, w.token_id, w.shares, w.entry_price, o.price AS current_price
       FROM whale_positions w
       JOIN markets m ON m.id = w.market_id AND m.open
       LEFT JOIN outcomes o ON o.token_id = w.token_id
       WHERE ($1::text IS NULL OR w.market_id = $1 OR w.condition_id = $1)
         AND ($2::text IS NULL OR m.event_slug = $2)
         AND w.shares * COALESCE(o.price, 0) >= $3
         AND (w.wallet, w.token_id) > ($4::text, $5::text)
       ORDER BY w.wallet, w.token_id LIMIT $6`,
      filter.marketId,
      filter.eventSlug,
      filter.minUsd,
      after[0],
      after[1],
      pageSize,
    );
    best = rankWhales([...best, ...rows], keep);
    if (rows.length < pageSize) break;
    after = [rows[rows.length - 1].wallet, rows[rows.length - 1].token_id];
  }
  if (!best.length) return [];
  const texts = await db.$queryRawUnsafe<Omit<WhaleDbRow, "shares" | "entry_price" | "current_price">[]>(
    `SELECT w.wallet, w.pseudonym, w.market_id, w.condition_id, m.event_slug, w.question, w.outcome, w.outcome_index,
            w.token_id, w.sampled_at
     FROM whale_positions w JOIN markets m ON m.id = w.market_id
     WHERE (w.wallet, w.token_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
    best.map((r) => r.wallet),
    best.map((r) => r.token_id),
  );
  const byKey = new Map(texts.map((t) => [`${t.wallet}|${t.token_id}`, t]));
  // A position replaced between the two reads (a refresh of its market) is left out, not invented.
  return best.flatMap((r) => {
    const t = byKey.get(`${r.wallet}|${r.token_id}`);
    if (!t) return [];
    // The keys in the order the answer has always had them.
    const row: WhaleDbRow & ValuedPosition = {
      wallet: r.wallet,
      pseudonym: t.pseudonym,
      market_id: t.market_id,
      condition_id: t.condition_id,
      event_slug: t.event_slug,
      question: t.question,
      outcome: t.outcome,
      outcome_index: t.outcome_index,
      token_id: r.token_id,
      shares: r.shares,
      entry_price: r.entry_price,
      current_price: r.current_price,
      sampled_at: t.sampled_at,
      value_usd: r.value_usd,
      unrealized_pnl_usd: r.unrealized_pnl_usd,
    };
    return [row];
  });
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
      const rows = await topWhales(db, { marketId: query.market_id ?? null, eventSlug: query.event_slug ?? null, minUsd: floor });
      return {
        rows: rows.map((r) => ({ ...r, wallet_url: walletUrl(r.wallet), sampled_at: r.sampled_at.toISOString() })),
      };
    },
    { filtered },
  );
  // The same comparison as the query's (shares × price, unrounded).
  const data = ranked.rows.filter((r) => r.shares * (r.current_price ?? 0) >= minUsd).slice(0, limit);
  const oldest = data.reduce<string | null>((o, r) => (o === null || r.sampled_at < o ? r.sampled_at : o), null);
  return { data, meta: sampledMeta(at, { count: data.length, ...filters, oldest_sampled_at: oldest }) };
}
