// Contracts of the four `-live` endpoints (docs/api-decisions.md#live-endpoints): proxied from Polymarket in real time, cached 10–90 s.
import { z } from "zod";
import { defineEndpoint, type EndpointContract } from "../contract";
import { enumParam, intParam, marketIdParam, MetaSchema, numberParam, slugParam } from "../schemas";

const LIVE_NOTE =
  "Fetched live from Polymarket and cached on the server: `meta.cache` says whether this body came from the cache " +
  "(`hit`), was just fetched (`miss`) or is a last good body served because Polymarket is failing (`stale`, at most " +
  "10 minutes old); `meta.age_s` is its age, `meta.as_of` when it was fetched. `Cache-Control: private, max-age` " +
  "gives the seconds it stays fresh. Upstream failure without a usable cached body: 502 `upstream_unavailable`, or " +
  "504 `upstream_timeout` when Polymarket does not answer in time.";

const LiveMetaSchema = MetaSchema.extend({
  source: z.literal("live"),
  as_of: z.string().describe("ISO 8601 UTC time the body was fetched from Polymarket"),
  cache: z
    .enum(["hit", "miss", "stale"])
    .describe("`hit`: from our cache; `miss`: fetched for this request; `stale`: last good body, upstream failing"),
  age_s: z.number().int().min(0).describe("Age of the body in seconds"),
}).meta({ id: "LiveMeta" });

const LiveHolderSchema = z
  .object({
    wallet: z.string().describe("Proxy wallet address"),
    wallet_url: z.string().describe("This wallet's resource: /api/predmkt/wallets/{address} (docs/wallets.md)"),

    pseudonym: z.string().nullable().describe("Polymarket's public pseudonym; null when the user hides it"),
    name: z.string().nullable().describe("Display name, when set"),
    outcome: z.string(),
    outcome_index: z.number().int(),
    shares: z.number().describe("Outcome tokens held (gross for this outcome)"),
    avg_price: z.number().nullable().describe("Average entry price in [0, 1] when Polymarket reports it (Data API v2); else null"),
    verified: z.boolean().nullable(),
  })
  .meta({ id: "LiveHolder" });

export const LiveHolderGroupSchema = z
  .object({
    outcome: z.string(),
    outcome_index: z.number().int(),
    token_id: z
      .string()
      .nullable()
      .describe("Outcome id, a decimal string of up to 78 digits: the CLOB token id (V1 markets) or position id (V2 markets)"),
    holders: z.array(LiveHolderSchema).describe("Largest holders first"),
  })
  .meta({ id: "LiveHolderGroup" });

export const LiveTradeSchema = z
  .object({
    id: z.string().describe("Stable id of the fill (several fills can share one transaction)"),
    tx_hash: z.string().nullable(),
    market_id: z.string().nullable().describe("Gamma market id"),
    condition_id: z.string(),
    token_id: z.string(),
    event_slug: z.string().nullable(),
    question: z.string().nullable(),
    outcome: z.string().nullable(),
    outcome_index: z.number().int().nullable(),
    side: z.enum(["BUY", "SELL"]),
    price: z.number().describe("Price per share in [0, 1]"),
    shares: z.number(),
    usd_size: z.number().describe("shares × price, USD"),
    wallet: z.string(),
    wallet_url: z.string().describe("This wallet's resource: /api/predmkt/wallets/{address} (docs/wallets.md)"),
    pseudonym: z.string().nullable(),
    timestamp: z.string().describe("ISO 8601 UTC"),
  })
  .meta({ id: "LiveTrade" });

export const LiveSeriesSchema = z
  .object({
    market_id: z.string(),
    condition_id: z.string().nullable(),
    question: z.string(),
    outcome: z.string().describe("The market's first outcome (the Yes side of a binary market)"),
    token_id: z.string(),
    volume_usd: z.number().describe("Total volume of the market, the ranking key"),
    points: z
      .array(z.object({ t: z.number().int().describe("Unix seconds"), p: z.number().describe("Price in [0, 1]") }))
      .describe("Oldest first"),
  })
  .meta({ id: "LivePriceSeries" });

const LiveMarketRefSchema = z.object({ id: z.string(), condition_id: z.string(), question: z.string() });

/** Defaults of docs/api-decisions.md#parameters. */
const LIVE_DEFAULTS = {
  holdersLimit: 20,
  activityHoldersLimit: 10,
  activityTradesLimit: 50,
  eventActivityLimit: 100,
  historyInterval: "1d",
  historyMarkets: 5,
} as const;

const marketPath = z.object({ id: marketIdParam });
const eventPath = z.object({ slug: slugParam });

/** A `-live` contract: GET behind a key, tagged Live, answering `{data, meta: LiveMeta}`, failing upstream with 502/504. */
function liveEndpoint<D extends z.ZodType, Q extends z.ZodObject | undefined = undefined, P extends z.ZodObject | undefined = undefined>({
  data,
  ...contract
}: Pick<EndpointContract, "path" | "summary" | "description"> & { query?: Q; params?: P; data: D }) {
  return defineEndpoint({
    method: "GET",
    tags: ["Live"],
    access: "key",
    ...contract,
    response: z.object({ data, meta: LiveMetaSchema }),
    errors: [502, 504],
  });
}

export const holdersLive = liveEndpoint({
  path: "/api/predmkt/markets/{id}/holders-live",
  summary: "Top holders per outcome (live)",
  description:
    "The largest holders of each outcome of one market, one group per outcome in outcome order. `{id}` is a Gamma " +
    "market id or a condition id. Cached 60 s. " +
    LIVE_NOTE,
  params: marketPath,
  query: z.object({
    limit: intParam({ min: 1, max: 100, default: LIVE_DEFAULTS.holdersLimit, description: "Holders per outcome, 1–100" }),
  }),
  data: z.array(LiveHolderGroupSchema),
});

export const marketActivityLive = liveEndpoint({
  path: "/api/predmkt/markets/{id}/activity-live",
  summary: "Holders and latest trades of one market (live)",
  description:
    "One market's top holders per outcome and its latest trades (newest first) in one response; the two upstream " +
    "calls run concurrently. `{id}` is a Gamma market id or a condition id. Cached 15 s. " +
    LIVE_NOTE,
  params: marketPath,
  query: z.object({
    holders_limit: intParam({ min: 1, max: 100, default: LIVE_DEFAULTS.activityHoldersLimit, description: "Holders per outcome, 1–100" }),
    trades_limit: intParam({ min: 1, max: 500, default: LIVE_DEFAULTS.activityTradesLimit, description: "Latest trades, 1–500" }),
  }),
  data: z.object({ market: LiveMarketRefSchema, holders: z.array(LiveHolderGroupSchema), trades: z.array(LiveTradeSchema) }),
});

export const eventActivityLive = liveEndpoint({
  path: "/api/predmkt/events/{slug}/activity-live",
  summary: "Live trades across an event (live)",
  description:
    "Latest trades across every market of the event, newest first. `side` and `min_usd` (USD = shares × price) " +
    "filter before `limit` applies. Cached 10 s. " +
    LIVE_NOTE,
  params: eventPath,
  query: z.object({
    side: enumParam(["BUY", "SELL"], {
      caseInsensitive: true,
      description: "Only buys or only sells (case-insensitive); both when omitted",
    }),
    min_usd: numberParam({
      min: 0,
      default: 0,
      description: "Minimum trade size in USD (shares × price), ≥ 0, applied to the latest 500 trades (of the side asked for)",
    }),
    limit: intParam({ min: 1, max: 500, default: LIVE_DEFAULTS.eventActivityLimit, description: "Trades, 1–500" }),
  }),
  data: z.array(LiveTradeSchema),
});

export const eventHistoryLive = liveEndpoint({
  path: "/api/predmkt/events/{slug}/history-live",
  summary: "Price history of an event's top markets (live)",
  description:
    "Full price history from Polymarket's order-book service, one series per market for the market's first outcome " +
    "(the Yes side of a binary market), for the event's `markets` largest markets by total volume. Points are " +
    "`{t, p}` (unix seconds, price 0–1) at a resolution set by `interval` (1h: 1 min, 6h: 5 min, 1d: 15 min, " +
    "1w: 1 h, 1m: 4 h, max: 1 day). Cached 90 s. " +
    LIVE_NOTE,
  params: eventPath,
  query: z.object({
    interval: enumParam(["1h", "6h", "1d", "1w", "1m", "max"], { default: LIVE_DEFAULTS.historyInterval, description: "History span" }),
    markets: intParam({ min: 1, max: 20, default: LIVE_DEFAULTS.historyMarkets, description: "Number of top markets by volume, 1–20" }),
  }),
  data: z.array(LiveSeriesSchema),
});

export const endpoints: EndpointContract[] = [holdersLive, marketActivityLive, eventActivityLive, eventHistoryLive];
