// Data API (data-api.polymarket.com). v1: camelCase bare arrays (`/trades`, `/holders`, `/positions`), errors
// `{error}`; v2: snake_case `{data, pagination}` with cursor-only paging, errors `{error, code, retryable, trace_id,
// parameter?}` and an `x-trace-id` header on every response.
import { tradeAnchor, type Trade, type TradeAnchor } from "./flow";
import { firstParam, isoDate, json, listParam, type SimContext, type SimRequest, type SimResponse } from "./http-types";
import { round } from "./prices";
import { rand } from "./random";
import { isJunk, junkHolder, junkTrade } from "./reality";
import type { SimMarket } from "./world";

/** V1 condition ids are 64 hex; V2 ones 62 (or padded to 64) — reality.ts. */
const CONDITION_ID = /^0x(?:[0-9a-fA-F]{62}|[0-9a-fA-F]{64})$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const V1_TRADES_LIMIT_CAP = 10_000;
const V1_TRADES_OFFSET_CAP = 10_000;
/** v1 /trades reaches only about this many rows per query; deeper offsets wrap around to earlier rows. */
const V1_TRADES_WINDOW = 4000;
const V1_HOLDERS_LIMIT_CAP = 20;
const V2_TRADES_LIMIT_CAP = 1000;
const FILTERED_LOOKBACK_S = 30 * 86_400;
const FEED_LOOKBACK_S = 86_400;

function v1Error(message: string, status = 400): SimResponse {
  return json({ error: message }, status);
}

class BadRequest extends Error {
  constructor(
    message: string,
    readonly parameter?: string,
  ) {
    super(message);
  }
}

function intParam(query: URLSearchParams, names: string[], fallback: number, max?: number, clamp = true): number {
  const raw = firstParam(query, ...names);
  if (raw === null || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) throw new BadRequest(`invalid ${names[0]}: ${raw}`, names[0]);
  const value = Number(raw);
  if (max !== undefined && value > max) {
    if (clamp) return max;
    throw new BadRequest(`${names[0]} must be <= ${max}`, names[0]);
  }
  return value;
}

function boolParam(query: URLSearchParams, names: string[], fallback: boolean): boolean {
  const raw = firstParam(query, ...names);
  if (raw === null || raw === "") return fallback;
  if (raw === "true") return true;
  if (raw === "false") return false;
  throw new BadRequest(`invalid ${names[0]}: ${raw}`, names[0]);
}

function conditionMarkets(ctx: SimContext, ids: string[], param: string): number[] {
  const out: number[] = [];
  for (const id of ids) {
    if (!CONDITION_ID.test(id)) throw new BadRequest(`invalid ${param}: ${id} (expected a condition id)`, param);
    const market = ctx.world.marketByCondition.get(id.toLowerCase());
    if (market) out.push(market.index);
  }
  return out;
}

function eventMarkets(ctx: SimContext, ids: string[], param: string): number[] {
  const out: number[] = [];
  for (const id of ids) {
    if (!/^\d+$/.test(id)) throw new BadRequest(`invalid ${param}: ${id}`, param);
    const event = ctx.world.eventById.get(id);
    if (event) out.push(...event.markets);
  }
  return out;
}

interface TradeFilters {
  markets: number[] | null;
  wallet?: number;
  unknownWallet: boolean;
  side?: "BUY" | "SELL";
  minCash?: number;
  minTokens?: number;
  takerOnly: boolean;
}

function parseTradeFilters(ctx: SimContext, q: URLSearchParams, v2: boolean): TradeFilters {
  const marketIds = v2 ? listParam(q, "condition", "condition_id", "conditionId") : listParam(q, "market");
  const eventIds = v2 ? listParam(q, "event_id", "eventId") : listParam(q, "eventId");
  if (marketIds.length && eventIds.length) {
    throw new BadRequest(
      v2 ? "condition and event_id are mutually exclusive" : "market and eventId are mutually exclusive",
      v2 ? "condition" : "market",
    );
  }
  if (v2 && marketIds.length > 20) throw new BadRequest("at most 20 condition ids", "condition");
  if (v2 && eventIds.length > 20) throw new BadRequest("at most 20 event ids", "event_id");
  let markets: number[] | null = null;
  if (marketIds.length) markets = conditionMarkets(ctx, marketIds, v2 ? "condition" : "market");
  else if (eventIds.length) markets = eventMarkets(ctx, eventIds, v2 ? "event_id" : "eventId");

  const user = firstParam(q, "user");
  let wallet: number | undefined;
  let unknownWallet = false;
  if (user !== null && user !== "") {
    if (!ADDRESS.test(user)) throw new BadRequest(`invalid user: ${user}`, "user");
    wallet = ctx.world.walletByAddress.get(user.toLowerCase());
    if (wallet === undefined) unknownWallet = true;
  }
  const sideRaw = firstParam(q, "side");
  let side: "BUY" | "SELL" | undefined;
  if (sideRaw !== null && sideRaw !== "") {
    if (sideRaw !== "BUY" && sideRaw !== "SELL") throw new BadRequest(`invalid side: ${sideRaw} (BUY or SELL)`, "side");
    side = sideRaw;
  }
  const filterType = v2 ? firstParam(q, "filter_type", "filterType") : firstParam(q, "filterType");
  const filterAmountRaw = v2 ? firstParam(q, "filter_amount", "filterAmount") : firstParam(q, "filterAmount");
  let minCash: number | undefined;
  let minTokens: number | undefined;
  if (!v2 && (filterType === null) !== (filterAmountRaw === null)) {
    throw new BadRequest("filterType and filterAmount must be provided together", filterType === null ? "filterType" : "filterAmount");
  }
  const type = filterType ?? (v2 ? "TOKENS" : null);
  if (type !== null) {
    if (type !== "CASH" && type !== "TOKENS")
      throw new BadRequest(`invalid filterType: ${type} (CASH or TOKENS)`, v2 ? "filter_type" : "filterType");
    const amount = filterAmountRaw === null ? 0.01 : Number(filterAmountRaw);
    if (!Number.isFinite(amount) || amount < 0)
      throw new BadRequest(`invalid filterAmount: ${filterAmountRaw}`, v2 ? "filter_amount" : "filterAmount");
    if (type === "CASH") minCash = amount;
    else minTokens = amount;
  }
  const takerOnly = boolParam(q, v2 ? ["taker_only", "takerOnly"] : ["takerOnly"], true);
  return { markets, wallet, unknownWallet, side, minCash, minTokens, takerOnly };
}

/** Data API list rebuild period, and the range of how far behind the block a rebuild reads (reality `restLag`). */
export const REST_REBUILD_S = 4;
export const REST_BEHIND_MIN_S = 2;
export const REST_BEHIND_MAX_S = 7;
const SALT_REST_BEHIND = 930;

/**
 * The newest block second the trade lists show. With `restLag` the lists are rebuilt every 4 s, each rebuild from
 * the blocks at least 2–7 s old (drawn per rebuild), and a list never goes back: a fill shows 3–10 s after its block,
 * median 6 s, p90 9 s (research note §3.1: median 5.8–6.7 s, p90 7.8–9.5 s, ~3 s at least, ~11 s at most, the newest
 * trade changing every 4.0 s; SOURCES.md, "Live feeds").
 */
export function restVisibleUntil(ctx: SimContext): number {
  const now = Math.floor(ctx.nowMs / 1000);
  if (!ctx.reality.restLag) return now;
  const last = Math.floor(ctx.nowMs / 1000 / REST_REBUILD_S);
  let until = -Infinity;
  // A rebuild reading further back than an earlier one does not hide what that one showed.
  for (let k = last; k > last - 3; k--) {
    const behind = REST_BEHIND_MIN_S + (REST_BEHIND_MAX_S - REST_BEHIND_MIN_S) * rand(ctx.world.seed, SALT_REST_BEHIND, k);
    until = Math.max(until, Math.floor(k * REST_REBUILD_S - behind));
  }
  return until;
}

/** How far behind a rebuild the user form (`?user=`) reads, with `restLag` (ours, fitted to the note's §3.3 figures). */
export const REST_USER_BEHIND_S = 1;

/**
 * The newest block second the user form of the trade list and a user's activity show. With `restLag` the user form
 * is rebuilt every 4 s like the market form, each rebuild reading the blocks at least 1 s old: a fill shows 1–4 s after
 * its block (median 2.5 s), which a reader polling once a second with a 0.3 s round trip, as the note's collector did,
 * sees ≈ 3.3 s after the block at the median, ≈ 4.9 s at p90, ≈ 5.3 s at most. Research note §3.3, measured on
 * `/v2/trades?user=` only: median 3.2 / 3.3 / 2.6 s (session 2) and 2.4 / 2.6 s (session 3), p90 4.2–4.6 s, max
 * 4.3–6.2 s, "Ce flux est aussi rafraîchi toutes les ~4 s, mais avec environ 3 s d'avance sur le flux par marché".
 * The 4 s period is the note's; the 1 s read-back is ours (the note gives the delays, not how they split). The v1
 * `/trades?user=` and `/activity?user=` lagging the same way are inferences (same host, same rows).
 */
export function restUserVisibleUntil(ctx: SimContext): number {
  const now = Math.floor(ctx.nowMs / 1000);
  if (!ctx.reality.restLag) return now;
  return Math.floor(ctx.nowMs / 1000 / REST_REBUILD_S) * REST_REBUILD_S - REST_USER_BEHIND_S;
}

function runTradeQuery(
  ctx: SimContext,
  f: TradeFilters,
  need: number,
  after?: TradeAnchor,
  window?: { start?: number; end?: number },
): Trade[] {
  if (f.unknownWallet || (f.markets && f.markets.length === 0) || need <= 0) return [];
  const now = Math.floor(ctx.nowMs / 1000);
  const filtered = f.markets !== null || f.wallet !== undefined;
  const until = Math.min(f.wallet !== undefined ? restUserVisibleUntil(ctx) : restVisibleUntil(ctx), window?.end ?? now);
  const since = Math.max(window?.start ?? 0, now - (filtered ? FILTERED_LOOKBACK_S : FEED_LOOKBACK_S));
  return ctx.flow.query({
    markets: f.markets,
    wallet: f.wallet,
    side: f.side,
    minCash: f.minCash,
    minTokens: f.minTokens,
    takerOnly: f.takerOnly,
    until,
    since,
    need,
    after,
  });
}

export function tradeV1(ctx: SimContext, t: Trade): Record<string, unknown> {
  const market = ctx.world.markets[t.market];
  const event = ctx.world.events[market.eventIndex];
  const w = ctx.world.wallet(t.wallet);
  return {
    proxyWallet: w.address,
    side: t.side,
    asset: market.tokenIds[t.outcome],
    conditionId: market.conditionId,
    size: t.size,
    price: t.price,
    timestamp: t.timestamp,
    title: market.question,
    slug: market.slug,
    icon: market.icon,
    eventSlug: event.slug,
    outcome: market.outcomes[t.outcome],
    outcomeIndex: t.outcome,
    name: w.name,
    pseudonym: w.pseudonym,
    bio: w.bio,
    profileImage: w.profileImage,
    profileImageOptimized: "",
    transactionHash: ctx.flow.txHash(t),
  };
}

function tradeV2(ctx: SimContext, t: Trade): Record<string, unknown> {
  const market = ctx.world.markets[t.market];
  const event = ctx.world.events[market.eventIndex];
  const w = ctx.world.wallet(t.wallet);
  return {
    proxy_wallet: w.address,
    side: t.side,
    token_id: market.tokenIds[t.outcome],
    condition_id: market.conditionId,
    size: t.size,
    price: t.price,
    timestamp: t.timestamp,
    title: market.question,
    slug: market.slug,
    icon: market.icon,
    event_slug: event.slug,
    outcome: market.outcomes[t.outcome],
    outcome_index: t.outcome,
    name: w.name,
    pseudonym: w.pseudonym,
    bio: w.bio,
    profile_image: w.profileImage,
    profile_image_optimized: "",
    transaction_hash: ctx.flow.txHash(t),
  };
}

function tradesV1(ctx: SimContext, req: SimRequest): SimResponse {
  try {
    const limit = intParam(req.query, ["limit"], 100, V1_TRADES_LIMIT_CAP);
    const offset = intParam(req.query, ["offset"], 0, V1_TRADES_OFFSET_CAP, false);
    const filters = parseTradeFilters(ctx, req.query, false);
    // Past the reachable window the upstream wraps around and serves earlier rows again instead of an empty page.
    const start = offset >= V1_TRADES_WINDOW ? offset % V1_TRADES_WINDOW : offset;
    const trades = runTradeQuery(ctx, filters, Math.min(V1_TRADES_WINDOW, start + limit));
    return json(trades.slice(start, start + limit).map((t) => served(ctx, t, tradeV1(ctx, t))));
  } catch (error) {
    if (error instanceof BadRequest) return v1Error(error.message);
    throw error;
  }
}

/** A trade row as the feed serves it: junk when the junk switch picks this fill. */
function served(ctx: SimContext, t: Trade, row: Record<string, unknown>): Record<string, unknown> {
  return isJunk(ctx.world, ctx.reality, "trade", t.a * 7 + t.kind, t.b * 131 + t.c * 17 + t.fill) ? junkTrade(row) : row;
}

let traceCounter = 0;
function traceId(): string {
  traceCounter = (traceCounter + 1) % 0xffffff;
  return `${Date.now().toString(16)}${traceCounter.toString(16).padStart(6, "0")}`;
}

function v2Error(trace: string, status: number, code: string, message: string, parameter?: string, retryAfter?: number): SimResponse {
  const body: Record<string, unknown> = { error: message, code, retryable: status === 429 || status === 503, trace_id: trace };
  if (parameter) body.parameter = parameter;
  const headers: Record<string, string> = { "x-trace-id": trace };
  if (retryAfter !== undefined) headers["Retry-After"] = String(retryAfter);
  return json(body, status, headers);
}

// The cursor carries only the seek anchor (the last row's place in the tape); filters are re-sent on every page.
function encodeV2Cursor(t: Trade): string {
  return Buffer.from(JSON.stringify(tradeAnchor(t))).toString("base64url");
}

function decodeV2Cursor(raw: string): TradeAnchor | null {
  try {
    const parsed = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as unknown;
    if (Array.isArray(parsed) && parsed.length === 7 && parsed.every((n) => Number.isInteger(n))) return parsed as TradeAnchor;
  } catch {
    // fall through
  }
  return null;
}

function tradesV2(ctx: SimContext, req: SimRequest): SimResponse {
  const trace = traceId();
  try {
    if (req.query.has("offset")) throw new BadRequest("offset is not supported on v2 endpoints; use cursor", "offset");
    const limit = intParam(req.query, ["limit"], 100, V2_TRADES_LIMIT_CAP, false);
    if (limit < 1) throw new BadRequest("limit must be >= 1", "limit");
    const filters = parseTradeFilters(ctx, req.query, true);
    const cursorRaw = firstParam(req.query, "cursor");
    let after: TradeAnchor | undefined;
    if (cursorRaw) {
      const decoded = decodeV2Cursor(cursorRaw);
      if (!decoded) throw new BadRequest("invalid cursor", "cursor");
      after = decoded;
    }
    let window: { start?: number; end?: number } | undefined;
    if (filters.wallet !== undefined) {
      const start = intParam(req.query, ["start"], 0);
      const end = intParam(req.query, ["end"], Number.MAX_SAFE_INTEGER);
      window = { start: start || undefined, end: end === Number.MAX_SAFE_INTEGER ? undefined : end };
    }
    const rows = runTradeQuery(ctx, filters, limit + 1, after, window);
    const page = rows.slice(0, limit);
    const hasMore = rows.length > limit;
    return json(
      {
        data: page.map((t) => served(ctx, t, tradeV2(ctx, t))),
        pagination: { limit, offset: 0, has_more: hasMore, next_cursor: hasMore ? encodeV2Cursor(page[page.length - 1]) : null },
      },
      200,
      { "x-trace-id": trace },
    );
  } catch (error) {
    if (error instanceof BadRequest) return v2Error(trace, 400, "invalid_request", error.message, error.parameter);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------- holders

export interface HolderRow {
  position: number;
  wallet: number;
  outcome: number;
  amount: number;
}

/** Holders of a market's tokens right now, largest first per outcome. */
export function marketHolders(ctx: SimContext, market: SimMarket): HolderRow[][] {
  const now = Math.floor(ctx.nowMs / 1000);
  const deltas = ctx.flow.deltas(market.index, now);
  const groups: HolderRow[][] = [[], []];
  for (const position of ctx.world.positionsOfMarket(market.index)) {
    const { shares } = ctx.flow.holding(position, deltas.get(position));
    const outcome = ctx.world.posOutcome[position];
    groups[outcome].push({ position, wallet: ctx.world.posWallet[position], outcome, amount: round(shares, 6) });
  }
  for (const g of groups) g.sort((a, b) => b.amount - a.amount || a.wallet - b.wallet);
  return groups;
}

function holders(ctx: SimContext, req: SimRequest): SimResponse {
  try {
    const ids = listParam(req.query, "market");
    if (ids.length === 0) return v1Error("required query param 'market' not provided");
    const limit = intParam(req.query, ["limit"], 20, V1_HOLDERS_LIMIT_CAP);
    const minBalanceRaw = firstParam(req.query, "minBalance");
    const minBalance = minBalanceRaw === null ? 1 : Number(minBalanceRaw);
    if (!Number.isFinite(minBalance)) throw new BadRequest(`invalid minBalance: ${minBalanceRaw}`);
    const out: Record<string, unknown>[] = [];
    for (const m of conditionMarkets(ctx, ids, "market")) {
      const market = ctx.world.markets[m];
      marketHolders(ctx, market).forEach((group, outcome) => {
        const rows = group.filter((h) => h.amount >= minBalance).slice(0, limit);
        if (rows.length === 0) return;
        const token = market.tokenIds[outcome];
        out.push({
          token,
          holders: rows.map((h) => {
            const w = ctx.world.wallet(h.wallet);
            const row = {
              proxyWallet: w.address,
              bio: w.bio,
              asset: token,
              pseudonym: w.pseudonym,
              amount: h.amount,
              displayUsernamePublic: w.displayUsernamePublic,
              outcomeIndex: outcome,
              name: w.name,
              profileImage: w.profileImage,
              profileImageOptimized: "",
              verified: w.verified,
            };
            return isJunk(ctx.world, ctx.reality, "holder", h.position) ? junkHolder(row) : row;
          }),
        });
      });
    }
    return json(out);
  } catch (error) {
    if (error instanceof BadRequest) return v1Error(error.message);
    throw error;
  }
}

/**
 * `/v2/holders?condition=` (docs.polymarket.com/api-reference/markets/list-a-markets-top-holders): `{data: [{token_id,
 * holders}], pagination}`; `limit` per token (default 100, max 1000, max 100 with `include_pnl`); `min_balance` in
 * shares (default 0, applied after netting); cursor paging. Without `include_pnl` a user's amount is netted across
 * the market's two outcomes (held Yes minus held No, on the side that remains); with it, amounts are gross per outcome
 * and rows add avg_price, entry_cost_usdc, current_price, current_value, realized_pnl, unrealized_pnl, total_pnl.
 */
function holdersV2(ctx: SimContext, req: SimRequest): SimResponse {
  const trace = traceId();
  try {
    if (req.query.has("offset")) throw new BadRequest("offset is not supported on v2 endpoints; use cursor", "offset");
    const ids = listParam(req.query, "condition", "condition_id", "conditionId");
    if (ids.length === 0) throw new BadRequest("condition is required", "condition");
    if (ids.length > 20) throw new BadRequest("at most 20 condition ids", "condition");
    const includePnl = boolParam(req.query, ["include_pnl", "includePnl"], false);
    const limit = intParam(req.query, ["limit"], 100, includePnl ? 100 : 1000, false);
    if (limit < 1) throw new BadRequest("limit must be >= 1", "limit");
    const minRaw = firstParam(req.query, "min_balance", "minBalance");
    const minBalance = minRaw === null ? 0 : Number(minRaw);
    if (!Number.isFinite(minBalance) || minBalance < 0) throw new BadRequest(`invalid min_balance: ${minRaw}`, "min_balance");
    // The cursor names the next condition to serve: each page holds one market's groups.
    const cursorRaw = firstParam(req.query, "cursor");
    const markets = conditionMarkets(ctx, ids, "condition");
    let from = 0;
    if (cursorRaw) {
      from = Number(Buffer.from(cursorRaw, "base64url").toString("utf8"));
      if (!Number.isInteger(from) || from < 0 || from > markets.length) throw new BadRequest("invalid cursor", "cursor");
    }
    const now = Math.floor(ctx.nowMs / 1000);
    const data: Record<string, unknown>[] = [];
    const m = markets[from];
    if (m !== undefined) {
      const market = ctx.world.markets[m];
      const groups = marketHolders(ctx, market);
      const deltas = ctx.flow.deltas(market.index, now);
      const held = new Map<number, [number, number]>();
      for (const [outcome, group] of groups.entries()) {
        for (const h of group) {
          const pair = held.get(h.wallet) ?? [0, 0];
          pair[outcome] += h.amount;
          held.set(h.wallet, pair);
        }
      }
      groups.forEach((group, outcome) => {
        const token = market.tokenIds[outcome];
        const current = ctx.prices.displayPrice(market, outcome, now);
        // Gross amounts are already sorted (marketHolders); netted ones must be recomputed and sorted again.
        const ranked = includePnl
          ? group
              .filter((h) => h.amount > 0 && h.amount >= minBalance)
              .slice(0, limit)
              .map((h) => ({ h, amount: h.amount }))
          : group
              .map((h) => {
                const pair = held.get(h.wallet)!;
                return { h, amount: round(Math.max(0, pair[outcome] - pair[1 - outcome]), 6) };
              })
              .filter((r) => r.amount > 0 && r.amount >= minBalance)
              .sort((a, b) => b.amount - a.amount || a.h.wallet - b.h.wallet)
              .slice(0, limit);
        const rows = ranked.map(({ h, amount }) => {
          const w = ctx.world.wallet(h.wallet);
          const row: Record<string, unknown> = {
            proxy_wallet: w.address,
            bio: w.bio,
            token_id: token,
            pseudonym: w.pseudonym,
            amount,
            display_username_public: w.displayUsernamePublic,
            outcome_index: outcome,
            name: w.name,
            profile_image: w.profileImage,
            profile_image_optimized: "",
            verified: w.verified,
          };
          if (includePnl) {
            const holding = ctx.flow.holding(h.position, deltas.get(h.position));
            const avg = round(holding.avgPrice, 6);
            const cost = amount * avg;
            Object.assign(row, {
              avg_price: avg,
              entry_cost_usdc: cost,
              current_price: current,
              current_value: amount * current,
              realized_pnl: holding.realizedPnl,
              unrealized_pnl: amount * current - cost,
              total_pnl: holding.realizedPnl + amount * current - cost,
            });
          }
          return isJunk(ctx.world, ctx.reality, "holder", h.position) ? junkHolder(row) : row;
        });
        if (rows.length) data.push({ token_id: token, holders: rows });
      });
    }
    const hasMore = from + 1 < markets.length;
    return json(
      {
        data,
        pagination: {
          limit,
          offset: 0,
          has_more: hasMore,
          next_cursor: hasMore ? Buffer.from(String(from + 1)).toString("base64url") : null,
        },
      },
      200,
      { "x-trace-id": trace },
    );
  } catch (error) {
    if (error instanceof BadRequest) return v2Error(trace, 400, "invalid_request", error.message, error.parameter);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------- positions

const POSITION_SORTS = ["CURRENT", "INITIAL", "TOKENS", "CASHPNL", "PERCENTPNL", "TITLE", "RESOLVING", "PRICE", "AVGPRICE"] as const;

function positions(ctx: SimContext, req: SimRequest): SimResponse {
  try {
    const q = req.query;
    const user = q.get("user");
    if (!user) return v1Error("required query param 'user' not provided");
    if (!ADDRESS.test(user)) throw new BadRequest(`invalid user: ${user}`);
    const limit = intParam(q, ["limit"], 100, 500);
    const offset = intParam(q, ["offset"], 0, 10_000, false);
    const thresholdRaw = q.get("sizeThreshold");
    const sizeThreshold = thresholdRaw === null ? 1 : Number(thresholdRaw);
    if (!Number.isFinite(sizeThreshold)) throw new BadRequest(`invalid sizeThreshold: ${thresholdRaw}`);
    const sortBy = (q.get("sortBy") ?? "TOKENS").toUpperCase();
    if (!(POSITION_SORTS as readonly string[]).includes(sortBy)) throw new BadRequest(`invalid sortBy: ${sortBy}`);
    const direction = (q.get("sortDirection") ?? "DESC").toUpperCase() === "ASC" ? 1 : -1;
    const marketFilter = listParam(q, "market");
    const eventFilter = listParam(q, "eventId");
    const allowed = marketFilter.length
      ? new Set(conditionMarkets(ctx, marketFilter, "market"))
      : eventFilter.length
        ? new Set(eventMarkets(ctx, eventFilter, "eventId"))
        : null;
    const title = q.get("title")?.toLowerCase();
    const redeemable = q.get("redeemable");
    const wallet = ctx.world.walletByAddress.get(user.toLowerCase());
    if (wallet === undefined) return json([]);
    const now = Math.floor(ctx.nowMs / 1000);
    const rows: Record<string, unknown>[] = [];
    for (const position of ctx.world.positionsOfWallet(wallet)) {
      const market = ctx.world.markets[ctx.world.posMarket[position]];
      if (allowed && !allowed.has(market.index)) continue;
      if (title && !market.question.toLowerCase().includes(title)) continue;
      const event = ctx.world.events[market.eventIndex];
      const outcome = ctx.world.posOutcome[position];
      const h = ctx.flow.holding(position, ctx.flow.deltas(market.index, now).get(position));
      if (h.shares < sizeThreshold) continue;
      const curPrice = ctx.prices.displayPrice(market, outcome, now);
      const isRedeemable = market.closed && now >= market.closedSec;
      if (redeemable === "true" && !isRedeemable) continue;
      if (redeemable === "false" && isRedeemable) continue;
      const size = round(h.shares, 6);
      const initialValue = size * h.avgPrice;
      const currentValue = size * curPrice;
      rows.push({
        proxyWallet: ctx.world.walletAddress(wallet),
        asset: market.tokenIds[outcome],
        conditionId: market.conditionId,
        size,
        avgPrice: round(h.avgPrice, 6),
        initialValue,
        currentValue,
        cashPnl: currentValue - initialValue,
        percentPnl: initialValue > 0 ? ((currentValue - initialValue) / initialValue) * 100 : 0,
        totalBought: round(h.totalBought, 6),
        realizedPnl: h.realizedPnl,
        percentRealizedPnl: initialValue > 0 ? (h.realizedPnl / initialValue) * 100 : 0,
        curPrice,
        redeemable: isRedeemable,
        mergeable: false,
        title: market.question,
        slug: market.slug,
        icon: market.icon,
        eventId: event.id,
        eventSlug: event.slug,
        outcome: market.outcomes[outcome],
        outcomeIndex: outcome,
        oppositeOutcome: market.outcomes[1 - outcome],
        oppositeAsset: market.tokenIds[1 - outcome],
        endDate: isoDate(market.endMs),
        negativeRisk: event.negRisk,
      });
    }
    const key: Record<string, (r: Record<string, unknown>) => number | string> = {
      CURRENT: (r) => r.currentValue as number,
      INITIAL: (r) => r.initialValue as number,
      TOKENS: (r) => r.size as number,
      CASHPNL: (r) => r.cashPnl as number,
      PERCENTPNL: (r) => r.percentPnl as number,
      TITLE: (r) => r.title as string,
      RESOLVING: (r) => r.endDate as string,
      PRICE: (r) => r.curPrice as number,
      AVGPRICE: (r) => r.avgPrice as number,
    };
    const k = key[sortBy];
    rows.sort((a, b) => {
      const x = k(a);
      const y = k(b);
      const c = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
      return direction * c || String(a.asset).localeCompare(String(b.asset));
    });
    return json(rows.slice(offset, offset + limit));
  } catch (error) {
    if (error instanceof BadRequest) return v1Error(error.message);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------- open interest

/** A market's priced gross open interest: every outcome's held shares at that outcome's current price (USDC). */
export function marketOpenInterest(ctx: SimContext, market: SimMarket): number {
  const now = Math.floor(ctx.nowMs / 1000);
  let value = 0;
  marketHolders(ctx, market).forEach((group, outcome) => {
    const price = ctx.prices.displayPrice(market, outcome, now);
    for (const h of group) value += h.amount * price;
  });
  return round(value, 6);
}

function globalOpenInterest(ctx: SimContext): number {
  return round(
    ctx.world.markets.reduce((sum, market) => sum + marketOpenInterest(ctx, market), 0),
    6,
  );
}

/**
 * v1 `/oi?market=0x…,0x…` → `[{market, value}]`; no `market`: one row `{market: "GLOBAL"}` (docs.polymarket.com
 * api-reference/misc/get-open-interest: `market` is a form-style array of Hash64; an unknown id has no row).
 */
function openInterestV1(ctx: SimContext, req: SimRequest): SimResponse {
  try {
    const ids = listParam(req.query, "market");
    if (ids.length === 0) return json([{ market: "GLOBAL", value: globalOpenInterest(ctx) }]);
    return json(
      conditionMarkets(ctx, ids, "market").map((m) => ({
        market: ctx.world.markets[m].conditionId,
        value: marketOpenInterest(ctx, ctx.world.markets[m]),
      })),
    );
  } catch (error) {
    if (error instanceof BadRequest) return v1Error(error.message);
    throw error;
  }
}

/**
 * v2 `/v2/oi?condition=…` → `{data: [{condition_id, value}]}`, no pagination; aliases `condition_id`/`conditionId`; at
 * most 20 distinct ids; a malformed id is a 400 naming the value; an id that resolves to no market has no row; no
 * `condition`: the one `GLOBAL` row (docs.polymarket.com api-reference/markets/get-open-interest, Data API v2 OpenAPI).
 */
function openInterestV2(ctx: SimContext, req: SimRequest): SimResponse {
  const trace = traceId();
  try {
    const ids = [...new Set(listParam(req.query, "condition", "condition_id", "conditionId").map((id) => id.toLowerCase()))];
    if (ids.length > 20) throw new BadRequest("at most 20 distinct condition ids", "condition");
    if (ids.length === 0) return json({ data: [{ condition_id: "GLOBAL", value: globalOpenInterest(ctx) }] }, 200, { "x-trace-id": trace });
    const data = conditionMarkets(ctx, ids, "condition").map((m) => ({
      condition_id: ctx.world.markets[m].conditionId,
      value: marketOpenInterest(ctx, ctx.world.markets[m]),
    }));
    return json({ data }, 200, { "x-trace-id": trace });
  } catch (error) {
    if (error instanceof BadRequest) return v2Error(trace, 400, "invalid_request", error.message, error.parameter);
    throw error;
  }
}

export function handleData(ctx: SimContext, req: SimRequest): SimResponse {
  if (req.method !== "GET") return v1Error("method not allowed", 405);
  const path = req.path.replace(/\/+$/, "") || "/";
  if (path === "/trades") return tradesV1(ctx, req);
  if (path === "/v2/trades") return tradesV2(ctx, req);
  if (path === "/holders") return holders(ctx, req);
  if (path === "/v2/holders") return holdersV2(ctx, req);
  if (path === "/positions") return positions(ctx, req);
  if (path === "/oi") return openInterestV1(ctx, req);
  if (path === "/v2/oi") return openInterestV2(ctx, req);
  if (path.startsWith("/v2/")) return v2Error(traceId(), 404, "not_found", "not found");
  if (path === "/" || path === "/ok") return json({ data: "OK" });
  return v1Error("not found", 404);
}
