// Gamma (gamma-api.polymarket.com) bodies → our normalised events and markets. Lists are parsed item by item
// (scalars.ts `parseEach`): a market that cannot be used is dropped from its event, an event from its page.
import { z } from "zod";
import { CONDITION_ID_PATTERN } from "../ids";
import type { NormalizedEvent, NormalizedMarket, NormalizedTag, ProtocolVersion } from "../types";
import {
  DECIMAL_ID,
  type DroppedItem,
  idString,
  jsonStringArray,
  optionalBoolean,
  optionalDate,
  optionalNumber,
  optionalString,
  type Parsed,
  parseEach,
  rawList,
  toNumber,
} from "./scalars";

const TagSchema = z
  .object({ id: idString, slug: z.string().nullable().optional(), label: z.string().nullable().optional() })
  .transform((t): NormalizedTag => ({ id: t.id, slug: t.slug ?? "", label: t.label ?? t.slug ?? "" }));

const EventRefSchema = z.object({ id: idString.optional(), slug: z.string().optional() });

const RawMarketSchema = z.object({
  id: idString,
  conditionId: optionalString.refine((v) => v === null || CONDITION_ID_PATTERN.test(v), "conditionId must be 0x + 62 or 64 hex"),
  slug: optionalString,
  question: z.string().nullable().optional(),
  groupItemTitle: optionalString,
  active: optionalBoolean,
  closed: optionalBoolean,
  archived: optionalBoolean,
  acceptingOrders: optionalBoolean,
  outcomes: jsonStringArray("text"),
  outcomePrices: jsonStringArray("text"),
  // V1 (CTF) outcome ids, a JSON-encoded array; V2 outcome ids, an array (docs) or a JSON-encoded array (ts-sdk tests).
  clobTokenIds: jsonStringArray("token"),
  positionIds: jsonStringArray("token"),
  version: z.string().nullable().optional(),
  volume: optionalNumber,
  volumeNum: optionalNumber,
  volume24hr: optionalNumber,
  liquidity: optionalNumber,
  liquidityNum: optionalNumber,
  bestBid: optionalNumber,
  bestAsk: optionalNumber,
  spread: optionalNumber,
  lastTradePrice: optionalNumber,
  oneHourPriceChange: optionalNumber,
  oneDayPriceChange: optionalNumber,
  oneWeekPriceChange: optionalNumber,
  oneMonthPriceChange: optionalNumber,
  startDate: optionalDate,
  endDate: optionalDate,
  negRisk: optionalBoolean,
  umaResolutionStatus: optionalString,
  questionID: optionalString,
  negRiskRequestID: optionalString,
  events: z.array(EventRefSchema).nullable().optional(),
});

type RawMarket = z.output<typeof RawMarketSchema>;

/** A bytes32 id as lower-case hex; Gamma sends "" for a market without one (a standard market's negRiskRequestID). */
const hexIdOrNull = (value: string | null | undefined) => (value && /^0x[0-9a-fA-F]{64}$/.test(value) ? value.toLowerCase() : null);

/**
 * The outcome ids to trade, price and look up holders by. Polymarket's V2 migration guide
 * (docs.polymarket.com/migrate/polymarket-v2/api-integrations): choose by `version`, even when both fields are
 * present — `"v2"` → `positionIds`, `"v1"` → `clobTokenIds`. Markets from before the field existed carry no
 * `version` and are CTF markets (`clobTokenIds`). Any other version is one we cannot read safely: no ids.
 */
function outcomeIds(m: RawMarket): { version: ProtocolVersion | null; ids: string[] } | { error: string } {
  const version = m.version?.toLowerCase() ?? null;
  if (version === "v2") return { version: "v2", ids: m.positionIds };
  if (version === "v1") return { version: "v1", ids: m.clobTokenIds };
  if (version === null) return { version: null, ids: m.clobTokenIds.length ? m.clobTokenIds : m.positionIds };
  return { error: `unsupported market version ${JSON.stringify(m.version)}` };
}

export const GammaMarketSchema = RawMarketSchema.transform((m, ctx): NormalizedMarket => {
  const picked = outcomeIds(m);
  if ("error" in picked) {
    ctx.addIssue({ code: "custom", message: picked.error, path: ["version"] });
    return z.NEVER;
  }
  for (const id of picked.ids) {
    if (!DECIMAL_ID.test(id)) {
      ctx.addIssue({
        code: "custom",
        message: `outcome id is not a decimal id: ${id}`,
        path: [picked.version === "v2" ? "positionIds" : "clobTokenIds"],
      });
      return z.NEVER;
    }
  }
  const names = m.outcomes.length ? m.outcomes : picked.ids.map((_, i) => `Outcome ${i + 1}`);
  return {
    id: m.id,
    condition_id: m.conditionId,
    protocol_version: picked.version,
    slug: m.slug,
    question: m.question ?? m.groupItemTitle ?? m.slug ?? m.id,
    group_item_title: m.groupItemTitle,
    active: m.active ?? false,
    closed: m.closed ?? false,
    archived: m.archived ?? false,
    accepting_orders: m.acceptingOrders,
    // Market-level `volume`/`liquidity` are strings; the `*Num` twins are numbers. Prefer the numbers.
    volume_usd: m.volumeNum ?? m.volume ?? 0,
    volume_24h_usd: m.volume24hr ?? 0,
    liquidity_usd: m.liquidityNum ?? m.liquidity ?? 0,
    best_bid: m.bestBid,
    best_ask: m.bestAsk,
    spread: m.spread,
    last_trade_price: m.lastTradePrice,
    one_hour_price_change: m.oneHourPriceChange,
    one_day_price_change: m.oneDayPriceChange,
    one_week_price_change: m.oneWeekPriceChange,
    one_month_price_change: m.oneMonthPriceChange,
    start_date: m.startDate,
    end_date: m.endDate,
    neg_risk: m.negRisk ?? false,
    uma_resolution_status: m.umaResolutionStatus,
    question_id: hexIdOrNull(m.questionID),
    neg_risk_request_id: hexIdOrNull(m.negRiskRequestID),
    event_slug: m.events?.[0]?.slug ?? null,
    event_id: m.events?.[0]?.id ?? null,
    outcomes: names.map((name, index) => ({
      index,
      name,
      token_id: picked.ids[index] ?? null,
      price: toNumber(m.outcomePrices[index]),
    })),
  };
});

const RawEventSchema = z.object({
  id: idString,
  slug: z.string().min(1),
  title: z.string().nullable().optional(),
  description: optionalString,
  active: optionalBoolean,
  closed: optionalBoolean,
  archived: optionalBoolean,
  volume: optionalNumber,
  volume24hr: optionalNumber,
  volume1wk: optionalNumber,
  liquidity: optionalNumber,
  openInterest: optionalNumber,
  startDate: optionalDate,
  endDate: optionalDate,
  negRisk: optionalBoolean,
  category: optionalString,
  image: optionalString,
  tags: rawList,
  markets: rawList,
});

const MARKET_ID_KEYS = ["id", "conditionId", "slug"] as const;
const EVENT_ID_KEYS = ["id", "slug"] as const;

/** One event with its markets; markets that cannot be used are dropped and reported, not the event. */
function normalizeEvent(e: z.output<typeof RawEventSchema>): { event: NormalizedEvent; dropped: DroppedItem[] } {
  const markets = parseEach(e.markets, GammaMarketSchema, "market", MARKET_ID_KEYS);
  const tags = parseEach(e.tags, TagSchema, "tag", ["id"]);
  const active = e.active ?? false;
  const closed = e.closed ?? false;
  const archived = e.archived ?? false;
  const event: NormalizedEvent = {
    id: e.id,
    slug: e.slug,
    title: e.title ?? e.slug,
    description: e.description,
    active,
    closed,
    archived,
    open: active && !closed && !archived,
    volume_usd: e.volume ?? 0,
    volume_24h_usd: e.volume24hr ?? 0,
    volume_1wk_usd: e.volume1wk,
    liquidity_usd: e.liquidity ?? 0,
    open_interest_usd: e.openInterest,
    start_date: e.startDate,
    end_date: e.endDate,
    neg_risk: e.negRisk ?? false,
    category: e.category,
    tags: tags.items,
    image: e.image,
    // Markets inside an event carry no `events` back-reference: fill it from the parent.
    markets: markets.items.map((m) => ({ ...m, event_slug: m.event_slug ?? e.slug, event_id: m.event_id ?? e.id })),
  };
  return { event, dropped: [...markets.dropped, ...tags.dropped] };
}

/** One raw event → the event (null when it cannot be used) and what was dropped of it (itself, or some markets). */
export function parseEvent(raw: unknown): { event: NormalizedEvent | null; dropped: DroppedItem[] } {
  const outer = parseEach([raw], RawEventSchema, "event", EVENT_ID_KEYS);
  return outer.items.length ? normalizeEvent(outer.items[0]) : { event: null, dropped: outer.dropped };
}

/** A list of raw events → the usable events, and what was dropped (whole events, or markets inside kept events). */
export function parseEvents(raw: readonly unknown[]): Parsed<NormalizedEvent> {
  const items: NormalizedEvent[] = [];
  const dropped: DroppedItem[] = [];
  for (const element of raw) {
    const one = parseEvent(element);
    if (one.event) items.push(one.event);
    dropped.push(...one.dropped);
  }
  return { items, dropped };
}

/** The events of a list answer, each validated as the body was read (lib/upstream/json-list.ts). */
export class ParsedEvents implements Parsed<NormalizedEvent> {
  constructor(
    readonly items: NormalizedEvent[],
    readonly dropped: DroppedItem[],
    /** Elements the list held, usable or not. */
    readonly listed: number,
  ) {}
}

export function parseMarkets(raw: readonly unknown[]): Parsed<NormalizedMarket> {
  return parseEach(raw, GammaMarketSchema, "market", MARKET_ID_KEYS);
}

/**
 * `/events/keyset`: `{events, next_cursor}`; `next_cursor` is omitted on the last page. Its events arrive already
 * parsed, item by item, as the body was read (gamma.ts `eventsItemByItem`).
 */
export const EventsKeysetSchema = z.object({
  events: z.instanceof(ParsedEvents, { message: "expected an array of events" }),
  next_cursor: optionalString,
});
/** `/markets/keyset`: `{markets, next_cursor}` (Polymarket/ts-sdk gamma/market.ts `ListMarketsKeysetResponseSchema`). */
export const MarketsKeysetSchema = z.object({ markets: rawList, next_cursor: optionalString });

/** `/events/slug/{slug}` answers one object; the `/events?slug=` form answers a 0/1-element array. Accept both. */
export const EventBySlugSchema = z
  .unknown()
  .transform((body): Parsed<NormalizedEvent> => (Array.isArray(body) ? parseEvents(body.slice(0, 1)) : parseEvents([body])));
