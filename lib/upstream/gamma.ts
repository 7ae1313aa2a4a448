// Gamma API client: events (keyset paging), event by slug, market by id or condition id (open or closed).
import { cachedLoad } from "./cache";
import { reportDropped } from "./dropped";
import { type BodyParser, fetchUpstream } from "./http";
import { CONDITION_ID_PATTERN, conditionIdForms, MARKET_ID_PATTERN, sameCondition } from "./ids";
import { ListObjectReader } from "./json-list";
import {
  EventBySlugSchema,
  EventsKeysetSchema,
  GammaMarketSchema,
  MarketsKeysetSchema,
  ParsedEvents,
  parseEvent,
  parseMarkets,
} from "./schemas";
import type { DroppedItem } from "./schemas/scalars";
import type { EventsPage, NormalizedEvent, NormalizedMarket, UpstreamCallOptions } from "./types";

/**
 * Event and market metadata (titles, outcomes, token ids) changes rarely; live endpoints resolve a slug or id through
 * it on every cache miss, so it is cached briefly on its own.
 */
export const METADATA_TTL_S = 30;

/** Page size caps of the keyset lists (events: docs' `limit` 1..500; markets: 100, nautilus_trader's Gamma client). */
export const EVENTS_KEYSET_MAX = 500;
export const MARKETS_KEYSET_MAX = 100;

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

/**
 * An events list read item by item as its bytes arrive: each event is parsed and validated as soon as it is complete,
 * so a page never exists as text or as a whole parsed tree (docs/upstream-behaviours.md "Listing pages in bounded
 * memory"). An `events` member that is not a list goes on as it is, for the schema to refuse.
 */
const eventsItemByItem: BodyParser = {
  name: "events item by item",
  read() {
    const reader = new ListObjectReader("events", parseEvent);
    return {
      push: (chunk) => reader.push(chunk),
      end() {
        const read = reader.end();
        if ("text" in read) return read;
        if ("notAList" in read) return { parsed: { ...read.members, events: read.notAList } };
        const items: NormalizedEvent[] = [];
        const dropped: DroppedItem[] = [];
        for (const one of read.items ?? []) {
          if (one.event) items.push(one.event);
          dropped.push(...one.dropped);
        }
        return { parsed: { ...read.members, events: new ParsedEvents(items, dropped, read.items?.length ?? 0) } };
      },
    };
  },
};

/**
 * One page of `/events/keyset` (`after_cursor` paging; Gamma ignores `cursor`/`offset` there). `next_cursor` is null
 * on the last page, and also when Gamma hands back the cursor it was given (a known upstream bug that would
 * otherwise loop forever). Events and markets that cannot be parsed are dropped from the page and reported.
 */
export async function listEventsPage(params: ListEventsParams = {}, options: UpstreamCallOptions = {}): Promise<EventsPage> {
  const limit = Math.min(EVENTS_KEYSET_MAX, Math.max(1, params.limit ?? 100));
  const body = await fetchUpstream(
    {
      host: "gamma",
      path: "/events/keyset",
      query: {
        limit,
        after_cursor: params.cursor ?? undefined,
        active: params.active === undefined ? true : params.active,
        closed: params.closed === undefined ? false : params.closed,
        archived: params.archived === undefined ? false : params.archived,
        order: params.order,
        ascending: params.order ? (params.ascending ?? false) : undefined,
        tag_id: params.tagId,
      },
    },
    EventsKeysetSchema,
    { deadline: options.deadline, parseBody: eventsItemByItem },
  );
  const parsed = body!.events;
  const dropped = reportDropped(parsed.dropped, "gamma /events/keyset");
  const next = body!.next_cursor;
  const advanced = next && next !== params.cursor && parsed.listed > 0;
  return { events: parsed.items, next_cursor: advanced ? next : null, dropped };
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
    const result: EventsPage = await listEventsPage({ ...params, cursor }, { deadline: options.deadline });
    const fresh = result.events.filter((e) => !seen.has(e.id));
    for (const e of fresh) seen.add(e.id);
    if (fresh.length) yield fresh;
    if (!result.next_cursor || fresh.length === 0) return;
    cursor = result.next_cursor;
  }
}

async function metadata<T>(key: string, options: UpstreamCallOptions, load: () => Promise<T>): Promise<T> {
  return (await cachedLoad(`gamma:${key}`, { ttlS: METADATA_TTL_S, deadline: options.deadline }, load)).value;
}

/** One event with all its markets (open or closed), or null when Gamma does not know the slug. */
export async function getEventBySlug(slug: string, options: UpstreamCallOptions = {}): Promise<NormalizedEvent | null> {
  return metadata(`event:${slug}`, options, async () => {
    const parsed = await fetchUpstream({ host: "gamma", path: `/events/slug/${encodeURIComponent(slug)}` }, EventBySlugSchema, {
      deadline: options.deadline,
      allowNotFound: true,
    });
    if (!parsed) return null;
    reportDropped(parsed.dropped, "gamma /events/slug");
    return parsed.items[0] ?? null;
  });
}

/**
 * Markets for many condition ids (V1 or V2 spellings), open or closed; unknown ids are simply absent. Gamma's market
 * lists leave closed markets out when `closed` is not sent (polyoxide-gamma `ListMarkets` docs: "implicit
 * closed=false default"), so each chunk is asked for open markets, then closed ones for the ids still missing. The
 * keyset list replaces the deprecated `/markets` (Sunset 2026-05-01); it takes at most 100 ids per request
 * (nautilus_trader's Gamma client).
 */
export async function getMarketsByConditionIds(
  conditionIds: readonly string[],
  options: UpstreamCallOptions = {},
): Promise<NormalizedMarket[]> {
  const found: NormalizedMarket[] = [];
  let missing = [...new Set(conditionIds.map((c) => c.toLowerCase()))];
  for (const closed of [false, true]) {
    for (let i = 0; i < missing.length; i += MARKETS_KEYSET_MAX / 2) {
      // Both spellings of each id go in one request: at most 100 values.
      const chunk = missing.slice(i, i + MARKETS_KEYSET_MAX / 2);
      const body = await fetchUpstream(
        {
          host: "gamma",
          path: "/markets/keyset",
          query: { condition_ids: chunk.flatMap(conditionIdForms).slice(0, MARKETS_KEYSET_MAX), closed, limit: MARKETS_KEYSET_MAX },
        },
        MarketsKeysetSchema,
        { deadline: options.deadline },
      );
      const parsed = parseMarkets(body!.markets);
      reportDropped(parsed.dropped, "gamma /markets/keyset");
      found.push(...parsed.items.filter((m) => chunk.some((c) => sameCondition(c, m.condition_id))));
    }
    missing = missing.filter((c) => !found.some((m) => sameCondition(c, m.condition_id)));
    if (missing.length === 0) break;
  }
  return found;
}

/** One market by Gamma id (digits) or condition id (V1 or V2 form), open or closed; null when unknown. */
export async function getMarket(idOrConditionId: string, options: UpstreamCallOptions = {}): Promise<NormalizedMarket | null> {
  if (CONDITION_ID_PATTERN.test(idOrConditionId)) {
    const conditionId = idOrConditionId.toLowerCase();
    return metadata(`market:${conditionId}`, options, async () => (await getMarketsByConditionIds([conditionId], options))[0] ?? null);
  }
  if (!MARKET_ID_PATTERN.test(idOrConditionId)) return null;
  return metadata(`market:${idOrConditionId}`, options, async () =>
    fetchUpstream({ host: "gamma", path: `/markets/${idOrConditionId}` }, GammaMarketSchema, {
      deadline: options.deadline,
      allowNotFound: true,
    }),
  );
}
