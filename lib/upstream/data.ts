// Data API client: trades (v1 offset or v2 cursor paging), holders (v2 with entry prices, v1 fallback), positions,
// open interest (v2, v1 fallback).
// Both the v1 (camelCase, bare array) and v2 (snake_case, `{data, pagination}`) bodies are accepted on every call;
// rows are parsed one by one and a row we cannot use is dropped and reported, not the page.
import { reportDropped } from "./dropped";
import { fetchUpstream } from "./http";
import { ListBodySchema, parseHolderGroups, parseOpenInterest, parsePositions, parseTrades } from "./schemas";
import type { NormalizedHolderGroup, NormalizedPosition, TradeSide, TradesPage, UpstreamCallOptions } from "./types";

/**
 * How far behind the block the Data API's trade lists can be even uncached: rebuilt every ~4 s, a fill shows 3–11 s
 * after its block (research note, docs/upstream-live.md "Fresh Data API reads"). A list is reported as of its
 * production time minus this, the instant up to which it holds every fill.
 */
export const TRADE_LIST_LAG_MS = 11_000;

/** v1 `/holders` answers at most 20 holders per token (docs: get-top-holders-for-markets). */
export const V1_HOLDERS_MAX = 20;
/** v2 `/v2/holders` answers up to 100 per token with `include_pnl=true` (1000 without). */
export const V2_HOLDERS_PNL_MAX = 100;
/** After v2 holders answered 401/403/404, v1 is used for this long before v2 is tried again. */
export const V2_HOLDERS_RETRY_MS = 10 * 60_000;

const list = (value: string | string[] | undefined) => (value === undefined ? undefined : Array.isArray(value) ? value.join(",") : value);

export interface ListTradesParams {
  /** Condition id(s). Mutually exclusive with eventId (the Data API refuses both). */
  market?: string | string[];
  /** Gamma event id(s) (digits). */
  eventId?: string | string[];
  /** Proxy wallet address. */
  user?: string;
  side?: TradeSide;
  /** Minimum USD notional (shares × price), sent as the upstream's CASH filter and re-applied here. */
  minUsd?: number;
  /** 1..1000 (v2) / 1..10000 (v1). Default 100. */
  limit?: number;
  /** v1 offset paging (the upstream caps and wraps around past a few thousand: prefer the cursor). */
  offset?: number;
  /** v2 cursor paging: pass `next_cursor` of the previous page. Using it (or `version: "v2"`) calls `/v2/trades`. */
  cursor?: string | null;
  version?: "v1" | "v2";
  /** Default true: each fill once (taker side). */
  takerOnly?: boolean;
}

/** Trades, newest first. Filters are applied upstream and again locally, so a filter the upstream ignores still holds. */
export async function listTrades(params: ListTradesParams = {}, options: UpstreamCallOptions = {}): Promise<TradesPage> {
  const v2 = params.version === "v2" || (params.cursor !== undefined && params.cursor !== null);
  const limit = params.limit ?? 100;
  const cash = params.minUsd !== undefined && params.minUsd > 0 ? params.minUsd : undefined;
  const query = v2
    ? {
        condition: list(params.market),
        event_id: list(params.eventId),
        user: params.user,
        side: params.side,
        limit,
        cursor: params.cursor ?? undefined,
        taker_only: params.takerOnly ?? true,
        filter_type: cash !== undefined ? "CASH" : undefined,
        filter_amount: cash,
      }
    : {
        market: list(params.market),
        eventId: list(params.eventId),
        user: params.user,
        side: params.side,
        limit,
        offset: params.offset,
        takerOnly: params.takerOnly ?? true,
        filterType: cash !== undefined ? "CASH" : undefined,
        filterAmount: cash,
      };
  const path = v2 ? "/v2/trades" : "/trades";
  const body = await fetchUpstream({ host: "data", path, query }, ListBodySchema, {
    deadline: options.deadline,
    fresh: options.fresh,
    // A trade list is complete only up to TRADE_LIST_LAG_MS before it was produced: that is the data's time.
    onProducedAt: options.onProducedAt && ((ms: number) => options.onProducedAt!(ms - TRADE_LIST_LAG_MS)),
  });
  const parsed = parseTrades(body!.rows);
  const trades = parsed.items
    .filter((t) => (params.side ? t.side === params.side : true))
    .filter((t) => (cash !== undefined ? t.usd_size >= cash : true))
    .sort((a, b) => b.timestamp_s - a.timestamp_s);
  return { trades, next_cursor: body!.next_cursor, dropped: reportDropped(parsed.dropped, `data ${path}`) };
}

// When /v2/holders answers 401/403/404 (a deployment without it, an auth change) v1 serves until this time, then v2
// is tried again: one failure must not pin the process to v1's netting-free 20 rows for its whole life.
const globalForData = globalThis as unknown as { __predmktV2HoldersRetryAt?: number };

/** Testing aid: forget that v2 holders failed. */
export function resetHoldersFallback(): void {
  globalForData.__predmktV2HoldersRetryAt = undefined;
}

const V2_HOLDERS_MAX_PAGES = 5;

async function holdersV2(conditionId: string, limit: number, options: UpstreamCallOptions) {
  const rows: unknown[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < V2_HOLDERS_MAX_PAGES; page++) {
    // `include_pnl=true` makes amounts gross per outcome (not netted per user across outcomes) and adds avg_price.
    const body: { rows: unknown[]; next_cursor: string | null } | null = await fetchUpstream(
      {
        host: "data",
        path: "/v2/holders",
        query: { condition: conditionId, limit: Math.min(limit, V2_HOLDERS_PNL_MAX), include_pnl: true, cursor: cursor ?? undefined },
      },
      ListBodySchema,
      { deadline: options.deadline, nullOnStatus: [401, 403, 404], fresh: options.fresh, onProducedAt: options.onProducedAt },
    );
    if (body === null) return null;
    rows.push(...body.rows);
    if (!body.next_cursor || body.next_cursor === cursor) break;
    cursor = body.next_cursor;
  }
  return rows;
}

/**
 * Top holders of each outcome token of one market, gross per outcome with their average entry price where the
 * upstream gives it. The Data API keys holders by condition id (not token id) and answers one group per token;
 * groups are merged by token (v2 pages may split one). Holders sorted by shares, desc. v2 `/v2/holders?include_pnl=true`
 * first (≤ 100 per token); v1 `/holders` (≤ 20 per token, no entry price) when v2 is refused.
 */
export async function getHolders(conditionId: string, limit = 20, options: UpstreamCallOptions = {}): Promise<NormalizedHolderGroup[]> {
  const retryAt = globalForData.__predmktV2HoldersRetryAt;
  let rows = retryAt === undefined || Date.now() >= retryAt ? await holdersV2(conditionId, limit, options) : null;
  if (rows === null && (retryAt === undefined || Date.now() >= retryAt)) {
    globalForData.__predmktV2HoldersRetryAt = Date.now() + V2_HOLDERS_RETRY_MS;
  } else if (rows !== null) {
    globalForData.__predmktV2HoldersRetryAt = undefined;
  }
  rows ??= (await fetchUpstream(
    { host: "data", path: "/holders", query: { market: conditionId, limit: Math.min(limit, V1_HOLDERS_MAX) } },
    ListBodySchema,
    { deadline: options.deadline, fresh: options.fresh, onProducedAt: options.onProducedAt },
  ))!.rows;
  const parsed = parseHolderGroups(rows);
  reportDropped(parsed.dropped, "data holders");
  const byToken = new Map<string, NormalizedHolderGroup>();
  for (const group of parsed.items) {
    const existing = byToken.get(group.token_id);
    if (existing) existing.holders.push(...group.holders);
    else byToken.set(group.token_id, { ...group, holders: [...group.holders] });
  }
  return [...byToken.values()].map((g) => ({ ...g, holders: g.holders.sort((a, b) => b.shares - a.shares).slice(0, limit) }));
}

/** Open positions of one wallet (`/positions?user=`), biggest first by the upstream's default (TOKENS). */
export async function getPositions(
  user: string,
  params: { market?: string | string[]; limit?: number; offset?: number; sizeThreshold?: number } = {},
  options: UpstreamCallOptions = {},
): Promise<NormalizedPosition[]> {
  const body = await fetchUpstream(
    {
      host: "data",
      path: "/positions",
      query: { user, market: list(params.market), limit: params.limit ?? 100, offset: params.offset, sizeThreshold: params.sizeThreshold },
    },
    ListBodySchema,
    { deadline: options.deadline },
  );
  const parsed = parsePositions(body!.rows);
  reportDropped(parsed.dropped, "data /positions");
  return parsed.items;
}

/** `/v2/oi` takes at most this many distinct condition ids per request (docs: get-open-interest). */
export const OPEN_INTEREST_IDS_MAX = 20;

/**
 * Open interest of each market (USDC), by lower-case condition id; a market the upstream does not serve has no entry.
 * v2 `/v2/oi?condition=` first, v1 `/oi?market=` when v2 answers 401/403/404 (both documented; the sources disagree on
 * which one a deployment has). At most OPEN_INTEREST_IDS_MAX ids per request.
 */
export async function getOpenInterest(conditionIds: readonly string[], options: UpstreamCallOptions = {}): Promise<Map<string, number>> {
  const ids = [...new Set(conditionIds.map((id) => id.toLowerCase()))];
  const out = new Map<string, number>();
  for (let at = 0; at < ids.length; at += OPEN_INTEREST_IDS_MAX) {
    const batch = ids.slice(at, at + OPEN_INTEREST_IDS_MAX).join(",");
    const body =
      (await fetchUpstream({ host: "data", path: "/v2/oi", query: { condition: batch } }, ListBodySchema, {
        deadline: options.deadline,
        nullOnStatus: [401, 403, 404],
      })) ??
      (await fetchUpstream({ host: "data", path: "/oi", query: { market: batch } }, ListBodySchema, { deadline: options.deadline }))!;
    const parsed = parseOpenInterest(body.rows);
    reportDropped(parsed.dropped, "data open interest");
    for (const row of parsed.items) out.set(row.condition_id, row.value_usd);
  }
  return out;
}
