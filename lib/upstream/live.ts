// Services behind the four `-live` endpoints: resolve the market or event through Gamma, fetch holders / trades /
// price history, shape the body, and cache it per endpoint and parameters (DESIGN.md TTLs) with stale-on-error.
import { ApiError } from "@/lib/api/errors";
import { LIVE_DEFAULTS, type LiveHolderGroup, type LiveMeta, type LiveSeries, type LiveTrade } from "@/lib/api/endpoints/predmkt-live";
import { type Cached, cachedLoad } from "./cache";
import * as clob from "./clob";
import * as data from "./data";
import * as gamma from "./gamma";
import { defaultDeadline } from "./http";
import type { NormalizedHolderGroup, NormalizedMarket, NormalizedTrade, PriceHistoryInterval, TradeSide } from "./types";

/** Seconds a live body stays fresh (DESIGN.md "Caching and upstream discipline"; the spec allows 10–90 s). */
export const LIVE_TTL_S = { holders: 60, marketActivity: 15, eventActivity: 10, eventHistory: 90 } as const;

export interface LiveBody<T> {
  data: T;
  meta: LiveMeta;
  /** `Cache-Control` value for this body: private, fresh for the rest of its TTL. */
  cacheControl: string;
}

function liveBody<T>(cached: Cached<T>, extra: Partial<LiveMeta> = {}): LiveBody<T> {
  return {
    data: cached.value,
    meta: {
      source: "live",
      as_of: new Date(cached.fetchedAt).toISOString(),
      cache: cached.cache,
      age_s: cached.ageS,
      ...extra,
    },
    cacheControl: `private, max-age=${cached.ttlRemainingS}`,
  };
}

/** Sets the body's Cache-Control on the response headers and returns the `{data, meta}` body. */
export function respondLive<T>(headers: Headers, body: LiveBody<T>): { data: T; meta: LiveMeta } {
  headers.set("Cache-Control", body.cacheControl);
  return { data: body.data, meta: body.meta };
}

async function resolveMarket(id: string, deadline: number): Promise<NormalizedMarket> {
  const market = await gamma.getMarket(id, { deadline });
  if (!market) throw new ApiError("not_found", `No market with id '${id}'.`);
  return market;
}

async function resolveEvent(slug: string, deadline: number) {
  const event = await gamma.getEventBySlug(slug, { deadline });
  if (!event) throw new ApiError("not_found", `No event with slug '${slug}'.`);
  return event;
}

/** One group per outcome of the market, in outcome order, even when an outcome has no holders. */
function holderGroups(market: NormalizedMarket, groups: NormalizedHolderGroup[], limit: number): LiveHolderGroup[] {
  return market.outcomes.map((outcome) => {
    const group =
      groups.find((g) => outcome.token_id !== null && g.token_id === outcome.token_id) ??
      groups.find((g) => g.outcome_index === outcome.index && !market.outcomes.some((o) => o.token_id === g.token_id && o.index !== outcome.index));
    return {
      outcome: outcome.name,
      outcome_index: outcome.index,
      token_id: outcome.token_id,
      holders: (group?.holders ?? []).slice(0, limit).map((h) => ({
        wallet: h.wallet,
        pseudonym: h.pseudonym,
        name: h.name,
        outcome: outcome.name,
        outcome_index: outcome.index,
        shares: h.shares,
        verified: h.verified,
      })),
    };
  });
}

function liveTrade(trade: NormalizedTrade, marketIdByCondition: Map<string, string>, fallbackEventSlug: string | null): LiveTrade {
  return {
    id: trade.id,
    tx_hash: trade.tx_hash,
    market_id: trade.market_id ?? marketIdByCondition.get(trade.condition_id.toLowerCase()) ?? null,
    condition_id: trade.condition_id,
    token_id: trade.token_id,
    event_slug: trade.event_slug ?? fallbackEventSlug,
    question: trade.question,
    outcome: trade.outcome,
    outcome_index: trade.outcome_index,
    side: trade.side,
    price: trade.price,
    shares: trade.shares,
    usd_size: trade.usd_size,
    wallet: trade.wallet,
    pseudonym: trade.pseudonym,
    timestamp: trade.timestamp,
  };
}

async function fetchHolderGroups(market: NormalizedMarket, limit: number, deadline: number): Promise<LiveHolderGroup[]> {
  const groups = market.condition_id ? await data.getHolders(market.condition_id, limit, { deadline }) : [];
  return holderGroups(market, groups, limit);
}

// ---------------------------------------------------------------------------------------------------------------

// Route queries arrive validated with defaults applied; the `?? default` only satisfies the optional typing of
// intParam/enumParam.
export async function getHoldersLive(id: string, params: { limit?: number }): Promise<LiveBody<LiveHolderGroup[]>> {
  const query = { limit: params.limit ?? LIVE_DEFAULTS.holdersLimit };
  const cached = await cachedLoad(`live:holders:${id.toLowerCase()}:${query.limit}`, { ttlS: LIVE_TTL_S.holders }, async () => {
    const deadline = defaultDeadline();
    const market = await resolveMarket(id, deadline);
    return fetchHolderGroups(market, query.limit, deadline);
  });
  return liveBody(cached, { limit: query.limit, count: cached.value.length });
}

/** The largest `limit` the trade feeds accept: upstream pages are fetched at this size and cut per caller. */
const TRADES_MAX_LIMIT = 500;

type MarketActivity = { market: { id: string; condition_id: string; question: string }; holders: LiveHolderGroup[]; trades: LiveTrade[] };

export async function getMarketActivityLive(
  id: string,
  params: { holders_limit?: number; trades_limit?: number },
): Promise<LiveBody<MarketActivity>> {
  const query = {
    holders_limit: params.holders_limit ?? LIVE_DEFAULTS.activityHoldersLimit,
    trades_limit: params.trades_limit ?? LIVE_DEFAULTS.activityTradesLimit,
  };
  // Trades are fetched at the largest `trades_limit` and cut per caller, so that parameter never splits the cache.
  const key = `live:market-activity:${id.toLowerCase()}:${query.holders_limit}`;
  const cached = await cachedLoad(key, { ttlS: LIVE_TTL_S.marketActivity }, async (): Promise<MarketActivity> => {
    const deadline = defaultDeadline();
    const market = await resolveMarket(id, deadline);
    if (!market.condition_id) throw new ApiError("upstream_unavailable", `The upstream has no condition id for market '${id}'.`);
    // Independent upstream calls: run them side by side.
    const [holders, trades] = await Promise.all([
      fetchHolderGroups(market, query.holders_limit, deadline),
      data.listTrades({ market: market.condition_id, limit: TRADES_MAX_LIMIT }, { deadline }),
    ]);
    const byCondition = new Map([[market.condition_id.toLowerCase(), market.id]]);
    return {
      market: { id: market.id, condition_id: market.condition_id, question: market.question },
      holders,
      trades: trades.trades.slice(0, TRADES_MAX_LIMIT).map((t) => liveTrade(t, byCondition, market.event_slug)),
    };
  });
  const value = { ...cached.value, trades: cached.value.trades.slice(0, query.trades_limit) };
  return liveBody({ ...cached, value }, { count: value.trades.length });
}

export async function getEventActivityLive(
  slug: string,
  params: { side?: TradeSide; min_usd?: number; limit?: number },
): Promise<LiveBody<LiveTrade[]>> {
  const query = { side: params.side, min_usd: params.min_usd ?? 0, limit: params.limit ?? LIVE_DEFAULTS.eventActivityLimit };
  // The upstream page is fetched at the largest `limit` and cut here, so callers varying `limit` share one cached
  // body (and one upstream call) instead of each costing a fresh one.
  const key = `live:event-activity:${slug}:${query.side ?? "both"}:${query.min_usd}`;
  const cached = await cachedLoad(key, { ttlS: LIVE_TTL_S.eventActivity }, async () => {
    const deadline = defaultDeadline();
    const event = await resolveEvent(slug, deadline);
    if (event.markets.length === 0) return [];
    const page = await data.listTrades({ eventId: event.id, side: query.side, minUsd: query.min_usd, limit: TRADES_MAX_LIMIT }, { deadline });
    const byCondition = new Map(event.markets.filter((m) => m.condition_id).map((m) => [m.condition_id!.toLowerCase(), m.id]));
    // Filters were applied (upstream and again in listTrades) before any limit.
    return page.trades.slice(0, TRADES_MAX_LIMIT).map((t) => liveTrade(t, byCondition, event.slug));
  });
  const trades = cached.value.slice(0, query.limit);
  return liveBody({ ...cached, value: trades }, { limit: query.limit, count: trades.length });
}

export async function getEventHistoryLive(
  slug: string,
  params: { interval?: PriceHistoryInterval; markets?: number },
): Promise<LiveBody<LiveSeries[]>> {
  const query = { interval: params.interval ?? LIVE_DEFAULTS.historyInterval, markets: params.markets ?? LIVE_DEFAULTS.historyMarkets };
  const key = `live:event-history:${slug}:${query.interval}:${query.markets}`;
  const cached = await cachedLoad(key, { ttlS: LIVE_TTL_S.eventHistory }, async () => {
    const deadline = defaultDeadline();
    const event = await resolveEvent(slug, deadline);
    const top = event.markets
      .filter((m) => m.outcomes[0]?.token_id)
      .sort((a, b) => b.volume_usd - a.volume_usd)
      .slice(0, query.markets);
    // Concurrent; the per-host cap keeps a 20-market event from bursting the CLOB.
    return Promise.all(
      top.map(async (m): Promise<LiveSeries> => {
        const outcome = m.outcomes[0];
        const points = await clob.getPricesHistory(outcome.token_id!, { interval: query.interval }, { deadline });
        return {
          market_id: m.id,
          condition_id: m.condition_id,
          question: m.question,
          outcome: outcome.name,
          token_id: outcome.token_id!,
          volume_usd: m.volume_usd,
          points,
        };
      }),
    );
  });
  return liveBody(cached, { count: cached.value.length });
}
