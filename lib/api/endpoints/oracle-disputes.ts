// Contracts of the dispute endpoints (docs/resolution.md): each disputed Polymarket question joined to the market it
// decides, and one dispute with its prices, vote, holders and voter positions. Field definitions live in the
// descriptions for users to read.
import { z } from "zod";
import { address, CHAIN_NOTE, DisputedAssertionSchema, oracleEndpoint, tokens } from "./oracle";

const probabilitySource = z.enum(["sampled", "clob"]).nullable();

const DisputeMarketSchema = z
  .object({
    id: z.string().describe("Gamma market id"),
    condition_id: z.string(),
    slug: z.string(),
    question: z.string(),
    event_slug: z.string(),
    outcomes: z.array(z.string()).describe("Outcome names by index; a YES_OR_NO_QUERY price of 1 pays the first"),
  })
  .meta({ id: "DisputeMarket" });

export const DisputeWithMarketSchema = DisputedAssertionSchema.extend({
  market: DisputeMarketSchema.nullable().describe(
    "The Polymarket market the question decides, joined by ids that hash from the exact question bytes (docs/resolution.md): Gamma `questionID` = `question_id`, or `conditionId` = keccak256(adapter, question_id, 2) for a standard market, or `negRiskRequestID` = `question_id` or the NegRiskOperator's question (`neg_risk`) for a neg-risk market, or the game's markets (`sports`, the winner market first) for a sports dispute. Null with `market_missing_reason` when none is found",
  ),
  market_join: z
    .enum(["question_id", "condition_id", "neg_risk_request_id", "neg_risk_operator", "sports_game"])
    .nullable()
    .describe("Which id joined the market"),
  market_missing_reason: z
    .enum(["no_question_text", "legacy_adapter", "not_listed"])
    .nullable()
    .describe(
      "Why `market` is null: no text to hash; the 2021-22 adapter (its questionID is not a hash of the text); or no market with these ids is stored or listed by Gamma (open or closed)",
    ),
  proposed_outcome: z
    .string()
    .nullable()
    .describe(
      'The proposed price in words: "1" is the outcome the question text names for p2 (else the market\'s first outcome), "0" the p1 outcome, "0.5" `unknown (50-50)`, the minimum int256 `too early`',
    ),
  probability_outcome: z.string().nullable().describe("The outcome the probabilities are of (the market's first)"),
  probability_at_proposal: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .describe("The outcome's price in force at `proposed_at` (null when no price is within 6 h before it)"),
  probability_at_dispute: z.number().min(0).max(1).nullable().describe("The price in force at `disputed_at` (same rule)"),
  probability_now: z.number().min(0).max(1).nullable().describe("The latest price"),
  probability_sources: z
    .object({ at_proposal: probabilitySource, at_dispute: probabilitySource, now: probabilitySource })
    .describe(
      "Where each probability came from: `sampled` = our own price samples (they answer once they reach back to the moment), `clob` = the CLOB's /prices-history (hourly) where ours do not reach",
    ),
  value_at_stake_usd: z
    .number()
    .nullable()
    .describe("Money riding on the outcome (USD): see `value_at_stake_basis`. Null when neither figure could be read"),
  value_at_stake_basis: z
    .enum(["open_interest", "top_holders"])
    .nullable()
    .describe(
      "`open_interest`: the market's open interest from Polymarket's Data API (`/v2/oi`, or `/oi` where v2 is refused): every outcome's held shares at its price. `top_holders`, when the upstream gives no open interest for the market: Σ over both sides of the listed holders' shares × that side's latest price (Data API /holders lists the 20 largest per side, so this is a lower bound)",
    ),
}).meta({ id: "DisputeWithMarket" });

export const disputesEndpoint = oracleEndpoint({
  path: "/api/oracle/disputes",
  summary: "Disputed Polymarket questions with cleartext titles and lifecycle status",
  description:
    "Polymarket questions disputed on Polygon's Optimistic Oracle V2 (requester in `POLYMARKET_UMA_REQUESTERS`), newest " +
    "dispute first, with titles decoded from the ancillary data. Requests that reached mainnet in the compressed form " +
    "(`ancillaryDataHash:…`, no text) are matched to their Polygon origin through the child tunnel's " +
    "`PriceRequestBridged` log. Lifecycle: `disputed → voting → resolved → settled`; a roll keeps a request in `voting` " +
    `and increments \`roll_count\`. Each dispute carries the Polymarket market it decides (\`market\`), the market's ` +
    "probability at the proposal, at the dispute and now, the proposal in words and the value at stake; these are " +
    "computed once per stored answer, with series and holders for the 100 newest joined disputes (older ones keep " +
    `their market, with null figures). Rebuilt every indexer pass. ${CHAIN_NOTE}`,
  data: z.array(DisputeWithMarketSchema),
  meta: {
    polygon_block_number: z.number().int().describe("Polygon block the Optimistic Oracle states were read at"),
    joined_to_market: z.number().int().describe("Disputes whose market was found"),
    market_figures_degraded: z
      .number()
      .int()
      .describe("Disputes whose price series or holders could not be read from the upstream (their figures are null)"),
  },
});

const shares = z.number().describe("Outcome shares (not USD)");
const walletUrlField = z.string().describe("This wallet's resource: /api/predmkt/wallets/{address} (docs/wallets.md)");

export const DisputeDetailSchema = DisputeWithMarketSchema.extend({
  series: z
    .array(z.object({ t: z.number().int().describe("Unix seconds"), p: z.number().min(0).max(1), source: z.enum(["sampled", "clob"]) }))
    .describe(
      "The market's first-outcome probability from a day before the proposal (or the dispute) to now: our samples where they reach, the CLOB's hourly /prices-history before them; a step series (a price holds until the next point), thinned evenly to at most 500 points",
    ),
  vote: z
    .object({
      commits: z
        .number()
        .int()
        .describe("VoteCommitted logs of the request over all its rounds (a commit is a hash of the vote until it is revealed)"),
      rounds: z.array(
        z.object({
          round_id: z.number().int(),
          commits: z.number().int().describe("VoteCommitted logs of the request in this round"),
          reveals: z.number().int(),
          tokens_revealed: tokens,
          votes: z.array(
            z.object({ price: z.string(), outcome: z.string().describe("The price in words"), voters: z.number().int(), tokens }),
          ),
        }),
      ),
      resolved_price: z.string().nullable().describe("The DVM's price (RequestResolved), null until resolved"),
      resolved_outcome: z.string().nullable(),
      resolved_round_id: z.number().int().nullable(),
    })
    .nullable()
    .describe("The DVM vote on the dispute, from the indexed VoteCommitted, VoteRevealed and RequestResolved logs; null until bridged"),
  holders: z
    .array(
      z.object({
        outcome: z.string().nullable(),
        outcome_index: z.number().int().nullable(),
        holders: z.array(z.object({ wallet: z.string(), wallet_url: walletUrlField, name: z.string().nullable(), shares })),
      }),
    )
    .describe("The market's largest holders per side (Data API /holders: 20 per side)"),
  voter_positions: z
    .array(
      z.object({
        voter: address,
        stake: tokens.describe("Tokens the voter revealed with on this dispute, else its stake (top stakers)"),
        roles: z.array(z.enum(["committer", "revealer", "staker"])),
        positions: z.array(
          z.object({
            wallet: z.string(),
            wallet_url: walletUrlField,
            via: z
              .enum(["same_address", "proxy", "safe"])
              .describe(
                "How the wallet is the voter's: its own address, or the CREATE2 proxy wallet / Safe Polymarket's factories derive from it",
              ),
            outcome: z.string(),
            outcome_index: z.number().int(),
            shares,
            certainty: z
              .enum(["certain", "same_address_unverified", "same_address_contract"])
              .describe(
                "`certain`: the voter's mainnet address has no code (one key, one address on both chains); `same_address_unverified`: its code could not be read; `same_address_contract`: it is a contract, whose owner on Polygon need not be the same",
              ),
          }),
        ),
      }),
    )
    .describe(
      "Voters (the dispute's revealers and the 20 largest stakers), by stake, holding a position among the listed holders, each tie through an address equality or a CREATE2 derivation only (docs/resolution.md). A lower bound: other wallets, delegates and small positions are invisible",
    ),
  voters_checked: z.number().int().describe("Voters whose wallets were compared with the holders"),
  unread: z
    .array(z.string())
    .describe("Oracle states (`oo_state`, `dvm_status`) and upstream reads (`clob_history`, `holders`, `top_stakers`) that failed"),
}).meta({ id: "DisputeDetail" });

export const disputeEndpoint = oracleEndpoint({
  path: "/api/oracle/disputes/{id}",
  summary: "One disputed Polymarket question: its market, prices around it, the vote, holders and voter positions",
  description:
    "The dispute of `/api/oracle/disputes` with the Optimistic Oracle request id (or its DVM request id) `id`, with the " +
    "market's price series from a day before the proposal to now, the DVM vote per round, the market's largest holders " +
    `per side and the voters who hold positions in it. Built once per stored oracle answer. ${CHAIN_NOTE}`,
  params: z.object({
    id: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, "must be 0x followed by 64 hex digits")
      .describe("Optimistic Oracle request id (`id` in /api/oracle/disputes) or DVM request id"),
  }),
  data: DisputeDetailSchema,
  meta: { polygon_block_number: z.number().int() },
  notFound: true,
});

export const endpoints = [disputesEndpoint, disputeEndpoint];
