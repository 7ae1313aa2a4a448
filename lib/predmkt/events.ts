// Read services for stats, categories, event lists and event detail.
import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import type { CategorySchema, EventDetailSchema, EventSchema, StatsSchema } from "./shapes";
import { roundProbability } from "@/lib/analytics/changes";
import { roundUsd as usd } from "@/lib/analytics/money";
import { type Db, getDb } from "@/lib/db/client";
import { marketResolutions, type MarketResolutions, resolutionOfMarket } from "@/lib/resolution/market-resolutions";
import type { ResolutionStatus } from "@/lib/resolution/status";
import type { Prisma } from "@/lib/generated/prisma/client";
import { asOf, NOT_SAMPLED_NOTE, sampledMeta } from "./meta";
import { oncePerPass } from "./per-pass";

type EventRow = z.infer<typeof EventSchema>;

function eventBody(
  e: {
    id: string;
    slug: string;
    title: string;
    category: string | null;
    categoryLabel: string | null;
    volume24hUsd: number;
    volumeUsd: number;
    liquidityUsd: number;
    endDate: Date | null;
    marketCount: number;
    open: boolean;
  },
  resolutionStatuses: ResolutionStatus[] = [],
): EventRow {
  return {
    id: e.id,
    slug: e.slug,
    title: e.title,
    category: e.category,
    category_label: e.categoryLabel,
    volume_24h_usd: usd(e.volume24hUsd),
    volume_usd: usd(e.volumeUsd),
    liquidity_usd: usd(e.liquidityUsd),
    end_date: e.endDate?.toISOString() ?? null,
    market_count: e.marketCount,
    active: e.open,
    resolution_statuses: resolutionStatuses,
  };
}

/** Distinct non-`none` resolution statuses of each event's markets (the events' disputed markets, from the oracle index). */
async function statusesByEvent(db: Db, resolutions: MarketResolutions): Promise<Map<string, ResolutionStatus[]>> {
  const disputed = [...resolutions.byConditionId.keys()];
  if (!disputed.length) return new Map();
  const markets = await db.market.findMany({ where: { conditionId: { in: disputed } }, select: { eventId: true, conditionId: true } });
  const out = new Map<string, ResolutionStatus[]>();
  for (const m of markets) {
    const status = resolutionOfMarket(resolutions, m.conditionId).status;
    const list = out.get(m.eventId) ?? [];
    if (!list.includes(status)) list.push(status);
    out.set(m.eventId, list);
  }
  return out;
}

export async function getStats() {
  const db = await getDb();
  const at = await asOf(db, "events");
  const zero: z.infer<typeof StatsSchema> = {
    active_events: 0,
    active_markets: 0,
    volume_24h_usd: 0,
    volume_usd: 0,
    liquidity_usd: 0,
    categories: 0,
  };
  if (!at) return { data: zero, meta: sampledMeta(null) };
  const data = await oncePerPass("stats", at, async () => {
    const [events] = await db.$queryRawUnsafe<{ n: number; v24: number | null; v: number | null; l: number | null; c: number }[]>(
      `SELECT count(*)::int AS n, sum(volume_24h_usd) AS v24, sum(volume_usd) AS v, sum(liquidity_usd) AS l,
              count(DISTINCT category)::int AS c
       FROM events WHERE open`,
    );
    const markets = await db.market.count({ where: { open: true } });
    return {
      active_events: events.n,
      active_markets: markets,
      volume_24h_usd: usd(events.v24 ?? 0),
      volume_usd: usd(events.v ?? 0),
      liquidity_usd: usd(events.l ?? 0),
      categories: events.c,
    };
  });
  return {
    data,
    meta: sampledMeta(at),
  };
}

export async function listCategories() {
  const db = await getDb();
  const at = await asOf(db, "events");
  if (!at) return { data: [], meta: sampledMeta(null, { count: 0 }) };
  const data = await oncePerPass("categories", at, async () => {
    const rows = await db.$queryRawUnsafe<{ slug: string; label: string | null; n: number; v24: number; l: number }[]>(
      `SELECT category AS slug, max(category_label) AS label, count(*)::int AS n,
              coalesce(sum(volume_24h_usd), 0) AS v24, coalesce(sum(liquidity_usd), 0) AS l
       FROM events WHERE open AND category IS NOT NULL
       GROUP BY category ORDER BY v24 DESC, category ASC`,
    );
    return rows.map((r): z.infer<typeof CategorySchema> => ({
      slug: r.slug,
      label: r.label ?? r.slug,
      event_count: r.n,
      volume_24h_usd: usd(r.v24),
      liquidity_usd: usd(r.l),
    }));
  });
  return { data, meta: sampledMeta(at, { count: data.length }) };
}

const ORDER_COLUMN = { volume24hr: "volume24hUsd", volume: "volumeUsd", liquidity: "liquidityUsd" } as const;

export async function listEvents(query: {
  category?: string;
  order: keyof typeof ORDER_COLUMN;
  q?: string;
  resolution?: ResolutionStatus;
  limit: number;
  offset: number;
}) {
  const db = await getDb();
  const at = await asOf(db, "events");
  const page = { limit: query.limit, offset: query.offset };
  if (!at) return { data: [], meta: sampledMeta(null, { ...page, total: 0, count: 0 }) };
  const resolutions = await marketResolutions();
  const statuses = await statusesByEvent(db, resolutions);
  const withStatus = (status: ResolutionStatus) => [...statuses].filter(([, list]) => list.includes(status)).map(([id]) => id);
  const where: Prisma.EventWhereInput = {
    open: true,
    // `none`: no market of the event is in dispute; any other status: at least one market has it.
    ...(query.resolution === "none"
      ? { id: { notIn: [...statuses.keys()] } }
      : query.resolution
        ? { id: { in: withStatus(query.resolution) } }
        : {}),
    ...(query.category ? { category: query.category } : {}),
    // Prisma hands `contains` to ILIKE unescaped: a user's % or _ must match itself, not act as a wildcard.
    ...(query.q ? { title: { contains: query.q.replace(/[\\%_]/g, "\\$&"), mode: "insensitive" } } : {}),
  };
  const [total, rows] = await Promise.all([
    db.event.count({ where }),
    db.event.findMany({
      where,
      orderBy: [{ [ORDER_COLUMN[query.order]]: "desc" }, { id: "asc" }],
      skip: query.offset,
      take: query.limit,
    }),
  ]);
  return {
    data: rows.map((row) => eventBody(row, statuses.get(row.id) ?? [])),
    meta: sampledMeta(at, { ...page, total, count: rows.length, resolution_known: resolutions.known }),
  };
}

export async function getEvent(slug: string) {
  const db = await getDb();
  const at = await asOf(db, "events");
  const event = await db.event.findUnique({ where: { slug } });
  if (!event) throw new ApiError("not_found", at ? `No event with slug '${slug}'.` : `No event with slug '${slug}' (${NOT_SAMPLED_NOTE}).`);
  const markets = await db.market.findMany({ where: { eventId: event.id }, orderBy: [{ position: "asc" }, { id: "asc" }] });
  const outcomes = await db.outcome.findMany({ where: { marketId: { in: markets.map((m) => m.id) } }, orderBy: { index: "asc" } });
  const byMarket = new Map<string, typeof outcomes>();
  for (const o of outcomes) byMarket.set(o.marketId, [...(byMarket.get(o.marketId) ?? []), o]);
  const resolutions = await marketResolutions();
  const eventStatuses = [...new Set(markets.map((m) => resolutionOfMarket(resolutions, m.conditionId).status))].filter((s) => s !== "none");
  const data: z.infer<typeof EventDetailSchema> = {
    ...eventBody(event, eventStatuses),
    markets: markets.map((m) => ({
      id: m.id,
      condition_id: m.conditionId,
      slug: m.slug,
      question: m.question,
      active: m.open,
      closed: m.closed,
      volume_24h_usd: usd(m.volume24hUsd),
      volume_usd: usd(m.volumeUsd),
      liquidity_usd: usd(m.liquidityUsd),
      end_date: m.endDate?.toISOString() ?? null,
      outcomes: (byMarket.get(m.id) ?? []).map((o) => ({
        index: o.index,
        name: o.name,
        token_id: o.tokenId,
        probability: o.price === null ? null : roundProbability(o.price),
      })),
      resolution: resolutionOfMarket(resolutions, m.conditionId),
    })),
  };
  return { data, meta: sampledMeta(at ?? event.seenAt, { count: markets.length, resolution_known: resolutions.known }) };
}
