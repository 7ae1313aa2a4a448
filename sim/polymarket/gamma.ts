// Gamma API (gamma-api.polymarket.com): the event and market routes lib/upstream reads, plus the legacy offset lists
// (their deprecation headers are part of the real upstream simulated here; SOURCES.md). Tags and search
// routes are not served: nothing here calls them. Shapes follow the recorded fixtures: market
// `outcomes`/`outcomePrices`/`clobTokenIds`/`umaResolutionStatuses` are JSON-encoded strings, market volume/liquidity
// are strings while event ones are numbers, price-change fields are omitted when zero, closed events keep
// `active: true`, validation errors are 422 `{type, error}`.
import { isoDate, isoSeconds, json, listParam, type SimContext, type SimRequest, type SimResponse } from "./http-types";
import { decimalString, round } from "./prices";
import { rand } from "./random";
import { gammaConditionId, isJunk, junkEvent, junkMarket } from "./reality";
import { isoMicros, type SimEvent, type SimMarket } from "./world";

const UMA_ADAPTER_NEG_RISK = "0x2F5e3684cb1F318ec51b00Edba38d79Ac2c0aA9d";
const UMA_ADAPTER = "0x65070BE91477460D8A7AeEb94ef92fe056C2f2A7";
const SUBMITTER = "0x91430CaD2d3975766499717fA0D66A78D814E5c5";
const EVENTS_LIMIT_CAP = 100;
const EVENTS_OFFSET_CAP = 2000;
const KEYSET_LIMIT_CAP = 500;
const MARKETS_LIMIT_CAP = 500;
/** `/markets/keyset` pages hold at most 100 markets and take at most 100 condition ids (nautilus_trader's Gamma client). */
const MARKETS_KEYSET_LIMIT_CAP = 100;
const CONDITION_IDS_CAP = 100;
/** Replays of the legacy offset lists showed these headers (justintanner/apicity polymarket README). */
const DEPRECATION_HEADERS = { Deprecation: "true", Sunset: "Fri, 01 May 2026 00:00:00 GMT" };
const DEFAULT_LIMIT = 20;

class GammaValidationError extends Error {}

function validation(message: string): SimResponse {
  return json({ type: "validation error", error: message }, 422);
}
function notFound(): SimResponse {
  return json({ type: "not found error", error: "not found" }, 404);
}

// ------------------------------------------------------------------------------------------------ numbers

interface MarketStats {
  volume24hr: number;
  volume1wk: number;
  volume1mo: number;
  volume1yr: number;
  volume: number;
  liquidity: number;
}

function noise(seed: number, salt: number, index: number, x: number): number {
  const i = Math.floor(x);
  const f = x - i;
  const a = rand(seed, salt, index, i);
  const b = rand(seed, salt, index, i + 1);
  return a + (b - a) * f * f * (3 - 2 * f);
}

export function marketStats(ctx: SimContext, market: SimMarket): MarketStats {
  const seed = ctx.world.seed;
  const now = ctx.nowMs / 1000;
  const trading = now < market.closedSec;
  // Expected notional of the trade flow (~$70 per retail trade on average plus whale flow), drifting every few hours.
  const daily = market.tradeRate * 1440 * 70;
  const ageDays = Math.max(0.04, (Math.min(now, market.closedSec) - market.startSec) / 86_400);
  const f = (k: number) => 0.75 + 0.5 * rand(seed, 410 + k, market.index);
  const volume24hr = trading ? daily * Math.min(1, ageDays) * (0.6 + 0.8 * noise(seed, 400, market.index, now / 21_600)) : 0;
  const volume1wk = Math.max(volume24hr, daily * Math.min(7, ageDays) * f(1) * (trading ? 1 : 0.2));
  const volume1mo = Math.max(volume1wk, daily * Math.min(30, ageDays) * f(2) * (trading ? 1 : 0.5));
  const volume = Math.max(volume1mo, daily * ageDays * f(3));
  const volume1yr = Math.max(volume1mo, Math.min(volume, daily * 365 * f(4)));
  const liquidity = trading ? market.liquidityBase * (0.85 + 0.3 * noise(seed, 401, market.index, now / 21_600)) : 0;
  return { volume24hr, volume1wk, volume1mo, volume1yr, volume, liquidity };
}

export function eventStats(ctx: SimContext, event: SimEvent): MarketStats {
  const total: MarketStats = { volume24hr: 0, volume1wk: 0, volume1mo: 0, volume1yr: 0, volume: 0, liquidity: 0 };
  for (const m of event.markets) {
    const s = marketStats(ctx, ctx.world.markets[m]);
    total.volume24hr += s.volume24hr;
    total.volume1wk += s.volume1wk;
    total.volume1mo += s.volume1mo;
    total.volume1yr += s.volume1yr;
    total.volume += s.volume;
    total.liquidity += s.liquidity;
  }
  return total;
}

function competitive(p: number): number {
  return 0.7 + 0.3 * (1 - Math.abs(2 * p - 1)) - 1e-6;
}

// ------------------------------------------------------------------------------------------------ serialisers

export function tagJson(ctx: SimContext, index: number): Record<string, unknown> {
  return { ...ctx.world.tags[index].json };
}

function updatedAt(ctx: SimContext, salt: number, index: number): string {
  const lag = Math.floor(rand(ctx.world.seed, salt, index, Math.floor(ctx.nowMs / 60_000)) * 50_000);
  return isoMicros(ctx.nowMs - lag, index);
}

export function marketJson(ctx: SimContext, market: SimMarket, withEvents: boolean): Record<string, unknown> {
  const { world, prices } = ctx;
  const event = world.events[market.eventIndex];
  const now = Math.floor(ctx.nowMs / 1000);
  const stats = marketStats(ctx, market);
  const resolved = market.winner !== null && now >= market.closedSec;
  const p0 = prices.displayPrice(market, 0, now);
  const quote = prices.quote(market, 0, now);
  const multi = event.negRisk;
  const seed = world.seed;
  const outcomePrices = resolved ? (market.winner === 0 ? ["1", "0"] : ["0", "1"]) : [decimalString(p0), decimalString(1 - p0)];

  const out: Record<string, unknown> = {
    id: market.id,
    question: market.question,
    conditionId: gammaConditionId(market),
    slug: market.slug,
    resolutionSource: event.resolutionSource,
    endDate: isoSeconds(market.endMs),
    liquidity: String(stats.liquidity),
    startDate: new Date(market.startMs).toISOString(),
    image: market.icon,
    icon: market.icon,
    description: event.description,
    outcomes: JSON.stringify(market.outcomes).replace(",", ", "),
    outcomePrices: JSON.stringify(outcomePrices).replace(",", ", "),
    volume: String(stats.volume),
    active: true,
    closed: market.closed,
    marketMakerAddress: "",
    createdAt: isoMicros(market.createdMs, market.index),
    updatedAt: updatedAt(ctx, 500, market.index),
    new: now - market.startSec < 2 * 86_400,
    featured: event.featured,
    submitted_by: SUBMITTER,
    archived: event.archived,
    resolvedBy: multi ? UMA_ADAPTER_NEG_RISK : UMA_ADAPTER,
    restricted: true,
  };
  if (market.groupItemTitle !== null) out.groupItemTitle = market.groupItemTitle;
  Object.assign(out, {
    groupItemThreshold: String(market.slot),
    questionID: market.questionID,
    enableOrderBook: true,
    orderPriceMinTickSize: quote.tick,
    orderMinSize: 5,
    volumeNum: stats.volume,
    liquidityNum: stats.liquidity,
    endDateIso: isoDate(market.endMs),
    startDateIso: isoDate(market.startMs),
    hasReviewedDates: true,
    volume24hr: stats.volume24hr,
    volume1wk: stats.volume1wk,
    volume1mo: stats.volume1mo,
    volume1yr: stats.volume1yr,
    // V2 markets: `positionIds` (an array, per the V2 migration docs) and `version: "v2"`; some still carry CTF
    // `clobTokenIds`, which clients must ignore for them. V1 markets: `clobTokenIds` and `version: "v1"`.
    ...(market.version === "v2"
      ? {
          ...(market.legacyTokenIds ? { clobTokenIds: JSON.stringify(market.legacyTokenIds).replace(",", ", ") } : {}),
          positionIds: [...market.tokenIds],
          version: "v2",
        }
      : { clobTokenIds: JSON.stringify(market.tokenIds).replace(",", ", "), ...(ctx.reality.v2Share > 0 ? { version: "v1" } : {}) }),
    umaBond: multi ? "25000" : "500",
    umaReward: multi ? "10" : "2",
    volume24hrClob: stats.volume24hr,
    volume1wkClob: stats.volume1wk,
    volume1moClob: stats.volume1mo,
    volume1yrClob: stats.volume1yr,
    volumeClob: stats.volume,
    liquidityClob: stats.liquidity,
    customLiveness: 0,
    acceptingOrders: !market.closed,
    negRisk: multi,
  });
  if (multi) out.negRiskMarketID = event.negRiskMarketID;
  out.negRiskRequestID = market.negRiskRequestID;
  if (withEvents) out.events = [eventJson(ctx, event, false)];
  Object.assign(out, {
    ready: false,
    funded: false,
    acceptingOrdersTimestamp: isoSeconds(market.startMs - 20_000),
    cyom: false,
    competitive: competitive(p0),
    pagerDutyNotificationEnabled: false,
    approved: true,
    rewardsMinSize: market.rewardsMinSize,
    rewardsMaxSpread: market.rewardsMaxSpread,
  });
  if (market.closed) {
    out.closedTime = new Date(market.closedMs)
      .toISOString()
      .replace("T", " ")
      .replace(/\.\d+Z$/, "+00");
    out.umaResolutionStatus = "resolved";
  }
  if (!resolved) {
    out.spread = quote.spread;
    // Price-change fields are absent (not 0) when there is no change or the market is younger than the window.
    for (const [key, seconds] of [
      ["oneHourPriceChange", 3600],
      ["oneDayPriceChange", 86_400],
      ["oneWeekPriceChange", 604_800],
      ["oneMonthPriceChange", 2_592_000],
    ] as const) {
      if (now - seconds < market.startSec) continue;
      const change = round(p0 - prices.displayPrice(market, 0, now - seconds), 4);
      if (change !== 0) out[key] = change;
    }
    out.lastTradePrice = rand(seed, 501, market.index, Math.floor(now / 60)) < 0.5 ? quote.bid : quote.ask;
    out.bestBid = quote.bid;
    out.bestAsk = quote.ask;
  } else {
    out.lastTradePrice = market.winner === 0 ? 0.999 : 0.001;
  }
  Object.assign(out, {
    automaticallyActive: true,
    clearBookOnStart: true,
    seriesColor: "",
    showGmpSeries: false,
    showGmpOutcome: false,
    manualActivation: false,
    negRiskOther: false,
    umaResolutionStatuses: market.closed ? '["proposed", "resolved"]' : "[]",
    pendingDeployment: false,
    deploying: false,
    deployingTimestamp: isoMicros(market.createdMs + 9000, market.index + 7),
    rfqEnabled: false,
    holdingRewardsEnabled: multi,
    feesEnabled: market.feeType !== null,
    requiresTranslation: false,
    feeType: market.feeType,
  });
  return out;
}

export function eventJson(ctx: SimContext, event: SimEvent, withMarkets: boolean, keepClosedMarkets = true): Record<string, unknown> {
  const stats = eventStats(ctx, event);
  const now = Math.floor(ctx.nowMs / 1000);
  const lead = ctx.world.markets[event.markets[0]];
  const out: Record<string, unknown> = {
    id: event.id,
    ticker: event.slug,
    slug: event.slug,
    title: event.title,
    description: event.description,
    resolutionSource: event.resolutionSource,
    startDate: isoMicros(event.startMs, event.microsSalt),
    creationDate: isoMicros(event.startMs - 70, event.microsSalt + 3),
    endDate: isoSeconds(event.endMs),
    image: event.image,
    icon: event.image,
    // Gamma keeps `active: true` on closed and archived events: "open" is active && !closed && !archived.
    active: true,
    closed: event.closed,
    archived: event.archived,
    new: now * 1000 - event.startMs < 2 * 86_400_000,
    featured: event.featured,
    restricted: true,
    liquidity: stats.liquidity,
    volume: stats.volume,
    openInterest: 0,
  };
  if (event.negRisk) out.sortBy = "price";
  Object.assign(out, {
    createdAt: isoMicros(event.createdMs, event.index),
    updatedAt: updatedAt(ctx, 502, event.index),
    competitive: competitive(ctx.prices.yesProbability(lead, now)),
    volume24hr: stats.volume24hr,
    volume1wk: stats.volume1wk,
    volume1mo: stats.volume1mo,
    volume1yr: stats.volume1yr,
    enableOrderBook: true,
    liquidityClob: stats.liquidity,
    negRisk: event.negRisk,
  });
  if (event.negRisk) out.negRiskMarketID = event.negRiskMarketID;
  out.commentCount = event.commentCount;
  if (event.closed)
    out.closedTime = new Date(event.closedMs)
      .toISOString()
      .replace("T", " ")
      .replace(/\.\d+Z$/, "+00");
  if (withMarkets) {
    out.markets = event.markets
      .map((m) => ctx.world.markets[m])
      .filter((m) => keepClosedMarkets || !m.closed)
      .map((m) => listedMarket(ctx, m, false));
  }
  out.tags = event.tagIndexes.map((t) => tagJson(ctx, t));
  Object.assign(out, {
    cyom: false,
    showAllOutcomes: true,
    showMarketImages: event.negRisk,
    enableNegRisk: event.negRisk,
    automaticallyActive: true,
  });
  out.startTime = isoSeconds(event.endMs - 12 * 3_600_000);
  if (event.negRisk) out.gmpChartMode = "default";
  out.negRiskAugmented = event.negRisk;
  Object.assign(out, event.extra);
  Object.assign(out, {
    estimateValue: false,
    cumulativeMarkets: false,
    pendingDeployment: false,
    deploying: false,
    deployingTimestamp: isoMicros(event.createdMs + 4000, event.microsSalt + 11),
    requiresTranslation: false,
  });
  return out;
}

/** A market as a list serves it: junk when the junk switch picks it. */
function listedMarket(ctx: SimContext, market: SimMarket, withEvents: boolean): Record<string, unknown> {
  const json = marketJson(ctx, market, withEvents);
  return isJunk(ctx.world, ctx.reality, "market", market.index) ? junkMarket(json) : json;
}

function listedEvent(ctx: SimContext, event: SimEvent): Record<string, unknown> {
  const json = eventJson(ctx, event, true);
  return isJunk(ctx.world, ctx.reality, "event", event.index) ? junkEvent(json) : json;
}

/** `closed` as sent, or Gamma's implicit `closed=false` when it is not sent and that switch is on. */
function closedFilter(ctx: SimContext, query: URLSearchParams): boolean | null {
  const closed = parseBool(query, "closed");
  return closed === null && ctx.reality.gammaClosedDefault ? false : closed;
}

// ------------------------------------------------------------------------------------------------ filters & ordering

function parseBool(query: URLSearchParams, name: string): boolean | null {
  const raw = query.get(name);
  if (raw === null || raw === "") return null;
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  throw new GammaValidationError(`invalid boolean for ${name}: ${raw}`);
}

function parseIntParam(query: URLSearchParams, name: string, fallback: number): number {
  const raw = query.get(name);
  if (raw === null || raw === "") return fallback;
  if (!/^-?\d+$/.test(raw)) throw new GammaValidationError(`invalid integer for ${name}: ${raw}`);
  const value = Number(raw);
  if (value < 0) throw new GammaValidationError(`${name} must be non-negative`);
  return value;
}

function parseNum(query: URLSearchParams, name: string): number | null {
  const raw = query.get(name);
  if (raw === null || raw === "") return null;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new GammaValidationError(`invalid number for ${name}: ${raw}`);
  return value;
}

function parseDate(query: URLSearchParams, name: string): number | null {
  const raw = query.get(name);
  if (raw === null || raw === "") return null;
  const value = Date.parse(raw);
  if (Number.isNaN(value)) throw new GammaValidationError(`invalid date-time for ${name}: ${raw}`);
  return value;
}

type SortValue = number | string;

const EVENT_ORDER_FIELDS: Record<string, (ctx: SimContext, e: SimEvent, stats: () => MarketStats) => SortValue> = {
  id: (_c, e) => Number(e.id),
  volume24hr: (_c, _e, s) => s().volume24hr,
  volume: (_c, _e, s) => s().volume,
  volume1wk: (_c, _e, s) => s().volume1wk,
  volume1mo: (_c, _e, s) => s().volume1mo,
  volume1yr: (_c, _e, s) => s().volume1yr,
  liquidity: (_c, _e, s) => s().liquidity,
  liquidityClob: (_c, _e, s) => s().liquidity,
  startDate: (_c, e) => e.startMs,
  endDate: (_c, e) => e.endMs,
  createdAt: (_c, e) => e.createdMs,
  creationDate: (_c, e) => e.startMs,
  closedTime: (_c, e) => (Number.isFinite(e.closedMs) ? e.closedMs : 0),
  competitive: (c, e) => competitive(c.prices.yesProbability(c.world.markets[e.markets[0]], Math.floor(c.nowMs / 1000))),
  commentCount: (_c, e) => e.commentCount,
  openInterest: () => 0,
  title: (_c, e) => e.title,
  slug: (_c, e) => e.slug,
};

function parseOrder(query: URLSearchParams): string[] {
  const raw = query.get("order");
  if (!raw) return [];
  const fields = raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const f of fields) if (!(f in EVENT_ORDER_FIELDS)) throw new GammaValidationError(`invalid order field: ${f}`);
  return fields;
}

function compareValues(a: SortValue, b: SortValue): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/** Sorts by the first `orderCount` keys (direction per `ascending`), then by the numeric id kept as the last key. */
function sortByKeys(rows: { keys: SortValue[] }[], orderCount: number, ascending: boolean): void {
  const sign = ascending ? 1 : -1;
  rows.sort((a, b) => {
    for (let i = 0; i < orderCount; i++) {
      const c = compareValues(a.keys[i], b.keys[i]);
      if (c !== 0) return sign * c;
    }
    return (a.keys[a.keys.length - 1] as number) - (b.keys[b.keys.length - 1] as number);
  });
}

interface StatBounds {
  liquidityMin: number | null;
  liquidityMax: number | null;
  volumeMin: number | null;
  volumeMax: number | null;
}

/** Gamma's `liquidity_num_min/max` and `volume_num_min/max`; stats are computed only when a bound is set. */
function withinBounds(stats: () => MarketStats, b: StatBounds): boolean {
  if (b.liquidityMin !== null && stats().liquidity < b.liquidityMin) return false;
  if (b.liquidityMax !== null && stats().liquidity > b.liquidityMax) return false;
  if (b.volumeMin !== null && stats().volume < b.volumeMin) return false;
  if (b.volumeMax !== null && stats().volume > b.volumeMax) return false;
  return true;
}

interface SortedEvent {
  event: SimEvent;
  keys: SortValue[];
}

function filterAndSortEvents(
  ctx: SimContext,
  query: URLSearchParams,
  keyset: boolean,
): { rows: SortedEvent[]; order: string[]; ascending: boolean } {
  const { world } = ctx;
  const ids = new Set(listParam(query, "id"));
  const slugs = new Set(listParam(query, "slug"));
  const active = parseBool(query, "active");
  const closed = closedFilter(ctx, query);
  const archived = parseBool(query, "archived");
  const featured = parseBool(query, "featured");
  const tagId = query.get("tag_id");
  const tagSlug = query.get("tag_slug");
  const excludeTags = new Set(listParam(query, "exclude_tag_id"));
  const liquidityMin = parseNum(query, "liquidity_min");
  const liquidityMax = parseNum(query, "liquidity_max");
  const volumeMin = parseNum(query, "volume_min");
  const volumeMax = parseNum(query, "volume_max");
  const startMin = parseDate(query, "start_date_min");
  const startMax = parseDate(query, "start_date_max");
  const endMin = parseDate(query, "end_date_min");
  const endMax = parseDate(query, "end_date_max");
  const titleSearch = keyset ? (query.get("title_search")?.toLowerCase() ?? null) : null;
  const order = parseOrder(query);
  const ascending = parseBool(query, "ascending") ?? true;

  const rows: SortedEvent[] = [];
  for (const event of world.events) {
    if (ids.size && !ids.has(event.id)) continue;
    if (slugs.size && !slugs.has(event.slug)) continue;
    if (active === false) continue; // every simulated event is active:true, as on Gamma
    if (closed !== null && event.closed !== closed) continue;
    if (archived !== null && event.archived !== archived) continue;
    if (featured !== null && event.featured !== featured) continue;
    const eventTags = event.tagIndexes.map((t) => world.tags[t]);
    if (tagId && !eventTags.some((t) => t.id === tagId)) continue;
    if (tagSlug && !eventTags.some((t) => t.slug === tagSlug)) continue;
    if (excludeTags.size && eventTags.some((t) => excludeTags.has(t.id))) continue;
    if (startMin !== null && event.startMs < startMin) continue;
    if (startMax !== null && event.startMs > startMax) continue;
    if (endMin !== null && event.endMs < endMin) continue;
    if (endMax !== null && event.endMs > endMax) continue;
    if (titleSearch && !event.title.toLowerCase().includes(titleSearch)) continue;
    let cached: MarketStats | null = null;
    const stats = () => (cached ??= eventStats(ctx, event));
    if (!withinBounds(stats, { liquidityMin, liquidityMax, volumeMin, volumeMax })) continue;
    rows.push({ event, keys: [...order.map((f) => EVENT_ORDER_FIELDS[f](ctx, event, stats)), Number(event.id)] });
  }
  sortByKeys(rows, order.length, ascending);
  return { rows, order, ascending };
}

// ------------------------------------------------------------------------------------------------ handlers

function withValidation(fn: () => SimResponse): SimResponse {
  try {
    return fn();
  } catch (error) {
    if (error instanceof GammaValidationError) return validation(error.message);
    throw error;
  }
}

function listEvents(ctx: SimContext, req: SimRequest): SimResponse {
  return withValidation(() => {
    const limit = Math.min(EVENTS_LIMIT_CAP, parseIntParam(req.query, "limit", DEFAULT_LIMIT));
    const offset = parseIntParam(req.query, "offset", 0);
    if (offset > EVENTS_OFFSET_CAP) return validation("offset too large, use /events/keyset for deeper pagination");
    const { rows } = filterAndSortEvents(ctx, req.query, false);
    const page = rows.slice(offset, offset + limit).map((r) => listedEvent(ctx, r.event));
    // The offset list is deprecated upstream; replays showed these headers.
    return json(page, 200, { ...DEPRECATION_HEADERS, Warning: '299 - "use /events/keyset"' });
  });
}

interface KeysetCursor {
  k: SortValue[];
}

function encodeCursor(cursor: KeysetCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString("base64url");
}

function decodeCursor(raw: string): KeysetCursor | null {
  try {
    const parsed = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as KeysetCursor;
    return Array.isArray(parsed.k) ? parsed : null;
  } catch {
    return null;
  }
}

function keysetEvents(ctx: SimContext, req: SimRequest): SimResponse {
  return withValidation(() => {
    if (req.query.has("offset")) return validation("offset is not allowed on keyset endpoints");
    const rawLimit = parseIntParam(req.query, "limit", DEFAULT_LIMIT);
    const limit = Math.max(1, Math.min(KEYSET_LIMIT_CAP, rawLimit));
    const { rows, order, ascending } = filterAndSortEvents(ctx, req.query, true);
    let start = 0;
    const after = req.query.get("after_cursor");
    if (after) {
      const cursor = decodeCursor(after);
      if (!cursor || cursor.k.length !== order.length + 1) return validation("invalid after_cursor");
      const sign = ascending ? 1 : -1;
      // Seek past the anchor using current values: rows whose sort keys moved meanwhile can be skipped or repeated,
      // exactly as with a real keyset over live-changing columns.
      start = rows.findIndex((r) => {
        for (let i = 0; i < order.length; i++) {
          const c = compareValues(r.keys[i], cursor.k[i]);
          if (c !== 0) return sign * c > 0;
        }
        return (r.keys[order.length] as number) > (cursor.k[order.length] as number);
      });
      if (start < 0) start = rows.length;
    }
    const page = rows.slice(start, start + limit);
    const body: Record<string, unknown> = { events: page.map((r) => listedEvent(ctx, r.event)) };
    // next_cursor only when the page is full; it is omitted on the last page.
    if (page.length === limit) body.next_cursor = encodeCursor({ k: page[page.length - 1].keys });
    return json(body);
  });
}

function eventBySlug(ctx: SimContext, slug: string): SimResponse {
  const event = ctx.world.eventBySlug.get(slug);
  return event ? json(eventJson(ctx, event, true)) : notFound();
}

const MARKET_ORDER_FIELDS: Record<string, (ctx: SimContext, m: SimMarket, s: () => MarketStats) => SortValue> = {
  id: (_c, m) => Number(m.id),
  volume24hr: (_c, _m, s) => s().volume24hr,
  volume: (_c, _m, s) => s().volume,
  volumeNum: (_c, _m, s) => s().volume,
  liquidity: (_c, _m, s) => s().liquidity,
  liquidityNum: (_c, _m, s) => s().liquidity,
  volume1wk: (_c, _m, s) => s().volume1wk,
  startDate: (_c, m) => m.startMs,
  endDate: (_c, m) => m.endMs,
  createdAt: (_c, m) => m.createdMs,
  competitive: (c, m) => competitive(c.prices.yesProbability(m, Math.floor(c.nowMs / 1000))),
  question: (_c, m) => m.question,
  slug: (_c, m) => m.slug,
};

function filterAndSortMarkets(ctx: SimContext, q: URLSearchParams): { market: SimMarket; keys: SortValue[] }[] {
  const { world } = ctx;
  const ids = listParam(q, "id");
  for (const id of ids) if (!/^\d+$/.test(id)) throw new GammaValidationError(`invalid id: ${id}`);
  const idSet = new Set(ids);
  const slugs = new Set(listParam(q, "slug"));
  const conditionList = listParam(q, "condition_ids").map((c) => c.toLowerCase());
  if (conditionList.length > CONDITION_IDS_CAP) throw new GammaValidationError(`at most ${CONDITION_IDS_CAP} condition_ids`);
  // A V2 condition matches in its canonical and padded spellings alike.
  const conditions = new Set(conditionList.map((c) => world.marketByCondition.get(c)?.conditionId ?? c));
  const tokens = new Set(listParam(q, "clob_token_ids"));
  const questionIds = new Set(listParam(q, "question_ids").map((c) => c.toLowerCase()));
  const closed = closedFilter(ctx, q);
  const active = parseBool(q, "active");
  const archived = parseBool(q, "archived");
  const tagId = q.get("tag_id");
  const liquidityMin = parseNum(q, "liquidity_num_min");
  const liquidityMax = parseNum(q, "liquidity_num_max");
  const volumeMin = parseNum(q, "volume_num_min");
  const volumeMax = parseNum(q, "volume_num_max");
  const endMin = parseDate(q, "end_date_min");
  const endMax = parseDate(q, "end_date_max");
  const orderRaw = q.get("order");
  const order = orderRaw
    ? orderRaw
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
  for (const f of order) if (!(f in MARKET_ORDER_FIELDS)) throw new GammaValidationError(`invalid order field: ${f}`);
  const ascending = parseBool(q, "ascending") ?? true;

  const rows: { market: SimMarket; keys: SortValue[] }[] = [];
  for (const market of world.markets) {
    const event = world.events[market.eventIndex];
    if (idSet.size && !idSet.has(market.id)) continue;
    if (slugs.size && !slugs.has(market.slug)) continue;
    if (conditions.size && !conditions.has(market.conditionId)) continue;
    if (tokens.size && !tokens.has(market.tokenIds[0]) && !tokens.has(market.tokenIds[1])) continue;
    if (questionIds.size && !questionIds.has(market.questionID)) continue;
    if (closed !== null && market.closed !== closed) continue;
    if (active === false) continue;
    if (archived !== null && event.archived !== archived) continue;
    if (tagId && !event.tagIndexes.some((t) => world.tags[t].id === tagId)) continue;
    if (endMin !== null && market.endMs < endMin) continue;
    if (endMax !== null && market.endMs > endMax) continue;
    let cached: MarketStats | null = null;
    const stats = () => (cached ??= marketStats(ctx, market));
    if (!withinBounds(stats, { liquidityMin, liquidityMax, volumeMin, volumeMax })) continue;
    rows.push({ market, keys: [...order.map((f) => MARKET_ORDER_FIELDS[f](ctx, market, stats)), Number(market.id)] });
  }
  sortByKeys(rows, order.length, ascending);
  return rows;
}

/** Legacy offset list `/markets` (bare array), deprecated upstream in favour of `/markets/keyset`. */
function listMarkets(ctx: SimContext, req: SimRequest): SimResponse {
  return withValidation(() => {
    const limit = Math.min(MARKETS_LIMIT_CAP, parseIntParam(req.query, "limit", DEFAULT_LIMIT));
    const offset = parseIntParam(req.query, "offset", 0);
    const rows = filterAndSortMarkets(ctx, req.query);
    const page = rows.slice(offset, offset + limit).map((r) => listedMarket(ctx, r.market, true));
    return json(page, 200, ctx.reality.gammaClosedDefault ? { ...DEPRECATION_HEADERS, Warning: '299 - "use /markets/keyset"' } : undefined);
  });
}

/** `/markets/keyset` → `{markets, next_cursor}`; `after_cursor` paging, `offset` refused, like `/events/keyset`. */
function keysetMarkets(ctx: SimContext, req: SimRequest): SimResponse {
  return withValidation(() => {
    if (req.query.has("offset")) return validation("offset is not allowed on keyset endpoints");
    const limit = Math.max(1, Math.min(MARKETS_KEYSET_LIMIT_CAP, parseIntParam(req.query, "limit", DEFAULT_LIMIT)));
    const rows = filterAndSortMarkets(ctx, req.query);
    let start = 0;
    const after = req.query.get("after_cursor");
    if (after) {
      const cursor = decodeCursor(after);
      const last = cursor?.k[cursor.k.length - 1];
      if (typeof last !== "number") return validation("invalid after_cursor");
      // Ordered by id here: seek past the anchor's id.
      start = rows.findIndex((r) => (r.keys[r.keys.length - 1] as number) > last);
      if (start < 0) start = rows.length;
    }
    const page = rows.slice(start, start + limit);
    const body: Record<string, unknown> = { markets: page.map((r) => listedMarket(ctx, r.market, true)) };
    if (page.length === limit) body.next_cursor = encodeCursor({ k: page[page.length - 1].keys });
    return json(body);
  });
}

function marketById(ctx: SimContext, id: string): SimResponse {
  if (!/^\d+$/.test(id)) return validation(`invalid id: ${id}`);
  const market = ctx.world.marketById.get(id);
  return market ? json(marketJson(ctx, market, true)) : notFound();
}

export function handleGamma(ctx: SimContext, req: SimRequest): SimResponse {
  if (req.method !== "GET") return json({ type: "method not allowed", error: "method not allowed" }, 405);
  const path = req.path.replace(/\/+$/, "") || "/";
  if (path === "/events") return listEvents(ctx, req);
  if (path === "/events/keyset") return keysetEvents(ctx, req);
  let match = /^\/events\/slug\/([^/]+)$/.exec(path);
  if (match) return eventBySlug(ctx, decodeURIComponent(match[1]));
  if (path === "/markets") return listMarkets(ctx, req);
  if (path === "/markets/keyset") return keysetMarkets(ctx, req);
  match = /^\/markets\/([^/]+)$/.exec(path);
  if (match) return marketById(ctx, decodeURIComponent(match[1]));
  if (path === "/status" || path === "/") return json("OK");
  return notFound();
}
