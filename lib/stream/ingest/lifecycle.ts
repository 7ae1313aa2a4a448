// Markets that start and end between two listing passes, from the market channel's custom features (docs/stream.md,
// "Which markets the worker subscribes"; docs: market-channel `new_market`, `market_resolved`):
// - `new_market` lists the market at once (its event, the market, its outcomes), so it enters the sampled set — the
//   open markets every sampled endpoint and the stream's filters read — without waiting for the next listing pass.
//   Only what the message says is written, and nothing already listed is overwritten: the next pass writes Gamma's
//   full record (volumes, dates, ids) over it.
// - `market_resolved` closes the market (`open = false`, `closed = true`, as Gamma shows a resolved market) and sets
//   its outcomes' prices to the payout, 1 for the winning token and 0 for the others (Gamma's `outcomePrices` once
//   resolved), with the sampler's tick semantics so the stream's `ticks` carry the change; the event's open-market
//   count follows.
import type { Db } from "@/lib/db/client";
import { conditionIdForms } from "@/lib/upstream/ids";
import type { NormalizedWsMessage } from "@/lib/upstream/types";

type NewMarket = Extract<NormalizedWsMessage, { type: "new_market" }>;
type Resolved = Extract<NormalizedWsMessage, { type: "market_resolved" }>;

/** Lists a new market from its `new_market` message; false when the message lacks what a listing needs. */
export async function storeNewMarket(db: Db, m: NewMarket, now = new Date()): Promise<boolean> {
  if (!m.market_id || !m.event || !m.question) return false;
  const at = now.toISOString();
  await db.$executeRawUnsafe(
    `INSERT INTO events (id, slug, title, active, closed, open, market_count, seen_at)
     VALUES ($1, $2, $3, true, false, true, 0, $4::timestamptz)
     ON CONFLICT DO NOTHING`,
    m.event.id,
    m.event.slug,
    m.event.title,
    at,
  );
  const inserted = await db.$executeRawUnsafe(
    `INSERT INTO markets (id, condition_id, event_id, event_slug, slug, question, position, active, closed, open, seen_at)
     SELECT $1, $2, $3, $4, $5, $6,
            (SELECT count(*)::int FROM markets WHERE event_id = $3), true, false, true, $7::timestamptz
     WHERE NOT EXISTS (SELECT 1 FROM markets WHERE condition_id = ANY($8::text[]))
     ON CONFLICT DO NOTHING`,
    m.market_id,
    m.condition_id,
    m.event.id,
    m.event.slug,
    m.slug ?? m.market_id,
    m.question,
    at,
    conditionIdForms(m.condition_id),
  );
  if (!inserted) return false;
  const names = m.outcomes ?? m.token_ids.map((_, i) => (m.token_ids.length === 2 ? ["Yes", "No"][i] : `Outcome ${i + 1}`));
  await db.$executeRawUnsafe(
    `INSERT INTO outcomes (token_id, market_id, index, name)
     SELECT u.token_id, $1, u.index - 1, u.name FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS u(token_id, name, index)
     ON CONFLICT DO NOTHING`,
    m.market_id,
    m.token_ids,
    names,
  );
  await db.$executeRawUnsafe(
    `UPDATE events SET market_count = (SELECT count(*)::int FROM markets WHERE event_id = $1 AND open) WHERE id = $1`,
    m.event.id,
  );
  return true;
}

/** Closes a resolved market and prices its outcomes at the payout; returns how many outcome prices changed. */
export async function storeResolution(db: Db, m: Resolved, now = new Date()): Promise<number> {
  const forms = conditionIdForms(m.condition_id);
  const [market] = await db.$queryRawUnsafe<{ id: string; event_id: string }[]>(
    `UPDATE markets SET closed = true, open = false WHERE condition_id = ANY($1::text[]) RETURNING id, event_id`,
    forms,
  );
  if (!market) return 0;
  await db.$executeRawUnsafe(
    `UPDATE events SET market_count = (SELECT count(*)::int FROM markets WHERE event_id = $1 AND open) WHERE id = $1`,
    market.event_id,
  );
  if (!m.winning_token_id) return 0;
  // The payout, written like a sampler pass writes a price (lib/stream/ingest/prices.ts): a tick on the stream.
  return db.$executeRawUnsafe(
    `UPDATE outcomes o
        SET previous_price = o.price, price = CASE WHEN o.token_id = $2 THEN 1 ELSE 0 END, priced_at = $3::timestamptz,
            last_change_at = $3::timestamptz, first_sampled_at = COALESCE(o.first_sampled_at, $3::timestamptz)
      WHERE o.market_id = $1 AND o.price IS DISTINCT FROM (CASE WHEN o.token_id = $2 THEN 1 ELSE 0 END)`,
    market.id,
    m.winning_token_id,
    now.toISOString(),
  );
}
