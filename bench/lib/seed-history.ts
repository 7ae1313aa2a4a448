// Seeds 31 days of price history for every stored outcome with server-side SQL (INSERT ... SELECT generate_series), at
// the density the sampler itself would leave behind (lib/sampler/config.ts TIERS): change-only raw samples at 1 min
// kept 48 h (hourly heartbeat), 15-min rollups kept 8 d (6 h heartbeat), hourly rollups kept 31 d (24 h heartbeat).
//
// How often a price changes decides how many rows exist. Markets are not alike, so each outcome gets an activity
// class from a hash of its id, and a row every `stride` buckets of a tier:
//   hot   (5 %):  raw every 2 min,  15-min every bucket,  hourly every bucket
//   warm (20 %):  raw every 20 min, 15-min every 2nd,     hourly every bucket
//   quiet (75 %): raw hourly (the heartbeat only), 15-min every 6 h (heartbeat), hourly every 8 h
// (quiet = a price that moves a few times a day, the bulk of Polymarket's long tail).
import type pg from "pg";

interface TierPlan {
  resolutionS: number;
  buckets: number;
  /** Stride in buckets per activity class: hot, warm, quiet. */
  strides: [number, number, number];
  /** Seconds after the bucket start at which the row lies (raw samples carry the real time they were taken). */
  offsetS: number;
}

export const SEED_PLAN: readonly TierPlan[] = [
  { resolutionS: 60, buckets: 48 * 60, strides: [2, 20, 60], offsetS: 7 },
  { resolutionS: 900, buckets: 8 * 96, strides: [1, 2, 24], offsetS: 0 },
  { resolutionS: 3600, buckets: 31 * 24, strides: [1, 1, 8], offsetS: 0 },
];

export interface SeedResult {
  outcomes: number;
  markets: number;
  rows_by_resolution: Record<string, number>;
  rows_total: number;
  seconds: number;
  end: string;
}

const CLASS = `((o.id * 37 + 11) % 100)`;

export async function seedHistory(client: pg.Client, progress: (line: string) => void, chunkOutcomes = 2000): Promise<SeedResult> {
  const started = performance.now();
  const [{ lo, hi, n }] = (await client.query(`SELECT min(id) AS lo, max(id) AS hi, count(*)::int AS n FROM outcomes`)).rows as {
    lo: number;
    hi: number;
    n: number;
  }[];
  const [{ markets }] = (await client.query(`SELECT count(*)::int AS markets FROM markets`)).rows as { markets: number }[];
  if (!n) throw new Error("no outcomes to seed history for: the sampler pass stored none");
  // History ends just before the sampler's own first sample, so seeded rows never collide with real ones.
  const [{ first }] = (await client.query(`SELECT extract(epoch FROM min(t))::bigint AS first FROM price_samples`)).rows as {
    first: string | null;
  }[];
  const end = (first ? Number(first) : Math.floor(Date.now() / 1000)) - 60;
  const rows: Record<string, number> = {};
  for (const tier of SEED_PLAN) {
    const endBucket = Math.floor(end / tier.resolutionS) * tier.resolutionS;
    const stride = `CASE WHEN ${CLASS} < 5 THEN ${tier.strides[0]} WHEN ${CLASS} < 25 THEN ${tier.strides[1]} ELSE ${tier.strides[2]} END`;
    rows[tier.resolutionS] = 0;
    let line = `  seeding ${tier.resolutionS}s tier`;
    for (let from = lo; from <= hi; from += chunkOutcomes) {
      // A smooth, outcome-specific path at the book's tick (0.001), as the sampler stores prices: a price with more
      // decimals than roundProbability keeps takes the history answer's slower path (lib/predmkt/history.ts pointsJson).
      const result = await client.query(
        `INSERT INTO price_samples (outcome_id, resolution_s, t, price)
         SELECT o.id, $1::int, to_timestamp(b.t), (round((0.5 + 0.45 * sin(o.id * 0.7 + b.t / 86400.0 * (1 + o.id % 5)))::numeric, 3))::real
         FROM outcomes o
         CROSS JOIN LATERAL (
           SELECT $2::bigint - k * $1::int + $3::int AS t
           FROM generate_series(0, $4::int - 1, ${stride}) k) b
         WHERE o.id >= $5 AND o.id < $6
         ON CONFLICT DO NOTHING`,
        [tier.resolutionS, endBucket, tier.offsetS, tier.buckets, from, from + chunkOutcomes],
      );
      rows[tier.resolutionS] += result.rowCount ?? 0;
      line += ".";
    }
    progress(`${line} ${rows[tier.resolutionS].toLocaleString("en-US")} rows`);
  }
  // The sampler notes when it first saw an outcome; the windows' "then" side must not predate it.
  await client.query(`UPDATE outcomes SET first_sampled_at = to_timestamp($1) WHERE first_sampled_at IS NOT NULL`, [end - 31 * 86_400]);
  await client.query(`VACUUM ANALYZE price_samples`);
  await client.query(`ANALYZE outcomes`);
  const total = Object.values(rows).reduce((a, b) => a + b, 0);
  return {
    outcomes: n,
    markets,
    rows_by_resolution: rows,
    rows_total: total,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    end: new Date(end * 1000).toISOString(),
  };
}

export async function databaseSize(client: pg.Client): Promise<{ total_mb: number; tables: Record<string, { rows: number; mb: number }> }> {
  const tables = (
    await client.query(
      `SELECT c.relname AS name, c.reltuples::bigint AS rows, pg_total_relation_size(c.oid) AS bytes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = current_schema() AND c.relkind = 'r' ORDER BY 3 DESC LIMIT 8`,
    )
  ).rows as { name: string; rows: string; bytes: string }[];
  const [{ bytes }] = (await client.query(`SELECT pg_database_size(current_database()) AS bytes`)).rows as { bytes: string }[];
  const mb = (b: string | number) => Math.round(Number(b) / 1e5) / 10;
  return { total_mb: mb(bytes), tables: Object.fromEntries(tables.map((t) => [t.name, { rows: Number(t.rows), mb: mb(t.bytes) }])) };
}
