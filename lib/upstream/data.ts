// Data API client: trades (by market or event, side and cash filters; v1 offset or v2 cursor paging), holders,
// positions. Both the v1 (camelCase, bare array) and v2 (snake_case, `{data, pagination}`) bodies are accepted on
// every call: the schemas map both to one normalised row.
import { fetchUpstream } from "./http";
import { HoldersBodySchema, PositionsBodySchema, TradesBodySchema } from "./schemas";
import type { NormalizedHolderGroup, NormalizedPosition, TradeSide, TradesPage, UpstreamCallOptions } from "./types";

/** v1 `/holders` answers at most 20 holders per token; v2 `/v2/holders` up to 1000. */
export const V1_HOLDERS_MAX = 20;

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
  const body = await fetchUpstream({ host: "data", path: v2 ? "/v2/trades" : "/trades", query }, TradesBodySchema, {
    deadline: options.deadline,
  });
  const trades = body!.rows
    .filter((t) => (params.side ? t.side === params.side : true))
    .filter((t) => (cash !== undefined ? t.usd_size >= cash : true))
    .sort((a, b) => b.timestamp_s - a.timestamp_s);
  return { trades, next_cursor: body!.next_cursor };
}

// Set once an upstream answers 404 on /v2/holders (older deployments, the offline simulator): later calls go straight
// to v1 instead of paying for the failed request each time.
const globalForData = globalThis as unknown as { __predmktNoV2Holders?: boolean };

/**
 * Top holders of each outcome token of one market. The Data API keys holders by condition id (not token id) and
 * answers one group per token; groups are merged by token (v2 pages may split one). Holders sorted by shares, desc.
 * Up to 20 per token come from v1 `/holders`; a larger `limit` asks v2 `/v2/holders` and, where that does not
 * exist, falls back to v1's 20.
 */
export async function getHolders(
  conditionId: string,
  limit = 20,
  options: UpstreamCallOptions & { version?: "v1" | "v2" } = {},
): Promise<NormalizedHolderGroup[]> {
  const wantV2 = options.version === "v2" || (options.version === undefined && limit > V1_HOLDERS_MAX && !globalForData.__predmktNoV2Holders);
  let body = wantV2
    ? await fetchUpstream({ host: "data", path: "/v2/holders", query: { condition: conditionId, limit } }, HoldersBodySchema, {
        deadline: options.deadline,
        allowNotFound: true,
      })
    : null;
  if (wantV2 && body === null) globalForData.__predmktNoV2Holders = true;
  body ??= await fetchUpstream(
    { host: "data", path: "/holders", query: { market: conditionId, limit: Math.min(limit, V1_HOLDERS_MAX) } },
    HoldersBodySchema,
    { deadline: options.deadline },
  );
  const byToken = new Map<string, NormalizedHolderGroup>();
  for (const group of body!.rows) {
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
    PositionsBodySchema,
    { deadline: options.deadline },
  );
  return body!.rows;
}
