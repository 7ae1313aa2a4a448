// CLOB (clob.polymarket.com) bodies: price history, and the market WebSocket's messages.
import { z } from "zod";
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
  })
  .transform((m): NormalizedWsMessage => ({
    type: "last_trade_price",
    token_id: m.asset_id,
    condition_id: m.market,
    price: m.price,
    side: m.side,
    size: m.size,
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
  }));

export const WsMessageSchema = z.union([WsLastTradeSchema, WsPriceChangeSchema]);
