// Shapes of the answers the sampled endpoints give (docs/api-decisions.md#sampled-endpoints): the service in
// lib/predmkt builds them, the API contracts (lib/api/endpoints/predmkt-sampled.ts) publish them, and the dashboard
// reads their inferred types. They live here, below both, so the service never imports an API contract.
import { z } from "zod";
import { DVM_STATUSES, OO_STATES } from "@/lib/oracle/lifecycle";
import { QUESTION_OUTCOMES } from "@/lib/oracle/outcome-fold";
import { RESOLUTION_STATUSES } from "@/lib/resolution/status";

/** How `change` is computed; repeated in the descriptions of every endpoint that reports changes. */
export const CHANGE_DEFINITION =
  "Change over a window W = probability at the latest sample (`meta.as_of`) − probability of the latest stored " +
  "sample at or before `as_of − W`. Samples are stored when a price changes, plus an hourly heartbeat, so a stored " +
  "sample's price holds until the next one. Windows up to 24 h read the 1-minute raw samples; 7 d reads 15-minute " +
  "rollups and 30 d hourly rollups (a rollup point at bucket start t carries the bucket's closing price). An outcome " +
  "with no sample that old (first sampled inside the window) is left out, not guessed. `change` is in probability " +
  "points as a fraction (0.05 = +5 points).";

const probability = z.number().min(0).max(1);
export const isoTime = z.string().describe("ISO 8601 UTC");

export const StatsSchema = z
  .object({
    active_events: z.number().int(),
    active_markets: z.number().int(),
    volume_24h_usd: z.number(),
    volume_usd: z.number(),
    liquidity_usd: z.number(),
    categories: z.number().int(),
  })
  .meta({ id: "Stats" });

export const CategorySchema = z
  .object({
    slug: z.string(),
    label: z.string(),
    event_count: z.number().int(),
    volume_24h_usd: z.number(),
    liquidity_usd: z.number(),
  })
  .meta({ id: "Category" });

const RESOLUTION_STATUS = z.enum(RESOLUTION_STATUSES);

export const QuestionOutcomeSchema = z
  .object({
    status: z
      .enum(QUESTION_OUTCOMES)
      .describe(
        "reset: the adapter asked again outside a dispute (an admin's `reset`, or `resolve` on the DVM's too-early price), in force until the question resolves; flagged: flagged by the admin for a manual resolution (UmaCtfAdapter.flag, which also pauses; NegRiskOperator.flagQuestion); paused: resolution paused by the admin (UmaCtfAdapter.pause; UmaSportsOracle.pauseGame / pauseMarket); manually_resolved: resolved with the admin's payouts (UmaCtfAdapter v4 `resolveManually`); emergency_resolved: the same in the v2 / v3.1 adapters (`emergencyResolve`), NegRiskOperator.emergencyResolveQuestion, UmaSportsOracle.emergencyResolveMarket; emergency_settled: a game's scores set by the admin (UmaSportsOracle.emergencySettleGame); canceled: the game was canceled (the OO's canceled value, UmaSportsOracle._cancelGame). Sources: docs/oracle-facts.md",
      ),
    contract: z.enum(["UmaCtfAdapter", "NegRiskOperator", "UmaSportsOracle"]).describe("The contract whose event decided it"),
    address: z.string().describe("That contract's address (EIP-55)"),
    event: z.string().describe("The event, e.g. QuestionManuallyResolved"),
    at: isoTime.nullable().describe("Block time of the event"),
    tx_hash: z.string(),
  })
  .meta({ id: "QuestionOutcome" });

const MarketResolutionSchema = z
  .object({
    status: RESOLUTION_STATUS.describe(
      "From our own oracle index (UMA's proposals, disputes and settlements of Polymarket's requests joined to markets, docs/resolution.md): `proposed` a proposal in its liveness window (on the Managed OOv2: until a resolver settles it, disputable past liveness), `disputed` waiting for the DVM (or re-asked after the adapter's reset), `queued` on the DVM for a later round (VotingV2 `Future`), `voting` up for vote this round, `dvm_resolved` the DVM has a price not yet bridged back to Polygon, `expired` an undisputed legacy-OOv2 proposal past liveness (OO `Expired`), `resolved` the OO has the DVM's price (OO `Resolved`), `deleted` the dispute's DVM request was deleted past maxRolls (the OO request stays `Disputed`), `settled` the Optimistic Oracle request is settled (its Settle log); `none` no proposal indexed. Decided outside the vote (the question's own contracts, `outcome` names the event): `reset` also after an admin's reset or a too-early answer (a new request not proposed yet), `flagged` flagged for a manual resolution, `paused` resolution paused, `manually_resolved` / `emergency_resolved` resolved with the admin's payouts (v4 adapter / v2-v3.1 adapters, NegRiskOperator, a sports market), `emergency_settled` a game's scores set by the admin, `canceled` a canceled game (docs/oracle-facts.md, \"Outcomes outside the vote\")",
    ),
    proposed_outcome: z
      .string()
      .nullable()
      .describe("The latest proposal in words (the question's p2/p1 labels, else the market's outcomes)"),
    proposed_at: isoTime.nullable(),
    disputed_at: isoTime.nullable(),
    settled_at: isoTime.nullable().describe("When the latest request was settled (its Settle log), while `status` is `settled`"),
    dispute_id: z.string().nullable().describe("The latest dispute's id in /api/oracle/disputes/{id}"),
    vote_round: z.number().int().nullable().describe("DVM round the dispute is (or was last) voted in"),
    oo_state: z
      .enum(OO_STATES)
      .nullable()
      .describe("UMA's OptimisticOracleV2Interface.State of the request that decides `status`; null for `none`"),
    dvm_status: z
      .enum(DVM_STATUSES)
      .nullable()
      .describe("UMA's VotingV2.RequestStatus of the market's latest dispute; null when none reached the DVM"),
    outcome: QuestionOutcomeSchema.nullable().describe(
      "The question's outcome outside the vote when it decides `status` (the contract, its event and the transaction), else null",
    ),
  })
  .meta({ id: "MarketResolution" });

export const EventSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    category: z.string().nullable().describe("Category slug"),
    category_label: z.string().nullable(),
    volume_24h_usd: z.number(),
    volume_usd: z.number(),
    liquidity_usd: z.number(),
    end_date: isoTime.nullable(),
    market_count: z.number().int().describe("Open markets of the event"),
    active: z.boolean().describe("Open: active, not closed, not archived"),
    resolution_statuses: z
      .array(RESOLUTION_STATUS)
      .describe("Distinct `resolution.status` values of the event's markets other than `none` (empty: no market in dispute)"),
  })
  .meta({ id: "Event" });

const OutcomeSchema = z
  .object({
    index: z.number().int(),
    name: z.string(),
    token_id: z.string().describe("CLOB token id, a 77-digit decimal string"),
    probability: probability.nullable(),
  })
  .meta({ id: "Outcome" });

const MarketSchema = z
  .object({
    id: z.string(),
    condition_id: z.string(),
    slug: z.string(),
    question: z.string(),
    active: z.boolean(),
    closed: z.boolean(),
    volume_24h_usd: z.number(),
    volume_usd: z.number(),
    liquidity_usd: z.number(),
    end_date: isoTime.nullable(),
    outcomes: z.array(OutcomeSchema),
    resolution: MarketResolutionSchema,
  })
  .meta({ id: "Market" });

export const EventDetailSchema = EventSchema.extend({ markets: z.array(MarketSchema) }).meta({ id: "EventDetail" });

export const ChangeSchema = z
  .object({
    market_id: z.string(),
    question: z.string(),
    event_slug: z.string(),
    outcome: z.string(),
    outcome_index: z.number().int(),
    token_id: z.string(),
    probability_now: probability,
    probability_then: probability,
    change: z.number().min(-1).max(1),
    window: z.string(),
    then_at: isoTime.describe("Time of the sample (or rollup bucket) `probability_then` comes from"),
  })
  .meta({ id: "ProbabilityChange" });

const ResolutionContextSchema = z
  .object({
    kind: z.enum(["proposal", "dispute", "settlement"]),
    at: isoTime,
    outcome: z.string().nullable().describe("The outcome proposed, in words; null for a dispute"),
    price_before: probability.nullable().describe("The price in force at the step"),
    price_after: probability.nullable().describe("The price furthest from it within 30 minutes after the step"),
    minutes_after: z.number().int().nullable(),
    text: z.string().describe('e.g. "proposal for Yes at 2026-06-01 14:02 UTC; price moved from 0.62 to 0.99 within 30 minutes after it"'),
  })
  .describe(
    "Set when the move (or trade) follows a step of the market's UMA resolution (a proposal or a dispute from our oracle index) that lies inside its window or at most 30 minutes before it: a settlement mechanic, not news. Null otherwise",
  )
  .meta({ id: "ResolutionContext" });

export const MoverSchema = ChangeSchema.extend({
  volume_24h_usd: z.number(),
  resolution_context: ResolutionContextSchema.nullable(),
}).meta({ id: "Mover" });

export const TradeSchema = z
  .object({
    id: z.string(),
    tx_hash: z.string(),
    market_id: z.string().nullable(),
    condition_id: z.string(),
    event_slug: z.string().nullable(),
    question: z.string().nullable(),
    outcome: z.string().nullable(),
    outcome_index: z.number().int().nullable(),
    side: z.enum(["BUY", "SELL"]),
    price: z.number(),
    shares: z.number(),
    usd_size: z.number(),
    wallet: z.string(),
    wallet_url: z.string().describe("This wallet's resource: /api/predmkt/wallets/{address} (docs/wallets.md)"),
    pseudonym: z.string().nullable(),
    timestamp: isoTime,
  })
  .meta({ id: "Trade" });

export const AbnormalTradeSchema = TradeSchema.extend({
  score: z.number(),
  robust_z: z.number().nullable().describe("Modified z-score of ln(usd_size); null with too few reference trades"),
  market_median_usd: z.number().nullable(),
  share_of_market_24h_volume: z.number().min(0).max(1),
  reason: z.string(),
  resolution_context: ResolutionContextSchema.nullable(),
}).meta({ id: "AbnormalTrade" });

export const WhaleSchema = z
  .object({
    wallet: z.string(),
    wallet_url: z.string().describe("This wallet's resource: /api/predmkt/wallets/{address} (docs/wallets.md)"),
    pseudonym: z.string().nullable(),
    market_id: z.string(),
    condition_id: z.string(),
    event_slug: z.string().nullable(),
    question: z.string(),
    outcome: z.string(),
    outcome_index: z.number().int(),
    token_id: z.string(),
    shares: z.number(),
    entry_price: z.number().nullable().describe("Average entry price; null when the upstream does not know it"),
    current_price: z.number().nullable(),
    value_usd: z.number(),
    unrealized_pnl_usd: z.number().nullable(),
    sampled_at: isoTime,
  })
  .meta({ id: "WhalePosition" });

export const TickSchema = z
  .object({
    market_id: z.string(),
    question: z.string(),
    token_id: z.string(),
    outcome: z.string(),
    outcome_index: z.number().int(),
    price: probability,
    previous_price: probability.nullable(),
    timestamp: isoTime,
  })
  .meta({ id: "PriceTick" });

export const HistorySeriesSchema = z
  .object({
    market_id: z.string(),
    question: z.string(),
    outcome: z.string(),
    token_id: z.string(),
    resolution_s: z.number().int().describe("60 (raw samples), 900 or 3600 (rollups)"),
    points: z.array(z.object({ t: z.number().int().describe("Unix seconds"), p: probability })),
  })
  .meta({ id: "HistorySeries" });
