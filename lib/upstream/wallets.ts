// Data API per-wallet reads: `/activity` (the ledger's source), `/value`, `/traded`, `/closed-positions` and the
// trader leaderboard `/v1/leaderboard`. Every call goes through fetchUpstream, so the governor's budgets, deadlines,
// retries and coalescing apply (docs/wallets.md). Rows we cannot use are dropped one by one and returned counted.
import { z } from "zod";
import { reportDropped } from "./dropped";
import { fetchUpstream } from "./http";
import { ListBodySchema } from "./schemas";
import { optionalNumber, optionalString, parseEach, requiredNumber } from "./schemas/scalars";
import type { DroppedItem, UpstreamCallOptions } from "./types";

/** docs get-user-activity: `limit` ≤ 500 (clamped above). */
export const ACTIVITY_PAGE_MAX = 500;
/**
 * docs get-user-activity: an `offset` past the cap is a 400, and deeper history is read in `start`/`end` windows.
 * The current text says 5,000 (older copies 10,000): the lower one is safe against both.
 */
export const ACTIVITY_OFFSET_CAP = 5000;
/** docs get-trader-leaderboard: `limit` 1..50. */
export const LEADERBOARD_MAX = 50;

export const ACTIVITY_TYPES = ["TRADE", "SPLIT", "MERGE", "REDEEM", "REWARD", "CONVERSION", "MAKER_REBATE"] as const;
export type UpstreamActivityType = (typeof ACTIVITY_TYPES)[number];

export interface ActivityRow {
  wallet: string;
  type: UpstreamActivityType;
  at_s: number;
  condition_id: string | null;
  token_id: string | null;
  outcome_index: number | null;
  outcome: string | null;
  side: "BUY" | "SELL" | null;
  size: number;
  price: number | null;
  usd: number;
  tx_hash: string | null;
  title: string | null;
  market_slug: string | null;
  event_slug: string | null;
  name: string | null;
  pseudonym: string | null;
}

const ActivitySchema = z
  .object({
    proxyWallet: z.string(),
    timestamp: requiredNumber,
    type: z.string().transform((v) => v.toUpperCase()),
    conditionId: optionalString,
    asset: optionalString,
    outcomeIndex: optionalNumber,
    outcome: optionalString,
    side: optionalString,
    size: optionalNumber,
    price: optionalNumber,
    usdcSize: optionalNumber,
    transactionHash: optionalString,
    title: optionalString,
    slug: optionalString,
    eventSlug: optionalString,
    name: optionalString,
    pseudonym: optionalString,
  })
  .transform((r, ctx): ActivityRow | typeof z.NEVER => {
    if (!(ACTIVITY_TYPES as readonly string[]).includes(r.type)) {
      ctx.addIssue({ code: "custom", message: `activity type ${r.type} is not one this service accounts for` });
      return z.NEVER;
    }
    const side = r.side && /^(buy|sell)$/i.test(r.side) ? (r.side.toUpperCase() as "BUY" | "SELL") : null;
    if (r.type === "TRADE" && (side === null || r.price === null || r.size === null)) {
      ctx.addIssue({ code: "custom", message: "a trade without side, price or size" });
      return z.NEVER;
    }
    const outcomeIndex = r.outcomeIndex !== null && r.outcomeIndex >= 0 && r.outcomeIndex < 999 ? r.outcomeIndex : null;
    return {
      wallet: r.proxyWallet.toLowerCase(),
      type: r.type as UpstreamActivityType,
      at_s: Math.floor(r.timestamp > 1e11 ? r.timestamp / 1000 : r.timestamp),
      condition_id: r.conditionId ? r.conditionId.toLowerCase() : null,
      token_id: r.asset,
      outcome_index: outcomeIndex,
      outcome: r.outcome,
      side: r.type === "TRADE" ? side : null,
      size: r.size ?? 0,
      price: r.type === "TRADE" ? r.price : null,
      // usdcSize is the only field that gives a row's USD; a trade without it is size × price.
      usd: r.usdcSize ?? (r.type === "TRADE" ? (r.size ?? 0) * (r.price ?? 0) : 0),
      tx_hash: r.transactionHash,
      title: r.title,
      market_slug: r.slug,
      event_slug: r.eventSlug,
      name: r.name,
      pseudonym: r.pseudonym,
    };
  });

export interface ActivityPage {
  rows: ActivityRow[];
  /** Rows the upstream sent, before dropping unusable ones (a full page means there may be more). */
  received: number;
  dropped: DroppedItem[];
}

/** One `/activity?user=` page, newest first, inside [start, end] (epoch seconds, inclusive). */
export async function listActivity(
  user: string,
  params: { start?: number; end?: number; limit?: number; offset?: number },
  options: UpstreamCallOptions = {},
): Promise<ActivityPage> {
  const body = await fetchUpstream(
    {
      host: "data",
      path: "/activity",
      query: {
        user,
        limit: Math.min(params.limit ?? ACTIVITY_PAGE_MAX, ACTIVITY_PAGE_MAX),
        offset: params.offset ?? 0,
        start: params.start,
        end: params.end,
        sortBy: "TIMESTAMP",
        sortDirection: "DESC",
      },
    },
    ListBodySchema,
    { deadline: options.deadline },
  );
  const parsed = parseEach(body!.rows, ActivitySchema, "activity", ["transactionHash"]);
  return { rows: parsed.items, received: body!.rows.length, dropped: reportDropped(parsed.dropped, "data /activity") };
}

const ValueSchema = z.union([
  z.array(z.object({ user: z.string().optional(), value: optionalNumber })),
  z.object({ user: z.string().optional(), value: optionalNumber }).transform((v) => [v]),
]);

/** `/value?user=` → the USD value of the wallet's open positions, as Polymarket computes it (null when not given). */
export async function getValue(user: string, options: UpstreamCallOptions = {}): Promise<number | null> {
  const body = await fetchUpstream({ host: "data", path: "/value", query: { user } }, ValueSchema, { deadline: options.deadline });
  return body?.[0]?.value ?? null;
}

/** `/traded?user=` → how many markets the wallet traded (null when not given). */
export async function getTraded(user: string, options: UpstreamCallOptions = {}): Promise<number | null> {
  const body = await fetchUpstream({ host: "data", path: "/traded", query: { user } }, z.object({ traded: optionalNumber }).loose(), {
    deadline: options.deadline,
  });
  return body?.traded ?? null;
}

export interface LeaderboardRow {
  rank: number | null;
  wallet: string;
  user_name: string | null;
  x_username: string | null;
  verified: boolean;
  volume: number | null;
  pnl_usd: number | null;
}

const LeaderboardSchema = z
  .object({
    rank: optionalNumber,
    proxyWallet: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
    userName: optionalString,
    xUsername: optionalString,
    verifiedBadge: z.boolean().nullable().optional(),
    vol: optionalNumber,
    pnl: optionalNumber,
  })
  .transform((r): LeaderboardRow => ({
    rank: r.rank,
    wallet: r.proxyWallet.toLowerCase(),
    user_name: r.userName,
    x_username: r.xUsername,
    verified: r.verifiedBadge ?? false,
    volume: r.vol,
    pnl_usd: r.pnl,
  }));

export type LeaderboardPeriod = "DAY" | "WEEK" | "MONTH" | "ALL";
export type LeaderboardOrder = "PNL" | "VOL";

/** `/v1/leaderboard` (overall): the top `limit` (≤ 50) of one board, or with `user` that wallet's row (or none). */
export async function getLeaderboard(
  params: { period: LeaderboardPeriod; order: LeaderboardOrder; limit?: number; user?: string },
  options: UpstreamCallOptions = {},
): Promise<LeaderboardRow[]> {
  const body = await fetchUpstream(
    {
      host: "data",
      path: "/v1/leaderboard",
      query: {
        timePeriod: params.period,
        orderBy: params.order,
        limit: Math.min(params.limit ?? LEADERBOARD_MAX, LEADERBOARD_MAX),
        category: "OVERALL",
        user: params.user,
      },
    },
    ListBodySchema,
    { deadline: options.deadline },
  );
  const parsed = parseEach(body!.rows, LeaderboardSchema, "leaderboard", ["proxyWallet"]);
  reportDropped(parsed.dropped, "data /v1/leaderboard");
  return parsed.items;
}
