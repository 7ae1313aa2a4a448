// Gamma API client: events (keyset paging), event by slug, markets by id or condition id, tags, search.
import { z } from "zod";
import { CONDITION_ID_PATTERN } from "@/lib/api/schemas";
import { cachedLoad } from "./cache";
import { fetchUpstream } from "./http";
import { EventListSchema, EventSchema, EventsKeysetSchema, MarketListSchema, MarketSchema, SearchSchema, TagListSchema } from "./schemas";
import type { EventsPage, NormalizedEvent, NormalizedMarket, NormalizedTag, SearchResult, UpstreamCallOptions } from "./types";

/**
 * Event and market metadata (titles, outcomes, token ids) changes rarely; live endpoints resolve a slug or id through
 * it on every cache miss, so it is cached briefly on its own. `fresh: true` bypasses this (the sampler).
 */
export const METADATA_TTL_S = 30;

export interface ListEventsParams {
  /** `next_cursor` of the previous page; omit for the first page. */
  cursor?: string | null;
  /** Page size, 1..500 (Gamma's keyset cap). Default 100. */
  limit?: number;
  /** Default true / false / false: open events only. Pass null to leave a filter out. */
  active?: boolean | null;
  closed?: boolean | null;
  archived?: boolean | null;
  /** camelCase Gamma field (`volume24hr`, `volume`, `liquidity`, `id`, ...). */
  order?: string;
  ascending?: boolean;
  tagId?: string;
}

function openFilters(params: { active?: boolean | null; closed?: boolean | null; archived?: boolean | null }) {
  return {
    active: params.active === undefined ? true : params.active,
    closed: params.closed === undefined ? false : params.closed,
    archived: params.archived === undefined ? false : params.archived,
  };
}

/**
 * One page of `/events/keyset` (`after_cursor` paging; Gamma ignores `cursor`/`offset` there). `next_cursor` is null
 * on the last page, and also when Gamma hands back the cursor it was given (a known upstream bug that would
 * otherwise loop forever).
 */
export async function listEventsPage(params: ListEventsParams = {}, options: UpstreamCallOptions = {}): Promise<EventsPage> {
  const limit = Math.min(500, Math.max(1, params.limit ?? 100));
  const body = await fetchUpstream(
    {
      host: "gamma",
      path: "/events/keyset",
      query: {
        limit,
        after_cursor: params.cursor ?? undefined,
        ...openFilters(params),
        order: params.order,
        ascending: params.order ? (params.ascending ?? false) : undefined,
        tag_id: params.tagId,
      },
    },
    EventsKeysetSchema,
    { deadline: options.deadline },
  );
  const next = body!.next_cursor;
  return { events: body!.events, next_cursor: next && next !== params.cursor && body!.events.length > 0 ? next : null };
}

/**
 * Every event matching the filters, page by page (deduplicated by id: a cursor that repeats a page is not trusted).
 * Stops after `maxPages` as a guard against an upstream that never ends.
 */
export async function* iterateEvents(
  params: Omit<ListEventsParams, "cursor"> = {},
  options: UpstreamCallOptions & { maxPages?: number } = {},
): AsyncGenerator<NormalizedEvent[]> {
  const seen = new Set<string>();
  let cursor: string | null = null;
  for (let page = 0; page < (options.maxPages ?? 1_000); page++) {
    const result: EventsPage = await listEventsPage({ ...params, cursor }, { ...options, deadline: undefined });
    const fresh = result.events.filter((e) => !seen.has(e.id));
    for (const e of fresh) seen.add(e.id);
    if (fresh.length) yield fresh;
    if (!result.next_cursor || fresh.length === 0) return;
    cursor = result.next_cursor;
  }
}

/** Legacy offset list (`/events`, bare array). Gamma rejects offsets beyond ~2000: prefer listEventsPage. */
export async function listEvents(
  params: { limit?: number; offset?: number; order?: string; ascending?: boolean; active?: boolean | null; closed?: boolean | null; archived?: boolean | null; tagSlug?: string } = {},
  options: UpstreamCallOptions = {},
): Promise<NormalizedEvent[]> {
  const body = await fetchUpstream(
    {
      host: "gamma",
      path: "/events",
      query: {
        limit: params.limit ?? 100,
        offset: params.offset ?? 0,
        ...openFilters(params),
        order: params.order,
        ascending: params.order ? (params.ascending ?? false) : undefined,
        tag_slug: params.tagSlug,
      },
    },
    EventListSchema,
    { deadline: options.deadline },
  );
  return body!;
}

async function metadata<T>(key: string, options: UpstreamCallOptions, load: () => Promise<T>): Promise<T> {
  if (options.fresh) return load();
  return (await cachedLoad(`gamma:${key}`, { ttlS: METADATA_TTL_S, deadline: options.deadline }, load)).value;
}

// `/events/slug/{slug}` answers one object; the `/events?slug=` form answers a 0/1-element array. Accept both.
const EventBySlugSchema = z.union([EventSchema, EventListSchema.transform((events) => events[0] ?? null)]);

/** One event with all its markets, or null when Gamma does not know the slug. */
export async function getEventBySlug(slug: string, options: UpstreamCallOptions = {}): Promise<NormalizedEvent | null> {
  return metadata(`event:${slug}`, options, async () =>
    fetchUpstream({ host: "gamma", path: `/events/slug/${encodeURIComponent(slug)}` }, EventBySlugSchema, {
      deadline: options.deadline,
      allowNotFound: true,
    }),
  );
}

/** One market by Gamma id (digits) or condition id (`0x` + 64 hex); null when unknown. */
export async function getMarket(idOrConditionId: string, options: UpstreamCallOptions = {}): Promise<NormalizedMarket | null> {
  if (CONDITION_ID_PATTERN.test(idOrConditionId)) {
    const conditionId = idOrConditionId.toLowerCase();
    return metadata(`market:${conditionId}`, options, async () => {
      const markets = await getMarketsByConditionIds([conditionId], options);
      return markets.find((m) => m.condition_id?.toLowerCase() === conditionId) ?? null;
    });
  }
  if (!/^\d+$/.test(idOrConditionId)) return null;
  return metadata(`market:${idOrConditionId}`, options, async () =>
    fetchUpstream({ host: "gamma", path: `/markets/${idOrConditionId}` }, MarketSchema, { deadline: options.deadline, allowNotFound: true }),
  );
}

/** Markets for several condition ids in one call (`/markets?condition_ids=...` repeated). Unknown ids are simply absent. */
export async function getMarketsByConditionIds(conditionIds: string[], options: UpstreamCallOptions = {}): Promise<NormalizedMarket[]> {
  if (conditionIds.length === 0) return [];
  const body = await fetchUpstream(
    { host: "gamma", path: "/markets", query: { condition_ids: conditionIds, limit: conditionIds.length } },
    MarketListSchema,
    { deadline: options.deadline },
  );
  return body!;
}

export async function listTags(params: { limit?: number; offset?: number } = {}, options: UpstreamCallOptions = {}): Promise<NormalizedTag[]> {
  const body = await fetchUpstream(
    { host: "gamma", path: "/tags", query: { limit: params.limit ?? 100, offset: params.offset ?? 0 } },
    TagListSchema,
    { deadline: options.deadline },
  );
  return body!;
}

/** `/public-search`: events whose text matches `q`. */
export async function search(
  q: string,
  params: { limitPerType?: number; page?: number; eventsStatus?: "active" | "closed" } = {},
  options: UpstreamCallOptions = {},
): Promise<SearchResult> {
  const body = await fetchUpstream(
    {
      host: "gamma",
      path: "/public-search",
      query: { q, limit_per_type: params.limitPerType ?? 20, page: params.page, events_status: params.eventsStatus },
    },
    SearchSchema,
    { deadline: options.deadline },
  );
  return {
    events: body!.events,
    has_more: body!.pagination?.hasMore ?? false,
    total: body!.pagination?.totalResults ?? null,
  };
}
