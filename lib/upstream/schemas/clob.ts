// CLOB (clob.polymarket.com) bodies: price history, and the market WebSocket's messages.
import { z } from "zod";
import { canonicalConditionId } from "../ids";
import type { NormalizedWsMessage, PricePoint } from "../types";
import { isoFromUnix, optionalNumber, optionalSide, optionalString, requiredNumber, secondsFrom, tokenId } from "./scalars";

const PricePointSchema = z.union([
  z.object({ t: requiredNumber, p: requiredNumber }),
  // Data API v2 /v2/prices-history points.
  z.object({ timestamp: requiredNumber, price: requiredNumber }).transform((q) => ({ t: q.timestamp, p: q.price })),
]);

/** CLOB `{history: [{t, p}]}` or Data API v2 `{data: [{timestamp, price}]}`; sorted oldest first. */
export const PricesHistorySchema = z
  .union([
    z
      .object({
        history: z
          .array(PricePointSchema)
          .nullable()
          .transform((v) => v ?? []),
      })
      .transform((b) => b.history),
    z
      .object({
        data: z
          .array(PricePointSchema)
          .nullable()
          .transform((v) => v ?? []),
      })
      .transform((b) => b.data),
  ])
  .transform((points): PricePoint[] => points.map((q) => ({ t: secondsFrom(q.t), p: q.p })).sort((a, b) => a.t - b.t));

// // CLOB market WebSocket messages (the socket sends ms timestamps and every number as a string)

const WsLastTradeSchema = z
  .object({
    event_type: z.literal("last_trade_price"),
    asset_id: tokenId,
    market: optionalString,
    price: requiredNumber,
    side: optionalSide,
    size: optionalNumber,
    timestamp: optionalNumber,
    transaction_hash: optionalString,
  })
  .transform((m): NormalizedWsMessage => ({
    type: "last_trade_price",
    token_id: m.asset_id,
    condition_id: m.market ? canonicalConditionId(m.market) : null,
    price: m.price,
    side: m.side,
    size: m.size,
    timestamp: isoFromUnix(m.timestamp),
    tx_hash: m.transaction_hash ? m.transaction_hash.toLowerCase() : null,
  }));

const BookLevelSchema = z.object({ price: requiredNumber, size: requiredNumber });
const bestOf = (levels: { price: number; size: number }[], pick: (a: number, b: number) => number) =>
  levels.filter((l) => l.size > 0).reduce<number | null>((best, l) => (best === null ? l.price : pick(best, l.price)), null);

// `book` lists levels in no promised order (the docs' example has bids ascending): the best is found, not assumed.
const WsBookSchema = z
  .object({
    event_type: z.literal("book"),
    asset_id: tokenId,
    market: optionalString,
    bids: z.array(BookLevelSchema),
    asks: z.array(BookLevelSchema),
    timestamp: optionalNumber,
  })
  .transform((m): NormalizedWsMessage => ({
    type: "book",
    token_id: m.asset_id,
    condition_id: m.market ? canonicalConditionId(m.market) : null,
    best_bid: bestOf(m.bids, Math.max),
    best_ask: bestOf(m.asks, Math.min),
    timestamp: isoFromUnix(m.timestamp),
  }));

const WsBestBidAskSchema = z
  .object({
    event_type: z.literal("best_bid_ask"),
    asset_id: tokenId,
    market: optionalString,
    best_bid: optionalNumber,
    best_ask: optionalNumber,
    timestamp: optionalNumber,
  })
  .transform((m): NormalizedWsMessage => ({
    type: "best_bid_ask",
    token_id: m.asset_id,
    condition_id: m.market ? canonicalConditionId(m.market) : null,
    best_bid: m.best_bid,
    best_ask: m.best_ask,
    timestamp: isoFromUnix(m.timestamp),
  }));

const WsTickSizeSchema = z
  .object({
    event_type: z.literal("tick_size_change"),
    asset_id: tokenId,
    market: optionalString,
    new_tick_size: requiredNumber,
    timestamp: optionalNumber,
  })
  .transform((m): NormalizedWsMessage => ({
    type: "tick_size_change",
    token_id: m.asset_id,
    condition_id: m.market ? canonicalConditionId(m.market) : null,
    tick_size: m.new_tick_size,
    timestamp: isoFromUnix(m.timestamp),
  }));

// `new_market` carries the market and its event (`event_message`: id, ticker, slug, title, description; docs:
// market-channel custom features), enough to list the market before the next Gamma listing pass.
const WsNewMarketEventSchema = z.object({
  id: z.union([z.string(), z.number()]).transform(String),
  slug: z.string().min(1),
  title: optionalString,
});
const WsNewMarketSchema = z
  .object({
    event_type: z.literal("new_market"),
    id: optionalString,
    market: z.string().min(1),
    question: optionalString,
    slug: optionalString,
    assets_ids: z.array(tokenId),
    outcomes: z.array(z.string()).optional().catch(undefined),
    event_message: WsNewMarketEventSchema.nullish().catch(null),
    timestamp: optionalNumber,
  })
  .transform((m): NormalizedWsMessage => ({
    type: "new_market",
    condition_id: canonicalConditionId(m.market),
    market_id: m.id,
    question: m.question,
    slug: m.slug,
    token_ids: m.assets_ids,
    outcomes: m.outcomes?.length === m.assets_ids.length ? m.outcomes : null,
    event: m.event_message
      ? { id: m.event_message.id, slug: m.event_message.slug, title: m.event_message.title ?? m.event_message.slug }
      : null,
    timestamp: isoFromUnix(m.timestamp),
  }));

const WsMarketResolvedSchema = z
  .object({
    event_type: z.literal("market_resolved"),
    id: optionalString,
    market: z.string().min(1),
    assets_ids: z.array(tokenId),
    winning_asset_id: optionalString,
    winning_outcome: optionalString,
    timestamp: optionalNumber,
  })
  .transform((m): NormalizedWsMessage => ({
    type: "market_resolved",
    condition_id: canonicalConditionId(m.market),
    market_id: m.id,
    token_ids: m.assets_ids,
    winning_token_id: m.winning_asset_id,
    winning_outcome: m.winning_outcome,
    timestamp: isoFromUnix(m.timestamp),
  }));

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
  .transform((m): NormalizedWsMessage => ({
    type: "price_change",
    condition_id: m.market ? canonicalConditionId(m.market) : null,
    timestamp: isoFromUnix(m.timestamp),
    changes: m.price_changes.map((c) => ({
      token_id: c.asset_id,
      price: c.price,
      side: c.side,
      size: c.size,
      best_bid: c.best_bid,
      best_ask: c.best_ask,
    })),
  }));

export const WsMessageSchema = z.union([WsLastTradeSchema, WsPriceChangeSchema]);

/** One schema per market-channel `event_type` (docs: market-channel; custom features add the last three). */
export const WS_MARKET_SCHEMAS = {
  last_trade_price: WsLastTradeSchema,
  price_change: WsPriceChangeSchema,
  book: WsBookSchema,
  best_bid_ask: WsBestBidAskSchema,
  tick_size_change: WsTickSizeSchema,
  new_market: WsNewMarketSchema,
  market_resolved: WsMarketResolvedSchema,
} as const;
