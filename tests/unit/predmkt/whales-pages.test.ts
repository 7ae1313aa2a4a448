// /whales ranks every open position but never holds them all (lib/predmkt/whales.ts topWhales): it scans a keyset page
// of numbers at a time, keeps the best between pages and reads the texts of those last. Whatever the page size, the
// answer must be the one the whole statement ranked by rankWhales gave (kept below as the oracle), filters included,
// with ties in value broken by wallet and then token id.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rankWhales } from "@/lib/analytics/whales";
import { closeDb, type Db, getDb } from "@/lib/db/client";
import { topWhales, type WhaleFilter } from "@/lib/predmkt/whales";

let db: Db;
const AT = "2026-11-20T12:00:00.000Z";

/** The statement /whales ran before it was paged, ranked in JS: the oracle. */
async function whole(filter: WhaleFilter) {
  const rows = await db.$queryRawUnsafe<Parameters<typeof rankWhales>[0][number][]>(
    `SELECT w.wallet, w.pseudonym, w.market_id, w.condition_id, m.event_slug, w.question, w.outcome, w.outcome_index,
            w.token_id, w.shares, w.entry_price, o.price AS current_price, w.sampled_at
     FROM whale_positions w
     JOIN markets m ON m.id = w.market_id AND m.open
     LEFT JOIN outcomes o ON o.token_id = w.token_id
     WHERE ($1::text IS NULL OR w.market_id = $1 OR w.condition_id = $1)
       AND ($2::text IS NULL OR m.event_slug = $2)
       AND w.shares * COALESCE(o.price, 0) >= $3`,
    filter.marketId,
    filter.eventSlug,
    filter.minUsd,
  );
  return rankWhales(rows, 10_000);
}

beforeAll(async () => {
  db = await getDb();
  await db.$executeRawUnsafe("TRUNCATE events, markets, outcomes, whale_positions RESTART IDENTITY CASCADE");
  // 12 markets in 3 events (one market closed), two outcomes each; prices repeat so values tie.
  const markets = Array.from({ length: 12 }, (_, i) => ({ id: `m${i + 1}`, event: `e${i % 3}`, open: i !== 4 }));
  await db.$executeRawUnsafe(
    `INSERT INTO markets (id, condition_id, event_id, event_slug, slug, question, active, closed, open, seen_at)
     SELECT id, '0x' || md5(id) || md5(id), e, e, id, 'Q ' || id, true, false, o, $4::timestamptz
     FROM unnest($1::text[], $2::text[], $3::bool[]) AS u(id, e, o)`,
    markets.map((m) => m.id),
    markets.map((m) => m.event),
    markets.map((m) => m.open),
    AT,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO outcomes (token_id, market_id, index, name, price)
     SELECT 't' || m || '-' || k, m, k, CASE k WHEN 0 THEN 'Yes' ELSE 'No' END,
            CASE WHEN m = 'm7' AND k = 1 THEN NULL ELSE 0.25 * (1 + (length(m) + k) % 3) END
     FROM unnest($1::text[]) AS m, generate_series(0, 1) AS k`,
    markets.map((m) => m.id),
  );
  // 30 wallets holding in most markets; shares repeat (so do values), some entry prices unknown.
  await db.$executeRawUnsafe(
    `INSERT INTO whale_positions (wallet, token_id, market_id, condition_id, question, outcome, outcome_index, pseudonym,
                                  shares, entry_price, sampled_at)
     SELECT '0x' || lpad(to_hex(w), 40, '0'), o.token_id, o.market_id, mk.condition_id, mk.question, o.name, o.index,
            CASE WHEN w % 4 = 0 THEN NULL ELSE 'p' || w END, 1000 * (1 + (w * 7 + o.id) % 5),
            CASE WHEN w % 3 = 0 THEN NULL ELSE 0.1 * (1 + w % 5) END, $1::timestamptz - make_interval(mins => w)
     FROM generate_series(1, 30) AS w JOIN outcomes o ON (w + o.id) % 4 <> 0 JOIN markets mk ON mk.id = o.market_id`,
    AT,
  );
});
afterAll(closeDb);

describe("whales read page by page", () => {
  const filters: WhaleFilter[] = [
    { marketId: null, eventSlug: null, minUsd: 0 },
    { marketId: null, eventSlug: null, minUsd: 1000 },
    { marketId: "m2", eventSlug: null, minUsd: 0 },
    { marketId: null, eventSlug: "e1", minUsd: 500 },
  ];
  for (const filter of filters) {
    it(`rank exactly as the whole statement ranked at once (${JSON.stringify(filter)})`, async () => {
      const expected = await whole(filter);
      expect(expected.length).toBeGreaterThan(5);
      if (filter.marketId === null && filter.minUsd === 0)
        expect(expected.some((a, i) => i > 0 && a.value_usd === expected[i - 1].value_usd && a.wallet === expected[i - 1].wallet)).toBe(
          true,
        );
      for (const pageSize of [1, 3, 50, 10_000]) {
        expect(await topWhales(db, filter, 10_000, pageSize), `pages of ${pageSize}`).toEqual(expected);
        expect(await topWhales(db, filter, 7, pageSize), `best 7, pages of ${pageSize}`).toEqual(expected.slice(0, 7));
      }
      // The keys in the order the answer always had them.
      expect(Object.keys((await topWhales(db, filter, 1))[0])).toEqual(Object.keys(expected[0]));
    });
  }
});
