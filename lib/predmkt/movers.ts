// Read services for probability changes (one event) and movers (all open markets): the sample at or before each
// outcome's window start is fetched by one index seek per outcome, and the pure analytics decide.
import type { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import type { ChangeSchema } from "./shapes";
import { changeOverWindow, roundProbability } from "@/lib/analytics/changes";
import { roundUsd } from "@/lib/analytics/money";
import { rankMovers } from "@/lib/analytics/movers";
import { type Db, getDb } from "@/lib/db/client";
import { STORAGE_TIERS } from "@/lib/sampled/tiers";
import { asOf, NOT_SAMPLED_NOTE, sampledMeta } from "./meta";
import { WINDOW_SECONDS } from "./windows";
import { oncePerPass } from "./per-pass";
import { moverContexts } from "@/lib/resolution/move-context";

type Change = z.infer<typeof ChangeSchema>;

/**
 * The finest storage tier that still holds a sample a day older than the window's start: windows up to a day read raw
 * samples (kept 48 h), a week the 15-minute rollups (8 d), longer ones the hourly rollups (31 d).
 */
export function resolutionForWindow(windowSeconds: number): number {
  const tier = STORAGE_TIERS.find((t) => t.retentionS >= windowSeconds + 86_400) ?? STORAGE_TIERS[STORAGE_TIERS.length - 1];
  return tier.resolutionS;
}

interface Row {
  token_id: string;
  market_id: string;
  index: number;
  name: string;
  price: number;
  priced_at: Date;
  first_sampled_at: Date | null;
  question: string;
  event_slug: string;
  volume_24h_usd: number;
  then_t: Date;
  then_p: number;
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

type MoverChange = Change & { volume_24h_usd: number };

async function changeRows(db: Db, filter: string, params: unknown[], window: string): Promise<MoverChange[]> {
  const windowSeconds = WINDOW_SECONDS[window];
  const rows = await db.$queryRawUnsafe<Row[]>(
    `SELECT o.token_id, o.market_id, o.index, o.name, o.price, o.priced_at, o.first_sampled_at,
            m.question, m.event_slug, m.volume_24h_usd, s.t AS then_t, s.price AS then_p
     FROM outcomes o
     JOIN markets m ON m.id = o.market_id
     JOIN LATERAL (
       SELECT ps.t, ps.price FROM price_samples ps
       WHERE ps.resolution_s = $1 AND ps.outcome_id = o.id AND ps.t <= o.priced_at - make_interval(secs => $2)
       ORDER BY ps.t DESC LIMIT 1) s ON true
     WHERE o.price IS NOT NULL AND ${filter}
     ORDER BY m.position, m.id, o.index`,
    resolutionForWindow(windowSeconds),
    windowSeconds,
    ...params,
  );
  const out: MoverChange[] = [];
  for (const r of rows) {
    const now = { t: seconds(r.priced_at), p: r.price };
    const result = changeOverWindow([{ t: seconds(r.then_t), p: r.then_p }, now], now.t, windowSeconds, {
      firstSampledAt: r.first_sampled_at ? seconds(r.first_sampled_at) : null,
    });
    if (!result) continue;
    out.push({
      market_id: r.market_id,
      question: r.question,
      event_slug: r.event_slug,
      outcome: r.name,
      outcome_index: r.index,
      token_id: r.token_id,
      probability_now: roundProbability(result.now.p),
      probability_then: roundProbability(result.then.p),
      change: result.change,
      window,
      then_at: r.then_t.toISOString(),
      volume_24h_usd: roundUsd(r.volume_24h_usd),
    });
  }
  return out;
}

/** What ranking needs of an open market's first outcome: numbers and the market id, no texts and no Date objects. */
interface ScanRow {
  outcome_id: number;
  market_id: string;
  price: number;
  now_s: number;
  first_s: number | null;
  volume_24h_usd: number;
  then_ms: number;
  then_p: number;
}

interface Candidate {
  outcome_id: number;
  market_id: string;
  change: number;
  volume_24h_usd: number;
  now_p: number;
  then_p: number;
  then_ms: number;
}

/** Open markets read per statement while ranking movers. */
const MOVERS_PAGE = 1_000;
/** The movers kept per window (the endpoint's largest `limit`). */
const MAX_MOVERS = 500;

/**
 * The best movers among every open market (first outcome), exactly as `rankMovers` over changeRows' rows ranks them,
 * without ever holding every open market (docs/upstream-behaviours.md "Listing pages in bounded memory"): markets
 * are scanned a keyset page at a time by id, each row only the numbers the change needs (times as whole seconds and
 * milliseconds, as changeRows' Dates give them), and only the best `keep` are kept between pages — the ranking is a
 * total order (|change|, volume, market id), so the best of each page's union with the best so far is exactly the
 * best of all. The texts of those few are read last.
 */
export async function topMovers(db: Db, window: string, keep = MAX_MOVERS, pageSize = MOVERS_PAGE): Promise<MoverChange[]> {
  const windowSeconds = WINDOW_SECONDS[window];
  let best: Candidate[] = [];
  for (let afterMarketId = ""; ;) {
    const rows = await db.$queryRawUnsafe<ScanRow[]>(
      `SELECT o.id AS outcome_id, o.market_id, o.price, floor(extract(epoch FROM o.priced_at))::float8 AS now_s,
              floor(extract(epoch FROM o.first_sampled_at))::float8 AS first_s, m.volume_24h_usd,
              (extract(epoch FROM s.t) * 1000)::float8 AS then_ms, s.price AS then_p
       FROM outcomes o
       JOIN markets m ON m.id = o.market_id
       JOIN LATERAL (
         SELECT ps.t, ps.price FROM price_samples ps
         WHERE ps.resolution_s = $1 AND ps.outcome_id = o.id AND ps.t <= o.priced_at - make_interval(secs => $2)
         ORDER BY ps.t DESC LIMIT 1) s ON true
       WHERE o.price IS NOT NULL AND m.open AND o.index = 0 AND m.id > $3
       ORDER BY m.id LIMIT $4`,
      resolutionForWindow(windowSeconds),
      windowSeconds,
      afterMarketId,
      pageSize,
    );
    const page: Candidate[] = [];
    for (const r of rows) {
      const now = { t: r.now_s, p: r.price };
      const result = changeOverWindow([{ t: Math.floor(r.then_ms / 1000), p: r.then_p }, now], now.t, windowSeconds, {
        firstSampledAt: r.first_s,
      });
      if (!result) continue;
      page.push({
        outcome_id: r.outcome_id,
        market_id: r.market_id,
        change: result.change,
        volume_24h_usd: roundUsd(r.volume_24h_usd),
        now_p: result.now.p,
        then_p: result.then.p,
        then_ms: r.then_ms,
      });
    }
    best = rankMovers([...best, ...page], keep);
    if (rows.length < pageSize) break;
    afterMarketId = rows[rows.length - 1].market_id;
  }
  if (!best.length) return [];
  const texts = await db.$queryRawUnsafe<
    { id: number; token_id: string; index: number; name: string; question: string; event_slug: string }[]
  >(
    `SELECT o.id, o.token_id, o.index, o.name, m.question, m.event_slug
     FROM outcomes o JOIN markets m ON m.id = o.market_id WHERE o.id = ANY($1::int[])`,
    best.map((c) => c.outcome_id),
  );
  const byOutcome = new Map(texts.map((t) => [t.id, t]));
  // An outcome removed between the two reads is left out, not invented.
  return best.flatMap((c) => {
    const t = byOutcome.get(c.outcome_id);
    if (!t) return [];
    return [
      {
        market_id: c.market_id,
        question: t.question,
        event_slug: t.event_slug,
        outcome: t.name,
        outcome_index: t.index,
        token_id: t.token_id,
        probability_now: roundProbability(c.now_p),
        probability_then: roundProbability(c.then_p),
        change: c.change,
        window,
        then_at: new Date(c.then_ms).toISOString(),
        volume_24h_usd: c.volume_24h_usd,
      },
    ];
  });
}

export async function eventChanges(slug: string, window: string) {
  const db = await getDb();
  const at = await asOf(db, "prices");
  const event = await db.event.findUnique({ where: { slug }, select: { id: true } });
  if (!event) throw new ApiError("not_found", at ? `No event with slug '${slug}'.` : `No event with slug '${slug}' (${NOT_SAMPLED_NOTE}).`);
  if (!at) return { data: [], meta: sampledMeta(null, { count: 0, window }) };
  const rows = await changeRows(db, "m.event_id = $3", [event.id], window);
  const data = rows.map(({ volume_24h_usd: _, ...change }) => change);
  return { data, meta: sampledMeta(at, { count: data.length, window }) };
}

export async function movers(window: string, limit: number, excludeResolution = false) {
  const db = await getDb();
  const at = await asOf(db, "prices");
  if (!at) return { data: [], meta: sampledMeta(null, { count: 0, limit, window, exclude_resolution: excludeResolution }) };
  const ranked = await oncePerPass(`movers|${window}`, at, async () => {
    const rows = await topMovers(db, window);
    // A move right after a proposal or a dispute of its market is marked (docs/resolution.md), not dropped.
    const contexts = await moverContexts(db, rows, Math.floor(at.getTime() / 1000));
    return rows.map((row, i) => ({ ...row, resolution_context: contexts[i] }));
  });
  const data = (excludeResolution ? ranked.filter((r) => r.resolution_context === null) : ranked).slice(0, limit);
  return { data, meta: sampledMeta(at, { count: data.length, limit, window, exclude_resolution: excludeResolution }) };
}

/**
 * Each given market's move over `window` as a /movers item (first outcome, as /movers ranks them), for the alerts'
 * `move` rule (docs/alerts.md#rules). Markets without a sample at the window's start are absent.
 */
export async function marketMoves(db: Db, marketIds: string[], window: string, at: Date) {
  if (!marketIds.length) return [];
  const rows = await changeRows(db, "o.index = 0 AND m.id = ANY($3::text[])", [marketIds], window);
  const contexts = await moverContexts(db, rows, Math.floor(at.getTime() / 1000));
  return rows.map((row, i) => ({ ...row, resolution_context: contexts[i] }));
}
