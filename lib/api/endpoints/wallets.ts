// Contracts of the wallet endpoints and the leaderboard (docs/wallets.md): a wallet's reconciled PnL, positions and
// activity from its stored ledger, and Polymarket's leaderboard with our PnL beside it.
import { z } from "zod";
import { ACTIVITY_TYPES } from "@/lib/analytics/pnl";
import { WALLET_LABELS } from "@/lib/wallets/labels";
import { LEADERBOARD_WINDOWS } from "@/lib/wallets/leaderboard";
import { ACTIVITY_CURSOR_PATTERN, decodeCursor } from "@/lib/wallets/answers";
import { defineEndpoint, type EndpointContract } from "../contract";
import { enumParam, intParam, MetaSchema } from "../schemas";

const addressParam = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x address: 0x followed by 40 hex digits (any case)")
  .transform((a) => a.toLowerCase())
  .describe("Wallet (Polymarket proxy wallet) address, 0x + 40 hex digits in any case; answered lower-case");

const LEDGER_NOTE =
  "Computed from the wallet's ledger: its whole Polymarket activity history, read once (by time windows past the Data " +
  "API's offset cap), stored, and topped up with newer rows on later requests. A wallet read for the first time may " +
  "answer before its history is all read: `meta.complete: false` and `meta.rows_read` say how much is in, and the " +
  "rest is read in the background. An upstream failure while reading leaves `meta.complete: false` with " +
  "`meta.error`; a Polymarket figure that could not be fetched is null and named in `meta.degraded`. An address that " +
  "never traded answers 200 with zeros.";

const WalletMetaSchema = MetaSchema.extend({
  source: z.literal("live"),
  as_of: z.string().nullable().describe("ISO 8601 UTC time up to which the ledger is read"),
  complete: z.boolean().describe("The whole history is in the ledger and the last read succeeded"),
  rows_read: z.number().int().describe("Activity rows in the ledger"),
  rows_dropped: z.number().int().describe("Upstream rows that could not be used (malformed), counted, not guessed"),
  reading: z.boolean().describe("A background read of this wallet is still going on"),
  degraded: z.array(z.string()).describe("Polymarket figures that could not be fetched for this answer"),
  error: z.string().optional(),
}).meta({ id: "WalletMeta" });

const PolymarketFiguresSchema = z
  .object({
    value_usd: z.number().nullable().describe("Polymarket's `/value`: its value of the wallet's open positions"),
    leaderboard_pnl_usd: z.number().nullable().describe("The all-time leaderboard's `pnl` for the wallet; null when not listed"),
    leaderboard_volume: z.number().nullable().describe("The all-time leaderboard's `vol` (shares, per Polymarket's v2 docs)"),
    leaderboard_rank: z.number().nullable(),
    positions_pnl_usd: z.number().nullable().describe("Σ `/positions` `cashPnl + realizedPnl`: the naive sum, blind to redeemed positions"),
  })
  .meta({ id: "WalletPolymarketFigures" });

const WalletSchema = z
  .object({
    address: z.string(),
    name: z.string().nullable(),
    pseudonym: z.string().nullable(),
    first_activity_at: z.string().nullable(),
    last_activity_at: z.string().nullable(),
    trades: z.number().int().describe("Fills, taker and maker (TRADE rows of the ledger)"),
    volume_usd: z.number().describe("Σ USD of its fills"),
    markets_traded: z.number().int(),
    open_positions: z.number().int(),
    value_usd: z.number().describe("Open shares × current price (1 or 0 once resolved)"),
    realized_pnl_usd: z.number().describe("Average-cost realized PnL, rewards and maker rebates included"),
    unrealized_pnl_usd: z.number().describe("value − cost of the open shares"),
    pnl_usd: z.number().describe("realized + unrealized = cash received − cash paid + value"),
    income_usd: z.number().describe("Rewards and maker rebates"),
    win_rate: z.number().nullable().describe("Share of its resolved markets with a positive PnL; null when none"),
    resolved_markets: z.number().int(),
    maker_share: z.number().nullable().describe("Share of its latest fills (up to 500) where it was the maker; null when unknown"),
    labels: z.array(z.enum(WALLET_LABELS)).describe("Rules in docs/wallets.md#labels"),
    polymarket: PolymarketFiguresSchema,
    pnl_difference_usd: z.number().nullable().describe("pnl_usd − the leaderboard's pnl; null when not listed"),
    positions_difference_usd: z.number().nullable().describe("pnl_usd − the naive `/positions` sum"),
    pnl_series: z
      .array(z.object({ t: z.number().int().describe("Unix seconds"), realized_pnl_usd: z.number() }))
      .describe("Cumulative realized PnL over time (≤ 200 points, oldest first)"),
  })
  .meta({ id: "Wallet" });

const WalletPositionSchema = z
  .object({
    market_id: z.string().nullable().describe("Gamma market id when the market is in our sampled data"),
    condition_id: z.string(),
    question: z.string().nullable(),
    event_slug: z.string().nullable(),
    outcome: z.string().nullable(),
    outcome_index: z.number().int(),
    size: z.number().describe("Shares held now"),
    avg_price: z.number(),
    cost_usd: z.number(),
    current_price: z.number().nullable(),
    value_usd: z.number(),
    realized_pnl_usd: z.number(),
    unrealized_pnl_usd: z.number(),
    status: z.enum(["open", "closed", "redeemed", "resolved_unredeemed"]),
  })
  .meta({ id: "WalletPosition" });

const WalletActivitySchema = z
  .object({
    type: z.enum(ACTIVITY_TYPES),
    at: z.string(),
    market_id: z.string().nullable(),
    condition_id: z.string().nullable(),
    question: z.string().nullable(),
    outcome: z.string().nullable(),
    outcome_index: z.number().int().nullable(),
    side: z.enum(["BUY", "SELL"]).nullable(),
    size: z.number(),
    price: z.number().nullable(),
    usd: z.number(),
    tx_hash: z.string().nullable(),
  })
  .meta({ id: "WalletActivity" });

const LeaderboardRowSchema = z
  .object({
    rank: z.number(),
    address: z.string(),
    name: z.string().nullable(),
    polymarket_pnl_usd: z.number().nullable(),
    polymarket_volume: z.number().nullable(),
    pnl_usd: z
      .number()
      .nullable()
      .describe(
        "Our PnL over the board's window from the wallet's complete ledger, as of `pnl_as_of`: `all` = realized + unrealized; " +
          "a finite window = PnL at its end − PnL at its start (the ledger up to the start, open shares marked at the price " +
          "in force then). Null, with `pnl_note`, until the ledger is complete or when a price needed is not known",
      ),
    pnl_difference_usd: z.number().nullable().describe("pnl_usd − polymarket_pnl_usd"),
    pnl_as_of: z
      .string()
      .nullable()
      .describe("ISO 8601 UTC end of our window: when our PnL was last computed (the background job's pass or a wallet request)"),
    pnl_note: z
      .string()
      .nullable()
      .describe("Why `pnl_usd` is null (the ledger still being read, a price not known at the window's start, …)"),
    ledger_complete: z.boolean(),
    wallet_url: z.string(),
  })
  .meta({ id: "LeaderboardRow" });

const walletPath = z.object({ address: addressParam });
const tags = ["Wallets"];

export const walletEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/predmkt/wallets/{address}",
  summary: "A wallet's PnL, figures and labels",
  description:
    "Our PnL by construction (docs/wallets.md) beside Polymarket's own figures (`/value`, the leaderboard, the " +
    "naive `/positions` sum) and the differences. " +
    LEDGER_NOTE,
  tags,
  access: "key",
  params: walletPath,
  response: z.object({
    data: WalletSchema,
    meta: WalletMetaSchema.extend({ unpriced_positions: z.number().int(), anomalies: z.number().int() }),
  }),
  errors: [502, 504],
});

export const walletPositionsEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/predmkt/wallets/{address}/positions",
  summary: "A wallet's positions, open and closed",
  description:
    "One row per market outcome held or once held. `open`: shares held (`open`, or `resolved_unredeemed` when the " +
    "market has resolved); `closed`: sold or merged away (`closed`) or redeemed (`redeemed`). Biggest value first. " +
    LEDGER_NOTE,
  tags,
  access: "key",
  params: walletPath,
  query: z.object({
    status: enumParam(["open", "closed", "all"], { default: "open", description: "Which positions" }),
    limit: intParam({ min: 1, max: 500, default: 100, description: "Rows, 1–500" }),
    offset: intParam({ min: 0, max: 100_000, default: 0, description: "Rows to skip" }),
  }),
  response: z.object({ data: z.array(WalletPositionSchema), meta: WalletMetaSchema }),
  errors: [502, 504],
});

export const walletActivityEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/predmkt/wallets/{address}/activity",
  summary: "A wallet's ledger",
  description:
    "The wallet's activity rows, newest first: trades (`side`, `price`), splits, merges, redemptions, neg-risk " +
    "conversions, rewards and maker rebates (`usd` = Polymarket's `usdcSize`). Page with `meta.next_cursor`. " +
    LEDGER_NOTE,
  tags,
  access: "key",
  params: walletPath,
  query: z.object({
    type: enumParam(ACTIVITY_TYPES, { caseInsensitive: true, description: "Only rows of this type" }),
    limit: intParam({ min: 1, max: 500, default: 100, description: "Rows, 1–500" }),
    cursor: z
      .string()
      .max(100)
      .regex(ACTIVITY_CURSOR_PATTERN, "must be a `meta.next_cursor` of an earlier page")
      .transform((c, ctx) => {
        const decoded = decodeCursor(c);
        if (!decoded) {
          ctx.addIssue({ code: "custom", message: "must be a `meta.next_cursor` of an earlier page" });
          return z.NEVER;
        }
        return decoded;
      })
      .optional()
      .describe("`meta.next_cursor` of the previous page"),
  }),
  response: z.object({ data: z.array(WalletActivitySchema), meta: WalletMetaSchema.extend({ next_cursor: z.string().nullable() }) }),
  errors: [502, 504],
});

export const leaderboardEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/predmkt/leaderboard",
  summary: "Polymarket's leaderboard, reconciled",
  description:
    "Polymarket's trader leaderboard (`/v1/leaderboard`, overall) with, for each wallet whose ledger is complete, our " +
    "PnL over the same window and the difference. A background job completes the top entries' ledgers within the " +
    "upstream budget. Finite windows (`1d`, `7d`, `30d`: the last 1, 7 or 30 days up to `pnl_as_of`) are our PnL at the " +
    "end minus our PnL at the start, open shares at the start marked at the price in force then (our 1-minute samples, " +
    "else the CLOB's price history); when no price is known for an outcome held at the start the row's `pnl_usd` is " +
    "null and `pnl_note` says which. Polymarket's docs say its finite windows are the marked equity change net of " +
    "flows (the same quantity) and its all-time board is realized-only, so on `all` a wallet with open positions " +
    "differs by its unrealized PnL (docs/wallets.md). Upstream failure: 502/504.",
  tags,
  access: "key",
  query: z.object({
    window: enumParam(Object.keys(LEADERBOARD_WINDOWS) as ["1d", "7d", "30d", "all"], { default: "all", description: "Board window" }),
    order: enumParam(["pnl", "volume"], { default: "pnl", description: "Board order" }),
    limit: intParam({ min: 1, max: 50, default: 25, description: "Rows, 1–50 (Polymarket's cap)" }),
  }),
  response: z.object({ data: z.array(LeaderboardRowSchema), meta: MetaSchema }),
  errors: [502, 504],
});

export const endpoints: EndpointContract[] = [walletEndpoint, walletPositionsEndpoint, walletActivityEndpoint, leaderboardEndpoint];
