// /movers ranks every open market but never holds them all (lib/predmkt/movers.ts topMovers): it scans a keyset page
// of numbers at a time, keeps the best between pages and reads the texts of those last. Whatever the page size, the
// answer must be the one ranking of every open market at once, each row exactly what the per-event changes say of
// that market (the same prices, change and then_at), ties in change broken by volume and then by market id.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rankMovers } from "@/lib/analytics/movers";
import { closeDb, type Db, getDb } from "@/lib/db/client";
import { eventChanges, topMovers } from "@/lib/predmkt/movers";
import { STATE } from "@/lib/sampled/state";
import { setState } from "@/lib/sampler/store";

let db: Db;
const NOW = Date.parse("2026-11-20T12:00:00.123Z");
const MARKETS = 41;

// Changes repeat (every 5th market moves by the same amount) and so do volumes (in threes), so ties need both
// tie-breaks; ids sort differently as text and as numbers ("m10" < "m2"); closed markets, markets without a sample
// before the window and markets first sampled inside it are left out.
const market = (i: number) => ({
  id: `m${i}`,
  open: i % 13 !== 0,
  volume: 1_000.004 * (Math.floor(i / 3) % 4),
  now: i % 7 === 0 ? 0.55 : 0.5,
  then: i % 5 === 0 ? 0.4 : Math.round((0.5 - (i % 11) / 100 + (i % 2 ? 0.07 : -0.07)) * 100) / 100,
  sampled: i % 17 !== 0,
  firstSampledHoursAgo: i % 19 === 0 ? 0.5 : 72,
});
const all = Array.from({ length: MARKETS }, (_, i) => market(i + 1));

beforeAll(async () => {
  db = await getDb();
  await db.$executeRawUnsafe("TRUNCATE events, markets, outcomes, price_samples, sampler_state RESTART IDENTITY CASCADE");
  const at = new Date(NOW).toISOString();
  await db.$executeRawUnsafe(
    `INSERT INTO events (id, slug, title, active, closed, open, seen_at) VALUES ('e', 'e', 'E', true, false, true, $1::timestamptz)`,
    at,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO markets (id, condition_id, event_id, event_slug, slug, question, position, active, closed, open, volume_24h_usd, seen_at)
     SELECT id, '0x' || md5(id) || md5(id), 'e', 'e', id, 'Q ' || id, 0, true, false, o, v, $4::timestamptz
     FROM unnest($1::text[], $2::bool[], $3::float8[]) AS u(id, o, v)`,
    all.map((m) => m.id),
    all.map((m) => m.open),
    all.map((m) => m.volume),
    at,
  );
  await db.$executeRawUnsafe(
    `INSERT INTO outcomes (token_id, market_id, index, name, price, priced_at, first_sampled_at)
     SELECT 't' || id, id, 0, 'Yes', p, $4::timestamptz, $4::timestamptz - h * interval '1 hour'
     FROM unnest($1::text[], $2::float8[], $3::float8[]) AS u(id, p, h)`,
    all.map((m) => m.id),
    all.map((m) => m.now),
    all.map((m) => m.firstSampledHoursAgo),
    at,
  );
  const sampled = all.filter((m) => m.sampled);
  await db.$executeRawUnsafe(
    `INSERT INTO price_samples (outcome_id, resolution_s, t, price)
     SELECT o.id, 60, $3::timestamptz - interval '2 hours 17.456 seconds', u.p FROM unnest($1::text[], $2::float8[]) AS u(id, p)
     JOIN outcomes o ON o.market_id = u.id`,
    sampled.map((m) => m.id),
    sampled.map((m) => m.then),
    at,
  );
  await setState(db, STATE.prices, new Date(NOW));
});
afterAll(closeDb);

describe("movers read page by page", () => {
  it("rank exactly as one ranking of every open market's change at once, whatever the page size", async () => {
    const open = new Map(all.filter((m) => m.open).map((m) => [m.id, m]));
    const changes = (await eventChanges("e", "1h")).data.filter((c) => open.has(c.market_id));
    expect(changes.length).toBeGreaterThan(20);
    const expected = rankMovers(
      changes.map((c) => ({ ...c, volume_24h_usd: Math.round(open.get(c.market_id)!.volume * 100) / 100 })),
      10_000,
    );
    // Ties in both change and volume exist, so the market-id tie-break is exercised.
    expect(
      expected.some(
        (a, i) => i > 0 && Math.abs(a.change) === Math.abs(expected[i - 1].change) && a.volume_24h_usd === expected[i - 1].volume_24h_usd,
      ),
    ).toBe(true);
    for (const pageSize of [1, 2, 3, 7, 40, 41, 42, 1000]) {
      expect(await topMovers(db, "1h", 10_000, pageSize), `pages of ${pageSize}`).toEqual(expected);
      expect(await topMovers(db, "1h", 5, pageSize), `best 5, pages of ${pageSize}`).toEqual(expected.slice(0, 5));
    }
  });
});
