// Services behind the four `-live` endpoints: resolve the market or event through Gamma, fetch holders / trades /
// price history, shape the body, and cache it per endpoint and parameters (docs/api-decisions.md#caching) with stale-on-error.
// The bodies here match the `-live` contracts (lib/api/endpoints/predmkt-live.ts), which validate every response;
// services never import the contracts themselves. Route queries arrive validated with their defaults applied.
import { cachedAnswer, type CachedAnswer } from "@/lib/api/cached-answer";
import { ApiError, upstreamError } from "@/lib/api/errors";
import { env } from "@/lib/env";
import { type Cached, cachedLoad } from "@/lib/upstream/cache";
import * as clob from "@/lib/upstream/clob";
import * as data from "@/lib/upstream/data";
import * as gamma from "@/lib/upstream/gamma";
import { defaultDeadline } from "@/lib/upstream/http";
import { walletUrl } from "@/lib/upstream/ids";
import { canonicalConditionId } from "@/lib/upstream/ids";
import type {
  NormalizedHolder,
  NormalizedHolderGroup,
  NormalizedMarket,
  NormalizedTrade,
  PriceHistoryInterval,
  PricePoint,
  TradeSide,
} from "@/lib/upstream/types";

interface LiveMeta {
  source: "live";
  as_of: string;
  cache: "hit" | "miss" | "stale";
  age_s: number;
  limit?: number;
  count?: number;
  [key: string]: unknown;
}

/** A holder as the -live bodies show it: the normalised holder's identity and position, under its outcome's name. */
type LiveHolder = Pick<NormalizedHolder, "wallet" | "pseudonym" | "name" | "shares" | "avg_price" | "verified"> & {
  outcome: string;
  outcome_index: number;
  wallet_url: string;
};

interface LiveHolderGroup {
  outcome: string;
  outcome_index: number;
  token_id: string | null;
  holders: LiveHolder[];
}

/** A trade as the -live bodies show it: the normalised trade without the fields the contract leaves out. */
type LiveTrade = Omit<NormalizedTrade, "market_slug" | "name" | "timestamp_s"> & { wallet_url: string };

interface LiveSeries {
  market_id: string;
  condition_id: string | null;
  question: string;
  outcome: string;
  token_id: string;
  volume_usd: number;
  points: PricePoint[];
}

/** Seconds a live body stays fresh (docs/api-decisions.md#caching: 10–90 s). */
export const LIVE_TTL_S = { holders: 60, marketActivity: 15, eventActivity: 10, eventHistory: 90 } as const;

/** A body's TTL: the documented one, or a test server's shorter cap (LIVE_TTL_MAX_S, refused on a deployment). */
const ttl = (name: keyof typeof LIVE_TTL_S) => (env.LIVE_TTL_MAX_S > 0 ? Math.min(LIVE_TTL_S[name], env.LIVE_TTL_MAX_S) : LIVE_TTL_S[name]);

interface LiveBody<T> {
  data: T;
  meta: LiveMeta;
  /** Seconds this body stays fresh (the rest of its TTL; 0 when stale): its `Cache-Control: max-age`. */
  maxAgeS: number;
}

function liveBody<T>(cached: Cached<T>, extra: Partial<LiveMeta> = {}, producedAtMs?: number): LiveBody<T> {
  // `as_of` is when the upstream produced the data (a CDN's `Age` taken off our fetch time), not when we asked
  // (docs/upstream-live.md, "Fresh Data API reads"); `age_s` counts from there.
  const asOf = Math.min(cached.fetchedAt, producedAtMs ?? Infinity);
  return {
    data: cached.value,
    meta: {
      source: "live",
      as_of: new Date(asOf).toISOString(),
      cache: cached.cache,
      age_s: Math.max(cached.ageS, Math.floor((Date.now() - asOf) / 1000)),
      ...extra,
    },
    maxAgeS: cached.ttlRemainingS,
  };
}

/** A loaded value with the time its oldest Data API part was produced upstream. */
interface Produced<T> {
  value: T;
  producedAtMs: number;
}

/** Call options for Data API reads behind a `-live` answer: fresh (cache-busted), and the oldest part's age noted. */
function freshReads(deadline: number) {
  const seen = { producedAtMs: Date.now() };
  return {
    seen,
    options: { deadline, fresh: true, onProducedAt: (ms: number) => void (seen.producedAtMs = Math.min(seen.producedAtMs, ms)) },
  };
}

/**
 * The `{data, meta}` body as a cached answer: one version per upstream fetch (and cache status). `meta.age_s` ticks
 * within a version, so its ETag is weak and its bytes are built at most once a second.
 */
export function liveAnswer<T>(body: LiveBody<T>): CachedAnswer<{ data: T; meta: LiveMeta }> {
  const identity = {
    version: `live:${body.meta.as_of}:${body.meta.cache}`,
    variant: String(body.meta.age_s),
    maxAgeS: body.maxAgeS,
    weak: true,
  };
  return cachedAnswer(identity, () => ({ data: body.data, meta: body.meta }));
}

/** A live endpoint's 404 (unknown market or event) as its cache holds it: an answer like a body. */
interface NotFoundAnswer {
  not_found: string;
}

function isNotFoundAnswer(value: unknown): value is NotFoundAnswer {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).join() === "not_found";
}

/**
 * cachedLoad for a live endpoint: an unknown id or slug is cached for the endpoint's TTL like a body, so asking for it
 * again costs no upstream call until the TTL ends (SECURITY.md, upstream discipline).
 */
async function cachedLive<T>(key: string, ttlS: number, load: () => Promise<T>): Promise<Cached<T>> {
  const cached = await cachedLoad<T | NotFoundAnswer>(key, { ttlS }, async () => {
    try {
      return await load();
    } catch (error) {
      if (error instanceof ApiError && error.code === "not_found") return { not_found: error.message };
      throw error;
    }
  });
  if (isNotFoundAnswer(cached.value)) throw new ApiError("not_found", cached.value.not_found);
  return cached as Cached<T>;
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
      groups.find(
        (g) => g.outcome_index === outcome.index && !market.outcomes.some((o) => o.token_id === g.token_id && o.index !== outcome.index),
      );
    return {
      outcome: outcome.name,
      outcome_index: outcome.index,
      token_id: outcome.token_id,
      holders: (group?.holders ?? []).slice(0, limit).map((h) => ({
        wallet: h.wallet,
        wallet_url: walletUrl(h.wallet),
        pseudonym: h.pseudonym,
        name: h.name,
        outcome: outcome.name,
        outcome_index: outcome.index,
        shares: h.shares,
        avg_price: h.avg_price,
        verified: h.verified,
      })),
    };
  });
}

function liveTrade(trade: NormalizedTrade, marketIdByCondition: Map<string, string>, fallbackEventSlug: string | null): LiveTrade {
  return {
    id: trade.id,
    tx_hash: trade.tx_hash,
    market_id: trade.market_id ?? marketIdByCondition.get(canonicalConditionId(trade.condition_id)) ?? null,
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
    wallet_url: walletUrl(trade.wallet),
    pseudonym: trade.pseudonym,
    timestamp: trade.timestamp,
  };
}

async function fetchHolderGroups(
  market: NormalizedMarket,
  limit: number,
  options: { deadline: number; fresh?: boolean; onProducedAt?: (ms: number) => void },
): Promise<LiveHolderGroup[]> {
  const groups = market.condition_id ? await data.getHolders(market.condition_id, limit, options) : [];
  return holderGroups(market, groups, limit);
}

// ---------------------------------------------------------------------------------------------------------------

export async function getHoldersLive(id: string, query: { limit: number }): Promise<LiveBody<LiveHolderGroup[]>> {
  const cached = await cachedLive(`live:holders:${id.toLowerCase()}:${query.limit}`, ttl("holders"), async () => {
    const deadline = defaultDeadline();
    const market = await resolveMarket(id, deadline);
    const reads = freshReads(deadline);
    const value = await fetchHolderGroups(market, query.limit, reads.options);
    return { value, producedAtMs: reads.seen.producedAtMs } satisfies Produced<LiveHolderGroup[]>;
  });
  const groups = cached.value.value;
  return liveBody({ ...cached, value: groups }, { limit: query.limit, count: groups.length }, cached.value.producedAtMs);
}

/** The largest `limit` the trade feeds accept: upstream pages are fetched at this size and cut per caller. */
const TRADES_MAX_LIMIT = 500;

type MarketActivity = { market: { id: string; condition_id: string; question: string }; holders: LiveHolderGroup[]; trades: LiveTrade[] };

export async function getMarketActivityLive(
  id: string,
  query: { holders_limit: number; trades_limit: number },
): Promise<LiveBody<MarketActivity>> {
  // Trades are fetched at the largest `trades_limit` and cut per caller, so that parameter never splits the cache.
  const key = `live:market-activity:${id.toLowerCase()}:${query.holders_limit}`;
  const cached = await cachedLive(key, ttl("marketActivity"), async (): Promise<Produced<MarketActivity>> => {
    const deadline = defaultDeadline();
    const reads = freshReads(deadline);
    const market = await resolveMarket(id, deadline);
    if (!market.condition_id) {
      throw upstreamError(
        "upstream_unavailable",
        "gamma",
        `Gamma has no condition id for market '${id}'.`,
        "the market has no condition id",
      );
    }
    // Independent upstream calls: run them side by side.
    const [holders, trades] = await Promise.all([
      fetchHolderGroups(market, query.holders_limit, reads.options),
      data.listTrades({ market: market.condition_id, limit: TRADES_MAX_LIMIT }, reads.options),
    ]);
    const byCondition = new Map([[canonicalConditionId(market.condition_id), market.id]]);
    const value = {
      market: { id: market.id, condition_id: market.condition_id, question: market.question },
      holders,
      trades: trades.trades.slice(0, TRADES_MAX_LIMIT).map((t) => liveTrade(t, byCondition, market.event_slug)),
    };
    return { value, producedAtMs: reads.seen.producedAtMs };
  });
  const value = { ...cached.value.value, trades: cached.value.value.trades.slice(0, query.trades_limit) };
  return liveBody({ ...cached, value }, { count: value.trades.length }, cached.value.producedAtMs);
}

export async function getEventActivityLive(
  slug: string,
  query: { side?: TradeSide; min_usd?: number; limit: number },
): Promise<LiveBody<LiveTrade[]>> {
  // The upstream page is fetched at the largest `limit` and without `min_usd`, and filtered and cut here: `limit` and
  // `min_usd` only narrow the list, so callers varying them share one cached body (and one upstream call) instead of
  // each costing a fresh one. The size filter therefore applies to the event's latest TRADES_MAX_LIMIT trades.
  const minUsd = query.min_usd ?? 0;
  const key = `live:event-activity:${slug}:${query.side ?? "both"}`;
  const cached = await cachedLive(key, ttl("eventActivity"), async (): Promise<Produced<LiveTrade[]>> => {
    const deadline = defaultDeadline();
    const event = await resolveEvent(slug, deadline);
    if (event.markets.length === 0) return { value: [], producedAtMs: Date.now() };
    const reads = freshReads(deadline);
    const page = await data.listTrades({ eventId: event.id, side: query.side, limit: TRADES_MAX_LIMIT }, reads.options);
    const byCondition = new Map(event.markets.filter((m) => m.condition_id).map((m) => [canonicalConditionId(m.condition_id!), m.id]));
    // The side filter was applied (upstream and again in listTrades) before any limit; `min_usd` is applied per caller.
    const value = page.trades.slice(0, TRADES_MAX_LIMIT).map((t) => liveTrade(t, byCondition, event.slug));
    return { value, producedAtMs: reads.seen.producedAtMs };
  });
  const trades = cached.value.value.filter((t) => t.usd_size >= minUsd).slice(0, query.limit);
  return liveBody({ ...cached, value: trades }, { limit: query.limit, count: trades.length }, cached.value.producedAtMs);
}

export async function getEventHistoryLive(
  slug: string,
  query: { interval: PriceHistoryInterval; markets: number },
): Promise<LiveBody<LiveSeries[]>> {
  const key = `live:event-history:${slug}:${query.interval}:${query.markets}`;
  const cached = await cachedLive(key, ttl("eventHistory"), async () => {
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
        // A closed market's history is empty below 12-hour fidelity upstream: clob raises it for closed markets.
        const points = await clob.getPricesHistory(outcome.token_id!, { interval: query.interval, closed: m.closed }, { deadline });
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
