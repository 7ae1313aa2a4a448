// Read services for the latest ticks and one market's sampled history.
import { ApiError } from "@/lib/api/errors";
import { roundProbability } from "@/lib/analytics/changes";
import { getDb, rawRows } from "@/lib/db/client";
import { STATE } from "@/lib/sampled/state";
import { resolutionForWindow } from "./movers";
import { asOf, NOT_SAMPLED_NOTE, sampledMeta } from "./meta";
import { WINDOW_SECONDS } from "./windows";
import { oncePerPass } from "./per-pass";

/** The endpoints' largest `limit`: the feed is computed once per pass at that length and cut per request. */
const MAX_TICKS = 500;

interface TickRow {
  market_id: string;
  question: string;
  token_id: string;
  outcome: string;
  outcome_index: number;
  price: number;
  previous_price: number | null;
  t: Date;
}

/**
 * The latest price ticks, newest first. `newest`: the newest tick's time when the ingest worker wrote ticks after the
 * last pass (ticks-clock.ts); the feed is then read as it stands instead of from the pass's aggregate.
 */
export async function latestTicks(limit: number, newest: Date | null = null) {
  const db = await getDb();
  const pass = await asOf(db, "prices");
  const afterPass = newest !== null && (!pass || newest > pass);
  const at = afterPass ? newest : pass;
  if (!at) return { data: [], meta: sampledMeta(null, { count: 0, limit }) };
  // Each outcome remembers its latest price change (time and previous price); the feed is those, newest first.
  const read = async () => {
    const rows = await db.$queryRawUnsafe<TickRow[]>(
      `SELECT o.market_id, m.question, o.token_id, o.name AS outcome, o.index AS outcome_index, o.price, o.previous_price,
              o.last_change_at AS t
       FROM outcomes o JOIN markets m ON m.id = o.market_id AND m.open
       WHERE o.last_change_at IS NOT NULL AND o.price IS NOT NULL
       ORDER BY o.last_change_at DESC, o.market_id, o.index
       LIMIT $1`,
      MAX_TICKS,
    );
    return rows.map((r) => ({
      market_id: r.market_id,
      question: r.question,
      token_id: r.token_id,
      outcome: r.outcome,
      outcome_index: r.outcome_index,
      price: roundProbability(r.price),
      previous_price: r.previous_price === null ? null : roundProbability(r.previous_price),
      timestamp: r.t.toISOString(),
    }));
  };
  // Per pass, the feed is an aggregate computed once; past it (the worker's ticks), a read per answer version.
  const feed = afterPass ? await read() : await oncePerPass("ticks", at, read);
  const data = feed.slice(0, limit);
  return { data, meta: sampledMeta(at, { count: data.length, limit }) };
}

interface HistoryRow {
  as_of: Date | null;
  market_id: string | null;
  question: string | null;
  outcome_id: number | null;
  outcome: string | null;
  token_id: string | null;
  price: number | null;
  priced_at: Date | null;
  /** `[[t_seconds, price], ...]` in time order, or null when the series is empty. */
  points: [number, number][] | string | null;
}

// One statement, one row: the pass's as_of, the market (by id, or by condition id: stored lower-case, so the unique
// index answers it), its first outcome, and the step series (the last point at or before the window's start, then
// every point inside it) as one JSON array. Each half of the series is a range read of price_samples' primary key
// (resolution_s, outcome_id, t). The series travels as one JSON value rather than a row per point: per-row decoding
// (a Date per timestamp) was most of a history request's CPU (README "Benchmarks"). At bench scale (11k markets x
// 31 days, 11.7 M rows, PostgreSQL 15) EXPLAIN ANALYZE of the 30-day read shows
//   -> Index Scan using price_samples_pkey on price_samples ... Index Cond: ((resolution_s = 3600) AND (outcome_id = o.id) AND (t > ...) AND (t <= ...))
// for both halves of the series, and ~0.3 ms execution for ~90 points.
const historySql = (marketColumn: "id" | "condition_id") => `
  WITH pass AS (SELECT at FROM sampler_state WHERE key = $4)
  SELECT (SELECT at FROM pass) AS as_of, m.id AS market_id, m.question, o.id AS outcome_id, o.name AS outcome, o.token_id,
         o.price, o.priced_at, series.points
  FROM (SELECT 1) AS one
  LEFT JOIN markets m ON m.${marketColumn} = $1
  LEFT JOIN LATERAL (SELECT * FROM outcomes WHERE market_id = m.id ORDER BY index LIMIT 1) o ON true
  LEFT JOIN LATERAL (SELECT coalesce(o.priced_at, (SELECT at FROM pass), now()) AS end_t) w ON true
  LEFT JOIN LATERAL (
    SELECT json_agg(json_build_array(floor(extract(epoch FROM pts.t))::bigint, pts.price) ORDER BY pts.t) AS points
    FROM (
      (SELECT ps.t, ps.price FROM price_samples ps
       WHERE ps.resolution_s = $2 AND ps.outcome_id = o.id AND ps.t <= w.end_t - make_interval(secs => $3)
       ORDER BY ps.t DESC LIMIT 1)
      UNION ALL
      (SELECT ps.t, ps.price FROM price_samples ps
       WHERE ps.resolution_s = $2 AND ps.outcome_id = o.id AND ps.t > w.end_t - make_interval(secs => $3) AND ps.t <= w.end_t)
    ) pts
  ) series ON true`;

const HISTORY_SQL = { id: historySql("id"), condition_id: historySql("condition_id") };

/** The history statement, its name as a prepared statement, and its parameters (the bench EXPLAINs exactly this). */
export function historyStatement(id: string, window: string): { name: string; sql: string; params: [string, number, number, string] } {
  const windowSeconds = WINDOW_SECONDS[window];
  const byCondition = id.startsWith("0x");
  return {
    name: byCondition ? "predmkt-history-by-condition" : "predmkt-history-by-id",
    sql: HISTORY_SQL[byCondition ? "condition_id" : "id"],
    params: [byCondition ? id.toLowerCase() : id, resolutionForWindow(windowSeconds), windowSeconds, STATE.prices],
  };
}

export async function marketHistory(id: string, window: string) {
  const { name, sql, params } = historyStatement(id, window);
  const resolution = params[1];
  // Text, int4, float8, timestamptz and json columns only: rawRows may skip the client's decoding (lib/db/client.ts).
  const [first] = await rawRows<HistoryRow>(name, sql, params);
  const at = first?.as_of ?? null;
  if (!first?.market_id)
    throw new ApiError("not_found", at ? `No market with id '${id}'.` : `No market with id '${id}' (${NOT_SAMPLED_NOTE}).`);
  if (first.outcome_id === null) throw new ApiError("not_found", `Market '${id}' has no outcomes with a CLOB token.`);
  const series = typeof first.points === "string" ? (JSON.parse(first.points) as [number, number][]) : (first.points ?? []);
  const points = series.map(([t, p]) => ({ t, p: roundProbability(p) }));
  if (first.price !== null && first.priced_at) {
    const t = Math.floor(first.priced_at.getTime() / 1000);
    if (!points.length || points[points.length - 1].t < t) points.push({ t, p: roundProbability(first.price) });
  }
  return {
    data: {
      market_id: first.market_id,
      question: first.question!,
      outcome: first.outcome!,
      token_id: first.token_id!,
      resolution_s: resolution,
      points,
    },
    meta: sampledMeta(at, { count: points.length, window }),
  };
}
