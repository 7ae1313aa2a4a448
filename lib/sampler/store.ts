// The sampler's write path: idempotent set-based SQL (INSERT ... SELECT FROM unnest(...) ON CONFLICT), in chunks of a
// few hundred rows so one statement never blocks PGlite's event loop for long, and without interactive transactions
// (every statement is safe to repeat, so a pass killed between two statements loses nothing and the next carries on).
import type { Db } from "@/lib/db/client";
import { canonicalConditionId, conditionIdForms } from "@/lib/upstream/ids";
import type { NormalizedEvent, NormalizedTrade } from "@/lib/upstream/types";
import { eventCategory } from "./category";
import { RAW_RESOLUTION_S, STORAGE_TIERS } from "@/lib/sampled/tiers";
import type { SamplerConfig } from "./config";

function chunks<T>(rows: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

const iso = (value: string | Date | null | undefined): string | null => {
  if (!value) return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
};

function uniqueBy<T>(rows: readonly T[], key: (row: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const row of rows) byKey.set(key(row), row);
  return [...byKey.values()];
}

const finite = (value: number | null | undefined): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);

export interface PageCounts {
  events: number;
  markets: number;
  outcomes: number;
  samples: number;
}

/** Upserts one page of events with their markets and outcomes, records each outcome's price, stores due samples. */
export async function writeEventsPage(
  db: Db,
  events: readonly NormalizedEvent[],
  seenAt: Date,
  config: SamplerConfig,
): Promise<PageCounts> {
  const seen = seenAt.toISOString();
  const counts: PageCounts = { events: 0, markets: 0, outcomes: 0, samples: 0 };
  // One statement may not touch a row twice (ON CONFLICT DO UPDATE), and keyset pages can repeat a row: last wins.
  events = uniqueBy(events, (e) => e.id);
  const marketRows = uniqueBy(
    events.flatMap((event) => event.markets.map((market, position) => ({ event, market, position }))).filter((r) => r.market.condition_id),
    (r) => r.market.id,
  );

  for (const chunk of chunks(events, config.chunkSize)) {
    const categories = chunk.map(eventCategory);
    counts.events += await db.$executeRawUnsafe(
      `INSERT INTO events (id, slug, title, category, category_label, volume_usd, volume_24h_usd, liquidity_usd, end_date,
                           active, closed, open, market_count, seen_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::float8[], $7::float8[],
                            $8::float8[], $9::timestamptz[], $10::bool[], $11::bool[], $12::bool[], $13::int[], $14::timestamptz[])
       ON CONFLICT (id) DO UPDATE SET slug = excluded.slug, title = excluded.title, category = excluded.category,
         category_label = excluded.category_label, volume_usd = excluded.volume_usd, volume_24h_usd = excluded.volume_24h_usd,
         liquidity_usd = excluded.liquidity_usd, end_date = excluded.end_date, active = excluded.active,
         closed = excluded.closed, open = excluded.open, market_count = excluded.market_count, seen_at = excluded.seen_at`,
      chunk.map((e) => e.id),
      chunk.map((e) => e.slug),
      chunk.map((e) => e.title),
      categories.map((c) => c.slug),
      categories.map((c) => c.label),
      chunk.map((e) => finite(e.volume_usd)),
      chunk.map((e) => finite(e.volume_24h_usd)),
      chunk.map((e) => finite(e.liquidity_usd)),
      chunk.map((e) => iso(e.end_date)),
      chunk.map((e) => e.active),
      chunk.map((e) => e.closed),
      chunk.map((e) => e.open),
      chunk.map((e) => e.markets.filter((m) => m.active && !m.closed && !m.archived).length),
      chunk.map(() => seen),
    );
  }

  for (const chunk of chunks(marketRows, config.chunkSize)) {
    counts.markets += await db.$executeRawUnsafe(
      `INSERT INTO markets (id, condition_id, event_id, event_slug, slug, question, position, active, closed, open,
                            volume_usd, volume_24h_usd, liquidity_usd, end_date, seen_at, question_id, neg_risk_request_id)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::bool[],
                            $9::bool[], $10::bool[], $11::float8[], $12::float8[], $13::float8[], $14::timestamptz[], $15::timestamptz[],
                            $16::text[], $17::text[])
       ON CONFLICT (id) DO UPDATE SET condition_id = excluded.condition_id, event_id = excluded.event_id,
         event_slug = excluded.event_slug, slug = excluded.slug, question = excluded.question, position = excluded.position,
         active = excluded.active, closed = excluded.closed, open = excluded.open, volume_usd = excluded.volume_usd,
         volume_24h_usd = excluded.volume_24h_usd, liquidity_usd = excluded.liquidity_usd, end_date = excluded.end_date,
         seen_at = excluded.seen_at, question_id = excluded.question_id, neg_risk_request_id = excluded.neg_risk_request_id`,
      chunk.map((r) => r.market.id),
      // Stored lower-case (condition ids are hex), so a lookup by condition id is an equality on the unique index.
      chunk.map((r) => r.market.condition_id!.toLowerCase()),
      chunk.map((r) => r.event.id),
      chunk.map((r) => r.event.slug),
      chunk.map((r) => r.market.slug ?? r.market.id),
      chunk.map((r) => r.market.question),
      chunk.map((r) => r.position),
      chunk.map((r) => r.market.active),
      chunk.map((r) => r.market.closed),
      chunk.map((r) => r.market.active && !r.market.closed && !r.market.archived && r.event.open),
      chunk.map((r) => finite(r.market.volume_usd)),
      chunk.map((r) => finite(r.market.volume_24h_usd)),
      chunk.map((r) => finite(r.market.liquidity_usd)),
      chunk.map((r) => iso(r.market.end_date ?? r.event.end_date)),
      chunk.map(() => seen),
      // The dispute join's keys (docs/resolution.md): lower-case hex from the Gamma schema.
      chunk.map((r) => r.market.question_id ?? null),
      chunk.map((r) => r.market.neg_risk_request_id ?? null),
    );
  }

  const outcomeRows = uniqueBy(
    marketRows.flatMap(({ market }) =>
      market.outcomes
        .filter((o) => o.token_id)
        .map((o) => ({ marketId: market.id, tokenId: o.token_id as string, index: o.index, name: o.name, price: o.price })),
    ),
    (o) => o.tokenId,
  );
  for (const chunk of chunks(outcomeRows, config.chunkSize)) {
    counts.outcomes += await db.$executeRawUnsafe(
      `INSERT INTO outcomes (token_id, market_id, index, name, price, priced_at, first_sampled_at, last_change_at)
       SELECT u.token_id, u.market_id, u.index, u.name, u.price,
              CASE WHEN u.price IS NULL THEN NULL ELSE $6::timestamptz END,
              CASE WHEN u.price IS NULL THEN NULL ELSE $6::timestamptz END,
              CASE WHEN u.price IS NULL THEN NULL ELSE $6::timestamptz END
       FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::float8[]) AS u(token_id, market_id, index, name, price)
       ON CONFLICT (token_id) DO UPDATE SET market_id = excluded.market_id, index = excluded.index, name = excluded.name,
         price = COALESCE(excluded.price, outcomes.price), priced_at = COALESCE(excluded.priced_at, outcomes.priced_at),
         first_sampled_at = COALESCE(outcomes.first_sampled_at, excluded.first_sampled_at),
         previous_price = CASE WHEN excluded.price IS DISTINCT FROM outcomes.price AND excluded.price IS NOT NULL
                               THEN outcomes.price ELSE outcomes.previous_price END,
         last_change_at = CASE WHEN excluded.price IS DISTINCT FROM outcomes.price AND excluded.price IS NOT NULL
                               THEN excluded.priced_at ELSE outcomes.last_change_at END`,
      chunk.map((o) => o.tokenId),
      chunk.map((o) => o.marketId),
      chunk.map((o) => o.index),
      chunk.map((o) => o.name),
      chunk.map((o) => (typeof o.price === "number" && Number.isFinite(o.price) ? o.price : null)),
      seen,
    );
    // Change-only storage with a heartbeat: one statement marks the outcomes that are due and stores their samples,
    // so a repeat (same page, same time) finds nothing due and writes nothing twice.
    counts.samples += await db.$executeRawUnsafe(
      `WITH due AS (
         UPDATE outcomes SET last_stored_at = priced_at, last_stored_price = price
         WHERE token_id = ANY($1::text[]) AND price IS NOT NULL AND priced_at = $2::timestamptz
           AND (last_stored_at IS NULL OR last_stored_price IS DISTINCT FROM price
                OR last_stored_at <= priced_at - make_interval(secs => $3))
         RETURNING id, priced_at, price)
       INSERT INTO price_samples (outcome_id, resolution_s, t, price)
       SELECT id, ${RAW_RESOLUTION_S}, priced_at, price FROM due
       ON CONFLICT DO NOTHING`,
      chunk.map((o) => o.tokenId),
      seen,
      config.heartbeatS,
    );
  }
  return counts;
}

/** After a complete listing: whatever the listing no longer returned is not open any more. */
export async function closeUnseen(db: Db, listingStartedAt: Date): Promise<void> {
  const since = listingStartedAt.toISOString();
  await db.$executeRawUnsafe(`UPDATE events SET open = false WHERE open AND seen_at < $1::timestamptz`, since);
  await db.$executeRawUnsafe(`UPDATE markets SET open = false WHERE open AND seen_at < $1::timestamptz`, since);
}

/**
 * Rolls raw samples up into each coarser tier: one row per outcome and bucket, at the bucket's start, carrying the
 * bucket's closing (last) price, stored only when that close differs from the outcome's previous row in the tier or
 * the previous row is older than the tier's heartbeat. Only completed buckets, from the tier's watermark on; safe to
 * repeat.
 */
export async function rollUp(db: Db, now: Date): Promise<number> {
  let written = 0;
  for (const tier of STORAGE_TIERS.filter((t) => t.resolutionS !== RAW_RESOLUTION_S)) {
    const key = `rollup_${tier.resolutionS}`;
    const state = await getState(db, key);
    const bucketMs = tier.resolutionS * 1000;
    const until = new Date(Math.floor(now.getTime() / bucketMs) * bucketMs);
    // Raw samples older than their retention are gone, so there is nothing to roll up from before then.
    const earliest = Math.max(state?.at.getTime() ?? 0, now.getTime() - STORAGE_TIERS[0].retentionS * 1000);
    const from = new Date(Math.floor(earliest / bucketMs) * bucketMs);
    if (from >= until) continue;
    written += await db.$executeRawUnsafe(
      `WITH closes AS (
         SELECT DISTINCT ON (outcome_id, bucket) outcome_id, bucket, price
         FROM (SELECT o.id AS outcome_id, p.price, p.t, to_timestamp(floor(extract(epoch FROM p.t) / $1::int) * $1::int) AS bucket
               FROM outcomes o
               CROSS JOIN LATERAL (
                 SELECT price, t FROM price_samples
                 WHERE resolution_s = ${RAW_RESOLUTION_S} AND outcome_id = o.id AND t >= $2::timestamptz AND t < $3::timestamptz) p) raw
         ORDER BY outcome_id, bucket, t DESC),
       sequenced AS (
         SELECT c.*, lag(c.price) OVER w AS prev_price, lag(c.bucket) OVER w AS prev_bucket
         FROM closes c WINDOW w AS (PARTITION BY c.outcome_id ORDER BY c.bucket))
       INSERT INTO price_samples (outcome_id, resolution_s, t, price)
       SELECT s.outcome_id, $1::int, s.bucket, s.price
       FROM sequenced s
       LEFT JOIN LATERAL (
         SELECT p.t, p.price FROM price_samples p
         WHERE p.resolution_s = $1::int AND p.outcome_id = s.outcome_id AND p.t < $2::timestamptz
         ORDER BY p.t DESC LIMIT 1) last ON s.prev_bucket IS NULL
       WHERE COALESCE(s.prev_bucket, last.t) IS NULL
          OR COALESCE(s.prev_price, last.price) IS DISTINCT FROM s.price
          OR COALESCE(s.prev_bucket, last.t) <= s.bucket - make_interval(secs => $4::int)
       ON CONFLICT (resolution_s, outcome_id, t) DO UPDATE SET price = excluded.price`,
      tier.resolutionS,
      from.toISOString(),
      until.toISOString(),
      tier.heartbeatS,
    );
    await setState(db, key, until);
  }
  return written;
}

/**
 * Deletes samples past their tier's retention and trades past theirs. Samples are reached per outcome through the
 * primary key (one range per outcome), so the work is proportional to what is deleted, not to the table.
 */
export async function applyRetention(db: Db, now: Date, config: SamplerConfig): Promise<void> {
  for (const tier of STORAGE_TIERS) {
    await db.$executeRawUnsafe(
      `DELETE FROM price_samples WHERE ctid IN (
         SELECT x.ctid FROM outcomes o
         CROSS JOIN LATERAL (SELECT ctid FROM price_samples p
                             WHERE p.resolution_s = $1::int AND p.outcome_id = o.id AND p.t < $2::timestamptz) x)`,
      tier.resolutionS,
      new Date(now.getTime() - tier.retentionS * 1000).toISOString(),
    );
  }
  await db.$executeRawUnsafe(
    `DELETE FROM trades WHERE timestamp < $1::timestamptz`,
    new Date(now.getTime() - config.tradeRetentionS * 1000).toISOString(),
  );
}

// PGlite runs PostgreSQL in single-user mode: there is no autovacuum, so rows rewritten every pass (outcomes,
// markets, events) and rows deleted by retention would bloat the files forever. On PostgreSQL this only repeats what
// autovacuum does. ANALYZE keeps the planner's statistics current for the same reason.
const HOT_TABLES = ["events", "markets", "outcomes", "sampler_state", "sampler_lease", "sampler_runs", "whale_positions"];
const BIG_TABLES = ["trades", "price_samples"];

export async function vacuum(db: Db, which: "hot" | "big"): Promise<void> {
  for (const table of which === "hot" ? HOT_TABLES : BIG_TABLES) await db.$executeRawUnsafe(`VACUUM (ANALYZE) ${table}`);
}

/** Inserts trades, one row per fill however often it is seen; fills the market id from the stored markets. */
export async function writeTrades(db: Db, trades: readonly NormalizedTrade[], config: SamplerConfig): Promise<number> {
  let inserted = 0;
  for (const chunk of chunks(trades, config.chunkSize)) {
    inserted += await db.$executeRawUnsafe(
      // The fill key is the id (one identity across sources); DO NOTHING without a target also skips a fill whose
      // key a row stored under an older id already holds. Markets keep Gamma's spelling of a condition id, so the
      // join tries both spellings of the trade's canonical one (docs/upstream-live.md, "Condition ids").
      `INSERT INTO trades (id, tx_hash, condition_id, market_id, outcome, outcome_index, side, price, shares, usd_size,
                           wallet, pseudonym, timestamp, fill_key)
       SELECT u.id, u.tx_hash, u.condition_id, COALESCE(u.market_id, m.id), u.outcome, u.outcome_index, u.side, u.price,
              u.shares, u.usd_size, u.wallet, u.pseudonym, u.timestamp, u.id
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::text[], $8::float8[],
                   $9::float8[], $10::float8[], $11::text[], $12::text[], $13::timestamptz[], $14::text[])
            AS u(id, tx_hash, condition_id, market_id, outcome, outcome_index, side, price, shares, usd_size, wallet,
                 pseudonym, timestamp, condition_alt)
       LEFT JOIN LATERAL (SELECT mm.id FROM markets mm WHERE mm.condition_id IN (u.condition_id, u.condition_alt) LIMIT 1) m ON true
       ON CONFLICT DO NOTHING`,
      chunk.map((t) => t.id),
      chunk.map((t) => t.tx_hash ?? ""),
      chunk.map((t) => canonicalConditionId(t.condition_id)),
      chunk.map((t) => t.market_id),
      chunk.map((t) => t.outcome),
      chunk.map((t) => t.outcome_index),
      chunk.map((t) => t.side),
      chunk.map((t) => t.price),
      chunk.map((t) => t.shares),
      chunk.map((t) => t.usd_size),
      chunk.map((t) => t.wallet),
      chunk.map((t) => t.pseudonym || null),
      chunk.map((t) => t.timestamp),
      chunk.map((t) => conditionIdForms(t.condition_id).find((f) => f !== canonicalConditionId(t.condition_id)) ?? null),
    );
  }
  return inserted;
}

export interface WhaleRow {
  wallet: string;
  token_id: string;
  market_id: string;
  condition_id: string;
  question: string;
  outcome: string;
  outcome_index: number;
  pseudonym: string | null;
  shares: number;
  entry_price: number | null;
}

/** Replaces the stored positions of the markets just refreshed; other markets' positions stay as they were. */
export async function replaceWhales(
  db: Db,
  marketIds: readonly string[],
  rows: readonly WhaleRow[],
  sampledAt: Date,
  config: SamplerConfig,
): Promise<number> {
  const at = sampledAt.toISOString();
  let written = 0;
  for (const chunk of chunks(
    uniqueBy(rows, (r) => `${r.wallet.toLowerCase()}|${r.token_id}`),
    config.chunkSize,
  )) {
    written += await db.$executeRawUnsafe(
      `INSERT INTO whale_positions (wallet, token_id, market_id, condition_id, question, outcome, outcome_index, pseudonym,
                                    shares, entry_price, sampled_at)
       SELECT *, $11::timestamptz FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                                              $7::int[], $8::text[], $9::float8[], $10::float8[])
       ON CONFLICT (wallet, token_id) DO UPDATE SET market_id = excluded.market_id, condition_id = excluded.condition_id,
         question = excluded.question, outcome = excluded.outcome, outcome_index = excluded.outcome_index,
         pseudonym = excluded.pseudonym, shares = excluded.shares, entry_price = excluded.entry_price,
         sampled_at = excluded.sampled_at`,
      // Wallets stored in one form (lower case) whatever the source sent.
      chunk.map((r) => r.wallet.toLowerCase()),
      chunk.map((r) => r.token_id),
      chunk.map((r) => r.market_id),
      chunk.map((r) => r.condition_id),
      chunk.map((r) => r.question),
      chunk.map((r) => r.outcome),
      chunk.map((r) => r.outcome_index),
      chunk.map((r) => r.pseudonym),
      chunk.map((r) => r.shares),
      chunk.map((r) => r.entry_price),
      at,
    );
  }
  await db.$executeRawUnsafe(
    `DELETE FROM whale_positions WHERE market_id = ANY($1::text[]) AND sampled_at < $2::timestamptz`,
    [...marketIds],
    at,
  );
  // Positions in markets that closed since their refresh are not open positions any more.
  await db.$executeRawUnsafe(`DELETE FROM whale_positions w USING markets m WHERE m.id = w.market_id AND NOT m.open`);
  return written;
}

export async function getState(db: Db, key: string): Promise<{ at: Date; value: string | null } | null> {
  const row = await db.samplerState.findUnique({ where: { key } });
  return row ? { at: row.at, value: row.value } : null;
}

export async function setState(db: Db, key: string, at: Date, value: string | null = null): Promise<void> {
  await db.samplerState.upsert({ where: { key }, create: { key, at, value }, update: { at, value } });
}
