// Measures the database size after 24 h of simulated sampling at bench scale, by seeding what 1,440 one-minute
// passes would have stored (rows of the real tables, written by SQL), then running the real rollup, and reading
// pg_total_relation_size. Usage: PGLITE_DIR=memory:// DATA_DIR=/tmp/x npx tsx measure-db-size.ts <markets> <changeFraction> <tradesPerDay>
import { closeDb, getDb } from "@/lib/db/client";
import { rollUp } from "@/lib/sampler/store";

async function main() {
  const markets = Number(process.argv[2] ?? 10_000);
  const q = Number(process.argv[3] ?? 1);
  const tradesPerDay = Number(process.argv[4] ?? 100_000);
  const db = await getDb();
  const t0 = Date.parse("2026-11-01T00:00:00Z");
  const started = Date.now();
  await db.$executeRawUnsafe(`INSERT INTO events (id, slug, title, category, category_label, active, closed, open, seen_at, market_count)
    SELECT g::text, 'event-' || g, 'Event ' || g || ' title of a typical length for a market', 'politics', 'Politics', true, false, true, now(), 4
    FROM generate_series(1, ${Math.ceil(markets / 4)}) g`);
  await db.$executeRawUnsafe(`INSERT INTO markets (id, condition_id, event_id, event_slug, slug, question, position, active, closed, open, seen_at)
    SELECT g::text, '0x' || lpad(to_hex(g), 64, '0'), ((g - 1) / 4 + 1)::text, 'event-' || ((g - 1) / 4 + 1), 'market-' || g,
           'Will market number ' || g || ' resolve to yes before the end of the year?', (g - 1) % 4, true, false, true, now()
    FROM generate_series(1, ${markets}) g`);
  await db.$executeRawUnsafe(`INSERT INTO outcomes (token_id, market_id, index, name, price, priced_at, first_sampled_at)
    SELECT lpad((g * 7919)::text, 77, '1'), ((g - 1) / 2 + 1)::text, (g - 1) % 2, CASE WHEN g % 2 = 1 THEN 'Yes' ELSE 'No' END, 0.5, now(), now()
    FROM generate_series(1, ${markets * 2}) g`);
  // Raw samples: one row per outcome and minute when the price moved (probability q), plus the hourly heartbeat.
  for (let hour = 0; hour < 24; hour++) {
    await db.$executeRawUnsafe(`INSERT INTO price_samples (outcome_id, resolution_s, t, price)
      SELECT o.id, 60, to_timestamp(${t0 / 1000} + m * 60 + 7), (0.01 + random() * 0.98)::real
      FROM generate_series(${hour * 60}, ${hour * 60 + 59}) m CROSS JOIN outcomes o
      WHERE random() < ${q} OR m % 60 = o.id % 60`);
    process.stdout.write(".");
  }
  // What the sampler keeps on each outcome row for the next pass (last stored sample, latest change).
  await db.$executeRawUnsafe(`UPDATE outcomes o SET last_stored_at = s.t, last_stored_price = s.price, last_change_at = s.t, previous_price = 0.5
    FROM (SELECT DISTINCT ON (outcome_id) outcome_id, t, price FROM price_samples WHERE resolution_s = 60 ORDER BY outcome_id, t DESC) s
    WHERE s.outcome_id = o.id`);
  console.log(`\nseeded raw in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  await rollUp(db, new Date(t0 + 86_400_000));
  // The trade tape: 48 h of it is retained, so a day's worth is seeded here (the rows a day of passes would add).
  for (let part = 0; part < 10; part++) {
    const from = Math.floor((tradesPerDay * part) / 10) + 1;
    const to = Math.floor((tradesPerDay * (part + 1)) / 10);
    await db.$executeRawUnsafe(`INSERT INTO trades (id, tx_hash, condition_id, market_id, outcome, outcome_index, side, price, shares, usd_size, wallet, pseudonym, timestamp)
      SELECT substr(md5(g::text) || md5((g + 1)::text), 1, 32), '0x' || md5(g::text) || md5((g + 7)::text), '0x' || lpad(to_hex(g % ${markets} + 1), 64, '0'),
             (g % ${markets} + 1)::text, CASE WHEN g % 2 = 0 THEN 'Yes' ELSE 'No' END, g % 2, CASE WHEN g % 3 = 0 THEN 'SELL' ELSE 'BUY' END,
             round((0.01 + random() * 0.98)::numeric, 3)::float8, round((random() * 2000)::numeric, 2)::float8, round((random() * 1000)::numeric, 2)::float8,
             '0x' || substr(md5((g % 30000)::text), 1, 40), 'Adjective-Noun' || (g % 977), to_timestamp(${t0 / 1000} + g * 86400.0 / ${tradesPerDay})
      FROM generate_series(${from}, ${to}) g`);
  }
  await db.$executeRawUnsafe("VACUUM ANALYZE");
  const sizes = await db.$queryRawUnsafe<{ name: string; rows: bigint; bytes: bigint }[]>(
    `SELECT c.relname AS name, c.reltuples::bigint AS rows, pg_total_relation_size(c.oid) AS bytes FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY 3 DESC`,
  );
  const per = await db.$queryRawUnsafe<{ resolution_s: number; n: bigint }[]>(
    `SELECT resolution_s, count(*) AS n FROM price_samples GROUP BY 1 ORDER BY 1`,
  );
  const [total] = await db.$queryRawUnsafe<{ bytes: bigint }[]>(`SELECT pg_database_size(current_database()) AS bytes`);
  for (const s of sizes)
    console.log(`${s.name.padEnd(20)} ${String(s.rows).padStart(12)} rows ${(Number(s.bytes) / 1e6).toFixed(1).padStart(9)} MB`);
  console.log("samples per tier:", per.map((p) => `${p.resolution_s}s=${p.n}`).join(" "));
  console.log(
    `database: ${(Number(total.bytes) / 1e6).toFixed(1)} MB (markets=${markets}, change fraction=${q}, trades/day=${tradesPerDay}); ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  await closeDb();
}
void main();
