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

async function changeRows(db: Db, filter: string, params: unknown[], window: string): Promise<(Change & { volume_24h_usd: number })[]> {
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
  const out: (Change & { volume_24h_usd: number })[] = [];
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
    const rows = rankMovers(await changeRows(db, "m.open AND o.index = 0", [], window), 500);
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
