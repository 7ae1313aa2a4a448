// zod schemas for Polymarket's upstream bodies, each transforming straight into our normalised types. They are
// tolerant on purpose: unknown fields are dropped (Polymarket adds fields often), optional fields that go missing
// become null, and numbers that arrive as strings are parsed. What they refuse is a body we cannot use at all
// (no id, no price, a token id that is not a decimal string): that is a malformed upstream answer, a 502.
import { createHash } from "node:crypto";
import { z } from "zod";
import type {
  BookLevel,
  NormalizedBook,
  NormalizedEvent,
  NormalizedHolder,
  NormalizedHolderGroup,
  NormalizedMarket,
  NormalizedPosition,
  NormalizedTag,
  NormalizedTrade,
  NormalizedWsMessage,
  PricePoint,
  TradeSide,
} from "./types";

// ---------------------------------------------------------------------------------------------------------------
// Scalars

function toNumber(value: unknown): number | null {
  if (value === null || value === undefined || value === "") return null;
  const n = typeof value === "number" ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

/** A number that may arrive as a numeric string, or be missing (→ null). */
const optionalNumber = z.union([z.number(), z.string(), z.null()]).optional().transform(toNumber);
/** A number that must be there, possibly as a numeric string. */
const requiredNumber = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const n = toNumber(v);
  if (n === null) {
    ctx.addIssue({ code: "custom", message: `expected a number, got ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return n;
});
const optionalString = z.string().nullable().optional().transform((v) => (v === undefined || v === null || v === "" ? null : v));
const optionalBoolean = z.boolean().nullable().optional().transform((v) => v ?? null);
/** Gamma ids are decimal strings, occasionally numbers. */
const idString = z.union([z.string().min(1), z.number().int()]).transform(String);
/** Token ids are 76–78 digit decimals; only a string keeps them exact. */
const tokenId = z.string().regex(/^\d+$/, "token id must be a decimal string");
const side = z
  .string()
  .transform((v) => v.toUpperCase())
  .pipe(z.enum(["BUY", "SELL"]));
const optionalSide = z
  .string()
  .nullable()
  .optional()
  .transform((v): TradeSide | null => (v && /^(buy|sell)$/i.test(v) ? (v.toUpperCase() as TradeSide) : null));

/** ISO date text as Gamma sends it ("2028-11-07T00:00:00Z", "2025-07-11T18:41:17.827458Z") → ISO 8601 UTC or null. */
function isoOrNull(value: string | null): string | null {
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}
const optionalDate = optionalString.transform(isoOrNull);

/** Unix time that should be seconds; values that are clearly milliseconds (CLOB) are converted. */
function secondsFrom(value: number): number {
  return value > 1e11 ? Math.floor(value / 1000) : Math.floor(value);
}
/** Unix seconds or milliseconds → ISO 8601 UTC, keeping the milliseconds when the upstream sent them. */
function isoFromUnix(value: number | null): string | null {
  if (value === null) return null;
  return new Date(value > 1e11 ? Math.round(value) : Math.round(value * 1000)).toISOString();
}

/**
 * Gamma's JSON-encoded string arrays (`outcomes`, `outcomePrices`, `clobTokenIds`): `"[\"Yes\", \"No\"]"`.
 * Already-parsed arrays and null/"" (→ []) are accepted too.
 */
function jsonStringArray(kind: "text" | "token") {
  return z
    .union([z.string(), z.array(z.union([z.string(), z.number()])), z.null()])
    .optional()
    .transform((value, ctx): string[] => {
      if (value === null || value === undefined || value === "") return [];
      if (Array.isArray(value)) return value.map(String);
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        ctx.addIssue({ code: "custom", message: "expected a JSON-encoded array" });
        return z.NEVER;
      }
      if (!Array.isArray(parsed)) {
        ctx.addIssue({ code: "custom", message: "expected a JSON-encoded array" });
        return z.NEVER;
      }
      // A token id sent as a bare JSON number has already lost precision in JSON.parse: read the digits verbatim.
      if (kind === "token" && parsed.some((item) => typeof item === "number")) return value.match(/\d+/g) ?? [];
      return parsed.map(String);
    });
}

// ---------------------------------------------------------------------------------------------------------------
// Gamma

export const TagSchema = z
  .object({ id: idString, slug: z.string().nullable().optional(), label: z.string().nullable().optional() })
  .transform((t): NormalizedTag => ({ id: t.id, slug: t.slug ?? "", label: t.label ?? t.slug ?? "" }));

const EventRefSchema = z.object({ id: idString.optional(), slug: z.string().optional() });

const RawMarketSchema = z.object({
  id: idString,
  conditionId: optionalString,
  slug: optionalString,
  question: z.string().nullable().optional(),
  groupItemTitle: optionalString,
  active: optionalBoolean,
  closed: optionalBoolean,
  archived: optionalBoolean,
  acceptingOrders: optionalBoolean,
  outcomes: jsonStringArray("text"),
  outcomePrices: jsonStringArray("text"),
  clobTokenIds: jsonStringArray("token"),
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
  events: z.array(EventRefSchema).nullable().optional(),
});

export const MarketSchema = RawMarketSchema.transform((m, ctx): NormalizedMarket => {
  for (const id of m.clobTokenIds) {
    if (!/^\d+$/.test(id)) {
      ctx.addIssue({ code: "custom", message: `clobTokenIds entry is not a decimal token id: ${id}`, path: ["clobTokenIds"] });
      return z.NEVER;
    }
  }
  const names = m.outcomes.length ? m.outcomes : m.clobTokenIds.map((_, i) => `Outcome ${i + 1}`);
  return {
    id: m.id,
    condition_id: m.conditionId,
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
    event_slug: m.events?.[0]?.slug ?? null,
    event_id: m.events?.[0]?.id ?? null,
    outcomes: names.map((name, index) => ({
      index,
      name,
      token_id: m.clobTokenIds[index] ?? null,
      price: toNumber(m.outcomePrices[index]),
    })),
  };
});

export const EventSchema = z
  .object({
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
    tags: z.array(TagSchema).nullable().optional(),
    markets: z.array(MarketSchema).nullable().optional(),
  })
  .transform((e): NormalizedEvent => {
    const active = e.active ?? false;
    const closed = e.closed ?? false;
    const archived = e.archived ?? false;
    return {
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
      tags: e.tags ?? [],
      image: e.image,
      // Markets inside an event carry no `events` back-reference: fill it from the parent.
      markets: (e.markets ?? []).map((m) => ({ ...m, event_slug: m.event_slug ?? e.slug, event_id: m.event_id ?? e.id })),
    };
  });

export const EventListSchema = z.array(EventSchema);
export const MarketListSchema = z.array(MarketSchema);
export const TagListSchema = z.array(TagSchema);

/** `/events/keyset`: `{events, next_cursor}`; `next_cursor` is omitted on the last page. */
export const EventsKeysetSchema = z.object({
  events: z.array(EventSchema).nullable().optional().transform((v) => v ?? []),
  next_cursor: optionalString,
});

/** `/public-search`: `{events, pagination: {hasMore, totalResults}}` (tags/profiles only when asked for). */
export const SearchSchema = z.object({
  events: z.array(EventSchema).nullable().optional().transform((v) => v ?? []),
  pagination: z
    .object({ hasMore: optionalBoolean, totalResults: optionalNumber })
    .nullable()
    .optional(),
});

// ---------------------------------------------------------------------------------------------------------------
// Data API. v1 is camelCase and answers bare arrays; v2 is snake_case inside `{data, pagination}`. Both map to one
// row shape here.

function tradeId(parts: (string | number | null)[]): string {
  return createHash("sha256").update(parts.map((p) => String(p ?? "")).join("|")).digest("hex").slice(0, 32);
}

interface TradeFields {
  wallet: string;
  side: TradeSide;
  token_id: string;
  condition_id: string;
  size: number;
  price: number;
  timestamp: number;
  title: string | null;
  slug: string | null;
  event_slug: string | null;
  outcome: string | null;
  outcome_index: number | null;
  name: string | null;
  pseudonym: string | null;
  tx_hash: string | null;
}

function toTrade(t: TradeFields): NormalizedTrade {
  const seconds = secondsFrom(t.timestamp);
  return {
    id: tradeId([t.tx_hash, t.token_id, t.wallet.toLowerCase(), t.side, t.size, t.price, seconds]),
    tx_hash: t.tx_hash,
    market_id: null,
    condition_id: t.condition_id,
    token_id: t.token_id,
    event_slug: t.event_slug,
    market_slug: t.slug,
    question: t.title,
    outcome: t.outcome,
    outcome_index: t.outcome_index,
    side: t.side,
    price: t.price,
    shares: t.size,
    usd_size: t.size * t.price,
    wallet: t.wallet,
    pseudonym: t.pseudonym,
    name: t.name,
    timestamp: new Date(seconds * 1000).toISOString(),
    timestamp_s: seconds,
  };
}

const optionalIndex = optionalNumber.transform((v) => (v === null || v === 999 ? null : v)); // v2: 999 = unlabeled

const TradeV1Schema = z
  .object({
    proxyWallet: z.string(),
    side,
    asset: tokenId,
    conditionId: z.string(),
    size: requiredNumber,
    price: requiredNumber,
    timestamp: requiredNumber,
    title: optionalString,
    slug: optionalString,
    eventSlug: optionalString,
    outcome: optionalString,
    outcomeIndex: optionalIndex,
    name: optionalString,
    pseudonym: optionalString,
    transactionHash: optionalString,
  })
  .transform((r) =>
    toTrade({
      wallet: r.proxyWallet,
      side: r.side,
      token_id: r.asset,
      condition_id: r.conditionId,
      size: r.size,
      price: r.price,
      timestamp: r.timestamp,
      title: r.title,
      slug: r.slug,
      event_slug: r.eventSlug,
      outcome: r.outcome,
      outcome_index: r.outcomeIndex,
      name: r.name,
      pseudonym: r.pseudonym,
      tx_hash: r.transactionHash,
    }),
  );

const TradeV2Schema = z
  .object({
    proxy_wallet: z.string(),
    side,
    token_id: tokenId,
    condition_id: z.string(),
    size: requiredNumber,
    price: requiredNumber,
    timestamp: requiredNumber,
    title: optionalString,
    slug: optionalString,
    event_slug: optionalString,
    outcome: optionalString,
    outcome_index: optionalIndex,
    name: optionalString,
    pseudonym: optionalString,
    transaction_hash: optionalString,
  })
  .transform((r) =>
    toTrade({
      wallet: r.proxy_wallet,
      side: r.side,
      token_id: r.token_id,
      condition_id: r.condition_id,
      size: r.size,
      price: r.price,
      timestamp: r.timestamp,
      title: r.title,
      slug: r.slug,
      event_slug: r.event_slug,
      outcome: r.outcome,
      outcome_index: r.outcome_index,
      name: r.name,
      pseudonym: r.pseudonym,
      tx_hash: r.transaction_hash,
    }),
  );

const TradeRowSchema = z.union([TradeV1Schema, TradeV2Schema]);

const PaginationSchema = z
  .object({ has_more: optionalBoolean, next_cursor: optionalString })
  .nullable()
  .optional()
  .transform((p) => ({ has_more: p?.has_more ?? null, next_cursor: p?.next_cursor ?? null }));

/** v1 bare array or v2 `{data, pagination}` → `{rows, next_cursor}`. */
function listOf<T extends z.ZodType>(row: T) {
  return z.union([
    z.array(row).transform((rows) => ({ rows, next_cursor: null as string | null })),
    z
      .object({ data: z.array(row).nullable().transform((v) => v ?? []), pagination: PaginationSchema })
      .transform((b) => ({ rows: b.data, next_cursor: b.pagination.has_more === false ? null : b.pagination.next_cursor })),
  ]);
}

export const TradesBodySchema = listOf(TradeRowSchema);

const HolderV1Schema = z
  .object({
    proxyWallet: z.string(),
    asset: tokenId.nullable().optional(),
    amount: requiredNumber,
    outcomeIndex: optionalIndex,
    name: optionalString,
    pseudonym: optionalString,
    verified: optionalBoolean,
  })
  .transform((h) => ({
    wallet: h.proxyWallet,
    pseudonym: h.pseudonym,
    name: h.name,
    token_id: h.asset ?? null,
    outcome_index: h.outcomeIndex,
    shares: h.amount,
    verified: h.verified,
  }));

const HolderV2Schema = z
  .object({
    proxy_wallet: z.string(),
    token_id: tokenId.nullable().optional(),
    amount: requiredNumber,
    outcome_index: optionalIndex,
    name: optionalString,
    pseudonym: optionalString,
    verified: optionalBoolean,
  })
  .transform((h) => ({
    wallet: h.proxy_wallet,
    pseudonym: h.pseudonym,
    name: h.name,
    token_id: h.token_id ?? null,
    outcome_index: h.outcome_index,
    shares: h.amount,
    verified: h.verified,
  }));

const HolderRowSchema = z.union([HolderV1Schema, HolderV2Schema]);

/** One token group: v1 `{token, holders}` or v2 `{token_id, holders}`. */
export const HolderGroupSchema = z
  .object({
    token: tokenId.optional(),
    token_id: tokenId.optional(),
    holders: z.array(HolderRowSchema).nullable().transform((v) => v ?? []),
  })
  .transform((g, ctx): NormalizedHolderGroup => {
    const token = g.token ?? g.token_id ?? g.holders.find((h) => h.token_id)?.token_id;
    if (!token) {
      ctx.addIssue({ code: "custom", message: "holder group without a token id" });
      return z.NEVER;
    }
    const holders: NormalizedHolder[] = g.holders.map((h) => ({ ...h, token_id: h.token_id ?? token }));
    const outcomeIndex = holders.find((h) => h.outcome_index !== null)?.outcome_index ?? null;
    return { token_id: token, outcome_index: outcomeIndex, holders };
  });

export const HoldersBodySchema = listOf(HolderGroupSchema);

const PositionV1Schema = z
  .object({
    proxyWallet: z.string(),
    asset: tokenId,
    conditionId: z.string(),
    size: requiredNumber,
    avgPrice: optionalNumber,
    curPrice: optionalNumber,
    initialValue: optionalNumber,
    currentValue: optionalNumber,
    cashPnl: optionalNumber,
    percentPnl: optionalNumber,
    realizedPnl: optionalNumber,
    redeemable: optionalBoolean,
    title: optionalString,
    slug: optionalString,
    eventSlug: optionalString,
    outcome: optionalString,
    outcomeIndex: optionalIndex,
    endDate: optionalDate,
  })
  .transform(
    (p): NormalizedPosition => ({
      wallet: p.proxyWallet,
      token_id: p.asset,
      condition_id: p.conditionId,
      title: p.title,
      market_slug: p.slug,
      event_slug: p.eventSlug,
      outcome: p.outcome,
      outcome_index: p.outcomeIndex,
      shares: p.size,
      avg_price: p.avgPrice,
      current_price: p.curPrice,
      initial_value_usd: p.initialValue,
      current_value_usd: p.currentValue,
      cash_pnl_usd: p.cashPnl,
      percent_pnl: p.percentPnl,
      realized_pnl_usd: p.realizedPnl,
      redeemable: p.redeemable,
      end_date: p.endDate,
    }),
  );

const PositionV2Schema = z
  .object({
    proxy_wallet: z.string(),
    token_id: tokenId,
    condition_id: z.string(),
    size: requiredNumber,
    avg_price: optionalNumber,
    cur_price: optionalNumber,
    current_price: optionalNumber,
    initial_value: optionalNumber,
    current_value: optionalNumber,
    cash_pnl: optionalNumber,
    percent_pnl: optionalNumber,
    realized_pnl: optionalNumber,
    redeemable: optionalBoolean,
    title: optionalString,
    slug: optionalString,
    event_slug: optionalString,
    outcome: optionalString,
    outcome_index: optionalIndex,
    end_date: optionalDate,
  })
  .transform(
    (p): NormalizedPosition => ({
      wallet: p.proxy_wallet,
      token_id: p.token_id,
      condition_id: p.condition_id,
      title: p.title,
      market_slug: p.slug,
      event_slug: p.event_slug,
      outcome: p.outcome,
      outcome_index: p.outcome_index,
      shares: p.size,
      avg_price: p.avg_price,
      current_price: p.current_price ?? p.cur_price,
      initial_value_usd: p.initial_value,
      current_value_usd: p.current_value,
      cash_pnl_usd: p.cash_pnl,
      percent_pnl: p.percent_pnl,
      realized_pnl_usd: p.realized_pnl,
      redeemable: p.redeemable,
      end_date: p.end_date,
    }),
  );

export const PositionsBodySchema = listOf(z.union([PositionV1Schema, PositionV2Schema]));

// ---------------------------------------------------------------------------------------------------------------
// CLOB

const PricePointSchema = z.union([
  z.object({ t: requiredNumber, p: requiredNumber }),
  // Data API v2 /v2/prices-history points.
  z.object({ timestamp: requiredNumber, price: requiredNumber }).transform((q) => ({ t: q.timestamp, p: q.price })),
]);

/** CLOB `{history: [{t, p}]}` or Data API v2 `{data: [{timestamp, price}]}`; sorted oldest first. */
export const PricesHistorySchema = z
  .union([
    z.object({ history: z.array(PricePointSchema).nullable().transform((v) => v ?? []) }).transform((b) => b.history),
    z.object({ data: z.array(PricePointSchema).nullable().transform((v) => v ?? []) }).transform((b) => b.data),
  ])
  .transform((points): PricePoint[] => points.map((q) => ({ t: secondsFrom(q.t), p: q.p })).sort((a, b) => a.t - b.t));

export const MidpointSchema = z.object({ mid: optionalNumber }).transform((b) => b.mid);

/** `{"<token_id>": "0.435", ...}` (GET/POST /midpoints). */
export const MidpointsSchema = z
  .record(z.string(), z.union([z.number(), z.string(), z.null()]))
  .transform((r) => {
    const out: Record<string, number> = {};
    for (const [token, value] of Object.entries(r)) {
      const n = toNumber(value);
      if (n !== null && /^\d+$/.test(token)) out[token] = n;
    }
    return out;
  });

export const PriceSchema = z.object({ price: optionalNumber }).transform((b) => b.price);

/** `{"<token_id>": {"BUY": "0.45", "SELL": "0.46"}}` (/prices). */
export const PricesSchema = z
  .record(z.string(), z.record(z.string(), z.union([z.number(), z.string(), z.null()])))
  .transform((r) => {
    const out: Record<string, { BUY: number | null; SELL: number | null }> = {};
    for (const [token, sides] of Object.entries(r)) {
      if (!/^\d+$/.test(token)) continue;
      out[token] = { BUY: toNumber(sides.BUY ?? sides.buy), SELL: toNumber(sides.SELL ?? sides.sell) };
    }
    return out;
  });

const LevelSchema = z.object({ price: requiredNumber, size: requiredNumber });

export const BookSchema = z
  .object({
    market: optionalString,
    asset_id: tokenId,
    timestamp: optionalNumber,
    hash: optionalString,
    bids: z.array(LevelSchema).nullable().optional(),
    asks: z.array(LevelSchema).nullable().optional(),
    tick_size: optionalNumber,
    min_order_size: optionalNumber,
    last_trade_price: optionalNumber,
  })
  .transform((b): NormalizedBook => {
    // Order is not to be trusted (captures show bids ascending, older docs the opposite): sort, best first.
    const bids: BookLevel[] = [...(b.bids ?? [])].sort((x, y) => y.price - x.price);
    const asks: BookLevel[] = [...(b.asks ?? [])].sort((x, y) => x.price - y.price);
    const bestBid = bids[0]?.price ?? null;
    const bestAsk = asks[0]?.price ?? null;
    return {
      condition_id: b.market,
      token_id: b.asset_id,
      timestamp: isoFromUnix(b.timestamp),
      bids,
      asks,
      best_bid: bestBid,
      best_ask: bestAsk,
      mid: bestBid !== null && bestAsk !== null ? (bestBid + bestAsk) / 2 : null,
      spread: bestBid !== null && bestAsk !== null ? bestAsk - bestBid : null,
      tick_size: b.tick_size,
      min_order_size: b.min_order_size,
      last_trade_price: b.last_trade_price,
      hash: b.hash,
    };
  });

// ---------------------------------------------------------------------------------------------------------------
// CLOB market WebSocket messages (the socket sends ms timestamps and every number as a string)

const WsLastTradeSchema = z
  .object({
    event_type: z.literal("last_trade_price"),
    asset_id: tokenId,
    market: optionalString,
    price: requiredNumber,
    side: optionalSide,
    size: optionalNumber,
    timestamp: optionalNumber,
  })
  .transform(
    (m): NormalizedWsMessage => ({
      type: "last_trade_price",
      token_id: m.asset_id,
      condition_id: m.market,
      price: m.price,
      side: m.side,
      size: m.size,
      timestamp: isoFromUnix(m.timestamp),
    }),
  );

const WsPriceChangeSchema = z
  .object({
    event_type: z.literal("price_change"),
    market: optionalString,
    timestamp: optionalNumber,
    price_changes: z.array(
      z.object({
        asset_id: tokenId,
        price: requiredNumber,
        side: optionalSide,
        size: requiredNumber,
        best_bid: optionalNumber,
        best_ask: optionalNumber,
      }),
    ),
  })
  .transform(
    (m): NormalizedWsMessage => ({
      type: "price_change",
      condition_id: m.market,
      timestamp: isoFromUnix(m.timestamp),
      changes: m.price_changes.map((c) => ({
        token_id: c.asset_id,
        price: c.price,
        side: c.side,
        size: c.size,
        best_bid: c.best_bid,
        best_ask: c.best_ask,
      })),
    }),
  );

export const WsMessageSchema = z.union([WsLastTradeSchema, WsPriceChangeSchema]);
