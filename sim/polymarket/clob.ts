// CLOB API (clob.polymarket.com), the one route lib/upstream reads: price history, `{history: [{t (seconds), p}]}`
// oldest first. The order-book and price routes (/book, /price, /midpoint, ...) are not served: nothing here calls
// them (live prices come from the market websocket, ws.ts).
import { json, type SimContext, type SimRequest, type SimResponse } from "./http-types";
import { type PriceModel, round } from "./prices";
import type { SimMarket } from "./world";

const INTERVAL_SECONDS: Record<string, number | null> = {
  "1h": 3600,
  "6h": 21_600,
  "1d": 86_400,
  "1w": 604_800,
  "1m": 2_592_000,
  max: null,
  all: null,
};
const MAX_HISTORY_POINTS = 20_000;

function resolveToken(ctx: SimContext, tokenId: string | null): { market: SimMarket; outcome: number } | null {
  if (!tokenId) return null;
  const code = ctx.world.tokenLookup.get(tokenId);
  if (code === undefined) return null;
  return { market: ctx.world.markets[code >> 1], outcome: code & 1 };
}

function intOrNull(raw: string | null): number | null | "invalid" {
  if (raw === null || raw === "") return null;
  if (!/^\d+$/.test(raw)) return "invalid";
  return Number(raw);
}

/** Seconds between the points of a 1-minute (fidelity=1) history. */
const MINUTE_S = 60;

/**
 * The point of this history in force at `t` (what `?startTs=…&endTs=t&fidelity=1` ends with, read at or after `t`):
 * the market's payout once it has resolved, else the point of `t`'s minute, rounded as served. Null before the
 * market's first point. The ledger wallets' leaderboard marks a window's start with it (wallets.ts `boardFigures`).
 */
export function historyPriceAt(prices: PriceModel, market: SimMarket, outcome: number, t: number): number | null {
  if (market.winner !== null && t >= market.closedSec) return market.winner === outcome ? 1 : 0;
  const minute = Math.floor(t / MINUTE_S) * MINUTE_S;
  if (minute < market.startSec) return null;
  return round(prices.displayPrice(market, outcome, minute), 4);
}

function pricesHistory(ctx: SimContext, req: SimRequest): SimResponse {
  const q = req.query;
  const tokenId = q.get("market");
  if (!tokenId) return json({ error: "market is required" }, 400);
  const interval = q.get("interval");
  if (interval !== null && !(interval in INTERVAL_SECONDS))
    return json({ error: `invalid interval: ${interval} (max, all, 1m, 1w, 1d, 6h, 1h)` }, 400);
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
  let step = fidelity * MINUTE_S;
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
  if (req.method !== "GET")
    return json({ error: req.method === "POST" ? "not found" : "method not allowed" }, req.method === "POST" ? 404 : 405);
  switch (path) {
    case "/prices-history":
      return pricesHistory(ctx, req);
    case "/":
    case "/ok":
      return json("OK");
    default:
      return json({ error: "not found" }, 404);
  }
}
