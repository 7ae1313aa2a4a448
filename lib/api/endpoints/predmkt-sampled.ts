// Contracts of the endpoints that read the service's own sampled history (docs/api-decisions.md#sampled-endpoints), and of the cron
// route that runs the sampler. Definitions of every computed figure are in the descriptions, for users to read.
import { z } from "zod";
import { ABNORMAL_RULES } from "@/lib/analytics/abnormal";
import {
  AbnormalTradeSchema,
  CategorySchema,
  CHANGE_DEFINITION,
  ChangeSchema,
  EventDetailSchema,
  EventSchema,
  HistorySeriesSchema,
  isoTime,
  MoverSchema,
  StatsSchema,
  TickSchema,
  TradeSchema,
  WhaleSchema,
} from "@/lib/predmkt/shapes";
import { CHANGE_WINDOWS, EVENT_ORDERS, HISTORY_WINDOWS, MOVER_WINDOWS } from "@/lib/predmkt/windows";
import { RESOLUTION_STATUSES } from "@/lib/resolution/status";
import { defineEndpoint } from "../contract";
import { enumParam, envelope, intParam, marketIdParam, MetaSchema, slugParam } from "../schemas";

const boundedInt = (min: number, max: number, fallback: number) => intParam({ min, max, default: fallback });
const oneOf = <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) => enumParam(values, { default: fallback });

const SAMPLED_NOTE =
  'Reads the service\'s own sampled data (`meta.source: "sampled"`); `meta.as_of` is the time of the sample the ' +
  "answer comes from. Before the first sampler pass has completed the answer is empty data with `meta.as_of: null` " +
  "and `meta.note` saying so.";

const listMeta = "Lists carry `meta.count` (and `meta.limit`, `meta.offset`, `meta.total` where paged).";

export const statsEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/predmkt/stats",
  summary: "Global snapshot",
  description: `Open (active, not closed, not archived) events and markets, their summed 24 h volume, total volume and liquidity. ${SAMPLED_NOTE}`,
  tags: ["Events and markets"],
  access: "key",
  response: envelope(StatsSchema),
});

export const categoriesEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/predmkt/categories",
  summary: "Categories",
  description:
    "Every category of open events with event count, 24 h volume and liquidity, busiest first (no paging). An " +
    "event's category is the first of its tags that is a top-level section (politics, sports, crypto, ...), " +
    `else its first tag. ${SAMPLED_NOTE}`,
  tags: ["Events and markets"],
  access: "key",
  response: envelope(z.array(CategorySchema)),
});

export const eventsEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/predmkt/events",
  summary: "Open events",
  description: `Open events, filtered by category and title, sorted and paged. ${listMeta} ${SAMPLED_NOTE}`,
  tags: ["Events and markets"],
  access: "key",
  query: z.object({
    category: slugParam.optional().describe("Category slug (see /api/predmkt/categories)"),
    order: oneOf(EVENT_ORDERS, "volume24hr").describe("Sort key, descending"),
    q: z.string().trim().min(1).max(200).optional().describe("Case-insensitive substring of the title (1-200 chars)"),
    resolution: enumParam(RESOLUTION_STATUSES, {
      description:
        "Only events with a market in this resolution status (from our oracle index, see `resolution_statuses`); `none`: no market in dispute",
    }),
    limit: boundedInt(1, 500, 50).describe("Rows to return, 1–500"),
    offset: boundedInt(0, 10_000, 0).describe("Rows to skip, 0–10000; past the end gives an empty page"),
  }),
  response: envelope(z.array(EventSchema)),
});

export const eventEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/predmkt/events/{slug}",
  summary: "One event with its markets",
  description: `The event with every market and each outcome's current probability (latest sample). ${SAMPLED_NOTE} An unknown slug is a 404.`,
  tags: ["Events and markets"],
  access: "key",
  params: z.object({ slug: slugParam }),
  response: envelope(EventDetailSchema),
});

export const changesEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/predmkt/events/{slug}/changes",
  summary: "Probability changes of an event's outcomes",
  description: `One row per outcome of every market of the event, in market order. ${CHANGE_DEFINITION} ${SAMPLED_NOTE}`,
  tags: ["Events and markets"],
  access: "key",
  params: z.object({ slug: slugParam }),
  query: z.object({ window: oneOf(CHANGE_WINDOWS, "24h").describe("Look-back window") }),
  response: envelope(z.array(ChangeSchema)),
});

export const moversEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/predmkt/movers",
  summary: "Biggest probability moves",
  description:
    "Open markets ranked by the absolute change of their first outcome (the Yes side of a binary market) over the " +
    "window; ties by 24 h volume, then market id. " +
    `${CHANGE_DEFINITION} ${SAMPLED_NOTE}`,
  tags: ["Movers and large traders"],
  access: "key",
  query: z.object({
    window: oneOf(MOVER_WINDOWS, "24h").describe("Look-back window, 1 minute to 7 days"),
    limit: boundedInt(1, 500, 20).describe("Rows to return, 1–500"),
    exclude_resolution: enumParam(["true", "false"], {
      default: "false",
      description: "true: leave out moves with a `resolution_context` (a proposal or dispute of the market's UMA resolution explains them)",
    }),
  }),
  response: envelope(z.array(MoverSchema)),
});

/** `meta.tape_gaps`: stretches of the tape the sampler could not read (answers built on the tape say what they miss). */
const TapeGapSchema = z
  .object({
    from: z.string().describe("ISO 8601 UTC start of the unread stretch"),
    to: z.string().describe("ISO 8601 UTC end of the unread stretch"),
    estimated_count: z.number().int().describe("Fills the stretch probably held, from the tape's observed density"),
    reason: z.string(),
  })
  .meta({ id: "TapeGap" });

function tapeEnvelope<T extends z.ZodType>(data: T) {
  return z.object({
    data,
    meta: MetaSchema.extend({
      tape_gaps: z
        .array(TapeGapSchema)
        .optional()
        .describe("Stretches of the last 49 h of the tape that Polymarket could not give the sampler; empty when complete"),
    }),
  });
}

export const abnormalEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/predmkt/abnormal",
  summary: "Abnormal single trades",
  description:
    "Trades of the last 24 h that are unusually large for their own market, highest score first. Each trade is " +
    "scored against its market, not a fixed dollar line: x = ln(usd_size); over the market's sampled trades of the " +
    "last 48 hours (median m, median absolute deviation MAD of ln usd), robust_z = 0.6745·(x − m)/max(MAD, " +
    `${ABNORMAL_RULES.madFloor}) (Iglewicz–Hoaglin modified z-score); share = usd_size / max(market 24 h volume, usd_size); ` +
    `score = max(robust_z, 0)/${ABNORMAL_RULES.zThreshold} + share/${ABNORMAL_RULES.shareThreshold}. A trade is ` +
    `abnormal when score ≥ ${ABNORMAL_RULES.scoreThreshold} and usd_size ≥ $${ABNORMAL_RULES.minUsd}: a modified z of ` +
    `${ABNORMAL_RULES.zThreshold} alone, or ${ABNORMAL_RULES.shareThreshold * 100} % of the market's day alone, is ` +
    `enough. With fewer than ${ABNORMAL_RULES.minReferenceTrades} reference trades only the share term counts. ` +
    `\`reason\` says why in words. ${SAMPLED_NOTE}`,
  tags: ["Movers and large traders"],
  access: "key",
  query: z.object({ limit: boundedInt(1, 500, 50).describe("Rows to return, 1–500") }),
  response: tapeEnvelope(z.array(AbnormalTradeSchema)),
});

export const whalesEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/predmkt/whales",
  summary: "Largest open positions",
  description:
    "Positions of the top holders (20 per outcome, with their average entry price) of every open market with at " +
    "least $10,000 of total volume, ranked by value = shares × current probability; unrealized PnL = shares × " +
    "(current − entry price). Ties by wallet. Markets are refreshed on a rotating schedule — the 100 biggest every " +
    "10 minutes, markets above $100k every 30, the rest every 2 hours — so `sampled_at` says how fresh each position " +
    "is and `meta.oldest_sampled_at` the oldest in the answer. " +
    SAMPLED_NOTE,
  tags: ["Movers and large traders"],
  access: "key",
  query: z.object({
    limit: boundedInt(1, 500, 50).describe("Rows to return, 1–500"),
    market_id: marketIdParam.optional().describe("Only positions in this market (Gamma id or condition id)"),
    event_slug: slugParam.optional().describe("Only positions in this event's markets"),
    min_usd: z.coerce.number().min(0).default(0).describe("Minimum position value in USD (shares × current probability)"),
  }),
  response: envelope(z.array(WhaleSchema)),
});

export const tradesEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/predmkt/trades",
  summary: "Global trade tape",
  description:
    "Sampled trades across all markets, newest first (ties by id). One upstream fill is one row however often " +
    `the sampler saw it. \`min_usd\` keeps trades of at least that USD size (shares × price). ${SAMPLED_NOTE}`,
  tags: ["Movers and large traders"],
  access: "key",
  query: z.object({
    min_usd: z.coerce.number().min(0).default(0).describe("Minimum USD size"),
    limit: boundedInt(1, 500, 100).describe("Rows to return, 1–500"),
  }),
  response: tapeEnvelope(z.array(TradeSchema)),
});

export const liveEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/predmkt/live",
  summary: "Latest price ticks",
  description:
    "The latest sampled price change of each outcome of the open markets, newest first (ties by market and " +
    "outcome): `price` is the current probability, `previous_price` the one before the change (null for an " +
    `outcome's first sample), \`timestamp\` the sample time at which the change was seen. ${SAMPLED_NOTE}`,
  tags: ["Movers and large traders"],
  access: "key",
  query: z.object({ limit: boundedInt(1, 500, 50).describe("Rows to return, 1–500") }),
  response: envelope(z.array(TickSchema)),
});

export const historyEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/predmkt/markets/{id}/history",
  summary: "Sampled price history of one market",
  description:
    "One series for the market's first outcome (the Yes side of a binary market): `24h` from 1-minute raw " +
    "samples, `7d` from 15-minute and `30d` from hourly rollups (point at bucket start, closing price). Samples are " +
    "stored on change plus an hourly heartbeat, so the series is a step function: the first point is the last " +
    "sample at or before the window's start (if any) and the last point is the current probability at " +
    `\`meta.as_of\`. ${SAMPLED_NOTE} An unknown market is a 404.`,
  tags: ["History"],
  access: "key",
  params: z.object({ id: marketIdParam }),
  query: z.object({ window: oneOf(HISTORY_WINDOWS, "24h").describe("Span of history") }),
  response: envelope(HistorySeriesSchema),
});

const CronResultSchema = z
  .object({
    status: z.enum(["ok", "failed", "skipped"]),
    run_id: z.number().int().nullable(),
    started_at: isoTime,
    finished_at: isoTime,
    counts: z.object({
      events: z.number().int(),
      markets: z.number().int(),
      outcomes: z.number().int(),
      samples: z.number().int(),
      trades: z.number().int(),
      whales: z.number().int(),
    }),
    upstream_requests: z
      .record(z.string(), z.number().int())
      .describe('Upstream requests this pass sent (retries included) by host and endpoint, ids folded: {"data /v2/trades": 41}'),
    error: z.string().nullable(),
  })
  .meta({ id: "SamplerPass" });

export const cronSampleEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/cron/sample",
  summary: "Run one sampler pass (Vercel cron)",
  description:
    "Runs one pass synchronously and answers its summary. Needs `Authorization: Bearer <CRON_SECRET>` (no API " +
    "key); a missing or wrong secret is a 401. If another pass holds the lease the answer is 200 with " +
    '`status: "skipped"`; a pass that failed upstream answers 200 with `status: "failed"` and the error (what it ' +
    "committed is kept).",
  tags: ["System"],
  access: "public",
  response: z.object({ data: CronResultSchema }),
  errors: [401],
});

export const endpoints = [
  statsEndpoint,
  categoriesEndpoint,
  eventsEndpoint,
  eventEndpoint,
  changesEndpoint,
  moversEndpoint,
  abnormalEndpoint,
  whalesEndpoint,
  tradesEndpoint,
  liveEndpoint,
  historyEndpoint,
  cronSampleEndpoint,
];
