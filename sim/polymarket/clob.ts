// CLOB API (clob.polymarket.com): books, prices, midpoints, price history. Prices and sizes are decimal strings,
// book timestamps are epoch milliseconds as strings, bids are listed ascending and asks descending (best last),
// prices-history is `{history: [{t (seconds), p}]}` oldest first.
import { json, listParam, type SimContext, type SimRequest, type SimResponse } from "./http-types";
import { round } from "./prices";
import { gauss, hexWords, rand } from "./random";
import type { SimMarket } from "./world";

const NO_BOOK = "No orderbook exists for the requested token id";
const INTERVAL_SECONDS: Record<string, number | null> = { "1h": 3600, "6h": 21_600, "1d": 86_400, "1w": 604_800, "1m": 2_592_000, max: null, all: null };
const MAX_HISTORY_POINTS = 20_000;
const BOOKS_BATCH_CAP = 500;
const SALT_BOOK = 600;

interface Level {
  price: number;
  size: number;
}

export interface Book {
  market: string;
  asset_id: string;
  timestamp: string;
  hash: string;
  bids: { price: string; size: string }[];
  asks: { price: string; size: string }[];
  min_order_size: string;
  tick_size: string;
  neg_risk: boolean;
  last_trade_price: string;
}

function resolveToken(ctx: SimContext, tokenId: string | null): { market: SimMarket; outcome: number } | null {
  if (!tokenId) return null;
  const code = ctx.world.tokenLookup.get(tokenId);
  if (code === undefined) return null;
  return { market: ctx.world.markets[code >> 1], outcome: code & 1 };
}

function isTradable(ctx: SimContext, market: SimMarket): boolean {
  return Math.floor(ctx.nowMs / 1000) < market.closedSec;
}

/** Yes-side ladder; the No book is its mirror (a No bid at p is a Yes ask at 1 - p). */
function yesLadder(ctx: SimContext, market: SimMarket, now: number): { bids: Level[]; asks: Level[]; tick: number } {
  const seed = ctx.world.seed;
  const minute = Math.floor(now / 60);
  const q = ctx.prices.quote(market, 0, now);
  const r = (k: number, i = 0) => rand(seed, SALT_BOOK + k, market.index, minute, i);
  const depth = Math.max(5, market.liquidityBase / 25);
  const size = (k: number, i: number) => round(Math.max(5, depth * Math.exp(0.9 * gauss(seed, SALT_BOOK + 20 + k, market.index, minute, i))), 2);
  const bids: Level[] = [];
  const asks: Level[] = [];
  let price = q.bid;
  for (let i = 0, n = 3 + Math.floor(r(1) * 9); i < n && price >= q.tick - 1e-9; i++) {
    bids.push({ price: round(price, 3), size: size(1, i) });
    price -= q.tick * (1 + Math.floor(r(2, i) * 3));
  }
  price = q.ask;
  for (let i = 0, n = 3 + Math.floor(r(3) * 9); i < n && price <= 1 - q.tick + 1e-9; i++) {
    asks.push({ price: round(price, 3), size: size(2, i) });
    price += q.tick * (1 + Math.floor(r(4, i) * 3));
  }
  // Resting "walls" far from the touch, as seen in real books (0.01 bids, 0.98-0.99 asks).
  const lowest = bids.length ? bids[bids.length - 1].price : q.bid;
  if (r(5) < 0.4 && lowest > 0.011) bids.push({ price: 0.01, size: round(1000 + r(6) * 9000, 0) });
  const highest = asks.length ? asks[asks.length - 1].price : q.ask;
  if (r(7) < 0.4 && highest < 0.98) asks.push({ price: 0.99, size: round(1000 + r(8) * 9000, 0) });
  return { bids, asks, tick: q.tick };
}

export function bookFor(ctx: SimContext, market: SimMarket, outcome: number): Book {
  const now = Math.floor(ctx.nowMs / 1000);
  const ladder = yesLadder(ctx, market, now);
  const mirror = (levels: Level[]) => levels.map((l) => ({ price: round(1 - l.price, 3), size: l.size }));
  const bestFirstBids = outcome === 0 ? ladder.bids : mirror(ladder.asks);
  const bestFirstAsks = outcome === 0 ? ladder.asks : mirror(ladder.bids);
  const quote = ctx.prices.quote(market, outcome, now);
  const last = rand(ctx.world.seed, SALT_BOOK + 40, market.index, Math.floor(now / 60)) < 0.5 ? quote.bid : quote.ask;
  const str = (l: Level) => ({ price: String(l.price), size: String(l.size) });
  return {
    market: market.conditionId,
    asset_id: market.tokenIds[outcome],
    timestamp: String(Math.floor(ctx.nowMs)),
    hash: hexWords(5, ctx.world.seed, SALT_BOOK + 50, market.index, outcome, Math.floor(now / 60)),
    // Upstream lists bids ascending and asks descending: the best level is the LAST element of each side.
    bids: [...bestFirstBids].reverse().map(str),
    asks: [...bestFirstAsks].reverse().map(str),
    min_order_size: "5",
    tick_size: String(ladder.tick),
    neg_risk: ctx.world.events[market.eventIndex].negRisk,
    last_trade_price: String(last),
  };
}

function tokenParam(req: SimRequest): string | null {
  return req.query.get("token_id");
}

function book(ctx: SimContext, req: SimRequest): SimResponse {
  const tokenId = tokenParam(req);
  if (!tokenId) return json({ error: "Invalid payload" }, 400);
  const resolved = resolveToken(ctx, tokenId);
  if (!resolved || !isTradable(ctx, resolved.market)) return json({ error: NO_BOOK }, 404);
  return json(bookFor(ctx, resolved.market, resolved.outcome));
}

function bodyItems(req: SimRequest): { token_id?: unknown; side?: unknown }[] | null {
  if (!Array.isArray(req.body)) return null;
  return req.body as { token_id?: unknown; side?: unknown }[];
}

function books(ctx: SimContext, req: SimRequest): SimResponse {
  const items = bodyItems(req);
  if (!items) return json({ error: "Invalid payload" }, 400);
  if (items.length > BOOKS_BATCH_CAP) return json({ error: `Payload exceeds the limit of ${BOOKS_BATCH_CAP} items` }, 400);
  const out: Book[] = [];
  for (const item of items) {
    const resolved = resolveToken(ctx, typeof item?.token_id === "string" ? item.token_id : null);
    if (resolved && isTradable(ctx, resolved.market)) out.push(bookFor(ctx, resolved.market, resolved.outcome));
  }
  return json(out);
}

function sideParam(raw: unknown): "BUY" | "SELL" | null {
  if (typeof raw !== "string") return null;
  const upper = raw.toUpperCase();
  return upper === "BUY" || upper === "SELL" ? upper : null;
}

/** BUY → best bid, SELL → best ask (the documented semantics of GET /price). */
function priceFor(ctx: SimContext, market: SimMarket, outcome: number, side: "BUY" | "SELL"): string {
  const q = ctx.prices.quote(market, outcome, Math.floor(ctx.nowMs / 1000));
  return String(side === "BUY" ? q.bid : q.ask);
}

function price(ctx: SimContext, req: SimRequest): SimResponse {
  const tokenId = tokenParam(req);
  if (!tokenId) return json({ error: "Invalid payload" }, 400);
  const side = sideParam(req.query.get("side"));
  if (!side) return json({ error: "Invalid side" }, 400);
  const resolved = resolveToken(ctx, tokenId);
  if (!resolved || !isTradable(ctx, resolved.market)) return json({ error: NO_BOOK }, 404);
  return json({ price: priceFor(ctx, resolved.market, resolved.outcome, side) });
}

function prices(ctx: SimContext, req: SimRequest): SimResponse {
  let pairs: { tokenId: string; side: "BUY" | "SELL" }[] = [];
  if (req.method === "POST") {
    const items = bodyItems(req);
    if (!items) return json({ error: "Invalid payload" }, 400);
    for (const item of items) {
      const side = sideParam(item?.side);
      if (typeof item?.token_id !== "string" || !side) return json({ error: "Invalid payload" }, 400);
      pairs.push({ tokenId: item.token_id, side });
    }
  } else {
    const tokens = listParam(req.query, "token_ids");
    const sides = listParam(req.query, "sides");
    if (tokens.length === 0 || tokens.length !== sides.length) return json({ error: "Invalid payload" }, 400);
    pairs = tokens.map((tokenId, i) => ({ tokenId, side: sideParam(sides[i]) ?? "BUY" }));
  }
  if (pairs.length > BOOKS_BATCH_CAP) return json({ error: `Payload exceeds the limit of ${BOOKS_BATCH_CAP} items` }, 400);
  const out: Record<string, Record<string, string>> = {};
  for (const { tokenId, side } of pairs) {
    const resolved = resolveToken(ctx, tokenId);
    if (!resolved || !isTradable(ctx, resolved.market)) continue;
    (out[tokenId] ??= {})[side] = priceFor(ctx, resolved.market, resolved.outcome, side);
  }
  return json(out);
}

function midpoint(ctx: SimContext, req: SimRequest): SimResponse {
  const tokenId = tokenParam(req);
  if (!tokenId) return json({ error: "Invalid payload" }, 400);
  const resolved = resolveToken(ctx, tokenId);
  if (!resolved || !isTradable(ctx, resolved.market)) return json({ error: NO_BOOK }, 404);
  const q = ctx.prices.quote(resolved.market, resolved.outcome, Math.floor(ctx.nowMs / 1000));
  return json({ mid: String(q.mid) });
}

function midpoints(ctx: SimContext, req: SimRequest): SimResponse {
  const tokens = req.method === "POST" ? (bodyItems(req) ?? []).map((i) => (typeof i?.token_id === "string" ? i.token_id : "")) : listParam(req.query, "token_ids");
  if (tokens.length === 0) return json({ error: "Invalid payload" }, 400);
  const out: Record<string, string> = {};
  for (const tokenId of tokens) {
    const resolved = resolveToken(ctx, tokenId);
    if (!resolved || !isTradable(ctx, resolved.market)) continue;
    out[tokenId] = String(ctx.prices.quote(resolved.market, resolved.outcome, Math.floor(ctx.nowMs / 1000)).mid);
  }
  return json(out);
}

function spread(ctx: SimContext, req: SimRequest): SimResponse {
  const resolved = resolveToken(ctx, tokenParam(req));
  if (!resolved || !isTradable(ctx, resolved.market)) return json({ error: NO_BOOK }, 404);
  return json({ spread: String(ctx.prices.quote(resolved.market, resolved.outcome, Math.floor(ctx.nowMs / 1000)).spread) });
}

function lastTradePrice(ctx: SimContext, req: SimRequest): SimResponse {
  const resolved = resolveToken(ctx, tokenParam(req));
  if (!resolved) return json({ error: NO_BOOK }, 404);
  const b = bookFor(ctx, resolved.market, resolved.outcome);
  const side = rand(ctx.world.seed, SALT_BOOK + 41, resolved.market.index, Math.floor(ctx.nowMs / 60_000)) < 0.5 ? "BUY" : "SELL";
  return json({ price: b.last_trade_price, side });
}

function intOrNull(raw: string | null): number | null | "invalid" {
  if (raw === null || raw === "") return null;
  if (!/^\d+$/.test(raw)) return "invalid";
  return Number(raw);
}

function pricesHistory(ctx: SimContext, req: SimRequest): SimResponse {
  const q = req.query;
  const tokenId = q.get("market");
  if (!tokenId) return json({ error: "market is required" }, 400);
  const interval = q.get("interval");
  if (interval !== null && !(interval in INTERVAL_SECONDS)) return json({ error: `invalid interval: ${interval} (max, all, 1m, 1w, 1d, 6h, 1h)` }, 400);
  const startTs = intOrNull(q.get("startTs"));
  const endTs = intOrNull(q.get("endTs"));
  if (startTs === "invalid" || endTs === "invalid") return json({ error: "startTs and endTs must be unix seconds" }, 400);
  if (interval !== null && (startTs !== null || endTs !== null)) {
    return json({ error: "invalid filters: 'interval' and 'startTs'/'endTs' are mutually exclusive" }, 400);
  }
  if (interval === null && startTs === null && endTs === null) {
    return json({ error: "invalid filters: one of 'interval' or 'startTs'/'endTs' is required" }, 400);
  }
  const fidelityRaw = intOrNull(q.get("fidelity"));
  if (fidelityRaw === "invalid" || fidelityRaw === 0) return json({ error: "fidelity must be a positive integer (minutes)" }, 400);
  const fidelity = fidelityRaw ?? 1;
  const resolved = resolveToken(ctx, tokenId);
  if (!resolved) return json({ history: [] });
  const { market, outcome } = resolved;
  const now = Math.floor(ctx.nowMs / 1000);
  const resolvedMarket = market.winner !== null && now >= market.closedSec;
  // Resolved markets answer nothing for interval=max below 12-hour fidelity (py-clob-client#216).
  if (resolvedMarket && (interval === "max" || interval === "all") && fidelity < 720) return json({ history: [] });

  let start: number;
  let end: number;
  if (interval !== null) {
    end = now;
    const span = INTERVAL_SECONDS[interval];
    start = span === null ? market.startSec : now - span;
  } else {
    start = startTs ?? market.startSec;
    end = endTs ?? now;
  }
  start = Math.max(start, market.startSec);
  end = Math.min(end, now, resolvedMarket ? market.closedSec : now);
  if (end < start) return json({ history: [] });
  let step = fidelity * 60;
  if ((end - start) / step > MAX_HISTORY_POINTS) step = Math.ceil((end - start) / MAX_HISTORY_POINTS / 60) * 60;
  const history: { t: number; p: number }[] = [];
  for (let t = Math.ceil(start / step) * step; t <= end; t += step) {
    history.push({ t, p: round(ctx.prices.displayPrice(market, outcome, t), 4) });
  }
  if (resolvedMarket && end === market.closedSec && history[history.length - 1]?.t !== end) {
    history.push({ t: end, p: market.winner === outcome ? 1 : 0 });
  }
  return json({ history });
}

export function handleClob(ctx: SimContext, req: SimRequest): SimResponse {
  const path = req.path.replace(/\/+$/, "") || "/";
  if (req.method === "POST") {
    if (path === "/books") return books(ctx, req);
    if (path === "/prices") return prices(ctx, req);
    if (path === "/midpoints") return midpoints(ctx, req);
    return json({ error: "not found" }, 404);
  }
  if (req.method !== "GET") return json({ error: "method not allowed" }, 405);
  switch (path) {
    case "/book":
      return book(ctx, req);
    case "/price":
      return price(ctx, req);
    case "/prices":
      return prices(ctx, req);
    case "/midpoint":
      return midpoint(ctx, req);
    case "/midpoints":
      return midpoints(ctx, req);
    case "/spread":
      return spread(ctx, req);
    case "/last-trade-price":
      return lastTradePrice(ctx, req);
    case "/prices-history":
      return pricesHistory(ctx, req);
    case "/":
    case "/ok":
      return json("OK");
    default:
      return json({ error: "not found" }, 404);
  }
}
