// Contracts of the oracle endpoints (docs/api-decisions.md#oracle-endpoints): UMA's DVM on Ethereum and the Optimistic Oracle V2 that Polymarket's
// adapters use on Polygon, read on-chain with viem. Field definitions live in the descriptions for users to read.
import { z } from "zod";
import { defineEndpoint, type EndpointContract } from "../contract";
import { intParam, MetaSchema } from "../schemas";
import { isoTime, QuestionOutcomeSchema } from "@/lib/predmkt/shapes";
import { DISPUTE_STATUSES, DVM_STATUSES, OO_STATES } from "@/lib/oracle/lifecycle";

export const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/)
  .describe("EIP-55 checksummed address");
export const tokens = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/)
  .describe("UMA amount in whole tokens as an exact decimal string (18-decimal precision, no rounding)");

export const CHAIN_NOTE =
  'Read on-chain (`meta.source: "chain"`) by a background indexer, never on the request: every figure of one answer ' +
  "is read at one block, `meta.block_number` (finalized, or a configured number of confirmations below the head), and " +
  "`meta.as_of` is that block's timestamp. Round and phase come from the voting contract's own clock. The indexer " +
  "stores each answer after every pass; `meta.cache` is `hit` for a stored answer, `miss` when the request had to " +
  "build the first one, `stale` when the stored answer is more than 10 minutes old (the indexer is failing; the " +
  "answer still says which block it is from). With nothing stored yet and the chain RPC failing, the answer is a 502 " +
  "(`upstream_unavailable`) or 504 (`upstream_timeout`). While the first scan of a long history is still catching " +
  "up, `meta.backfill_complete` is false. A row whose contract state could not be read lists it in `unread` and " +
  "`meta.degraded_rows` counts such rows; the rest of the answer is unaffected.";

const chainMeta = MetaSchema.extend({
  block_number: z.number().int().describe("Ethereum block every read was made at"),
  backfill_complete: z.boolean().optional().describe("False while the log scan has not reached the indexed block yet"),
  degraded_rows: z.number().int().optional().describe("Rows with a non-empty `unread` (a contract read that failed for that row)"),
});

/**
 * An oracle contract: GET behind a key, tagged Oracle, answering `{data, meta}` where meta is chainMeta with `meta`'s
 * fields, failing on the chain RPC with 502/504 (and 404 for an unknown id when `notFound`).
 */
export function oracleEndpoint<
  D extends z.ZodType,
  M extends z.ZodRawShape,
  Q extends z.ZodObject | undefined = undefined,
  P extends z.ZodObject | undefined = undefined,
>({
  data,
  meta,
  notFound = false,
  ...contract
}: Pick<EndpointContract, "path" | "summary" | "description"> & { query?: Q; params?: P; data: D; meta: M; notFound?: boolean }) {
  return defineEndpoint({
    method: "GET",
    tags: ["Oracle"],
    access: "key",
    ...contract,
    response: z.object({ data, meta: chainMeta.extend(meta) }),
    errors: notFound ? [404, 502, 504] : [502, 504],
  });
}

const ActiveRoundSchema = z
  .object({
    round_id: z.number().int().describe("VotingV2 round id: floor(block time / (2 × phaseLength))"),
    phase: z.enum(["commit", "reveal"]),
    phase_ends_at: isoTime,
    round_ends_at: isoTime,
    requests_to_vote: z.number().int().describe("Requests up for vote this round (getPendingRequests())"),
  })
  .meta({ id: "OracleActiveRound" });

export const OracleSummarySchema = z
  .object({
    pending_requests: z
      .number()
      .int()
      .describe(
        "Every DVM price request not yet resolved, this round's and future rounds' (getNumberOfPriceRequestsPostUpdate(): a request whose vote concluded counts as resolved even before VotingV2 processes it)",
      ),
    disputed_requests: z
      .number()
      .int()
      .describe("Polymarket disputes not yet resolved (status `disputed` or `voting` in /api/oracle/disputes)"),
    resolved_requests: z.number().int().describe("DVM requests resolved since VotingV2's deployment"),
    active_round: ActiveRoundSchema,
  })
  .meta({ id: "OracleSummary" });

export const DisputedAssertionSchema = z
  .object({
    id: z
      .string()
      .describe(
        "Optimistic Oracle request id: keccak256(abi.encodePacked(requester, identifier, timestamp, ancillaryData)); the DVM request id when the Polygon request is unknown",
      ),
    question_id: z
      .string()
      .describe(
        "Polymarket's questionID: keccak256 of the adapter's ancillary data (the question text with `,initializer:<creator>`; UMA's `,ooRequester:` stamps cut off). For the 2021-22 adapter it is only the text's hash",
      ),
    title: z
      .string()
      .nullable()
      .describe(
        "Question title decoded from the ancillary data (invalid UTF-8 bytes appear as U+FFFD); for requests bridged in compressed form, recovered from their Polygon origin",
      ),
    description: z.string().nullable(),
    market_id: z.string().nullable().describe("Polymarket market id when the question text names one"),
    status: z
      .enum(DISPUTE_STATUSES)
      .describe(
        "disputed: waiting for the DVM (not yet bridged, or past its roll limit); queued: on the DVM for a later round's vote (VotingV2 `Future`); voting: up for vote in the current round (a roll keeps it in `voting` with `roll_count` + 1); dvm_resolved: the DVM has a price that has not reached Polygon yet (OO still `Disputed`); resolved: the Optimistic Oracle has the DVM's price (OO `Resolved`), not settled yet; settled: the Optimistic Oracle request is settled on Polygon; deleted: the DVM request was deleted after rolling past maxRolls (RequestDeleted), so no price will come and the OO request stays `Disputed`. UMA's own names: `oo_state`, `dvm_status` (mapping in docs/oracle-facts.md)",
      ),
    oo_state: z
      .enum(OO_STATES)
      .nullable()
      .describe("OptimisticOracleV2Interface.State of the Polygon request as read (getState); null when unknown or unread"),
    dvm_status: z
      .enum(DVM_STATUSES)
      .nullable()
      .describe("VotingV2.RequestStatus of the DVM request as read (getPriceRequestStatuses); null when not bridged or unread"),
    vote_phase: z.enum(["commit", "reveal"]).nullable().describe("Phase of the current round while `voting`, else null"),
    roll_count: z
      .number()
      .int()
      .describe(
        "Times the DVM vote rolled to a later round, as VotingV2 counts it (`_getActualRollCount`: a round that passed unresolved counts even before anyone processes the queue)",
      ),
    question_reset: z
      .boolean()
      .describe(
        "The adapter reset the question in this dispute's transaction (UmaCtfAdapter.priceDisputed on a first dispute: a new request asks again). The market resolves from that new request; this dispute's vote decides only the bonds",
      ),
    question_outcome: QuestionOutcomeSchema.nullable().describe(
      "What the question's own contracts decided outside the vote and still stands: the adapter's (or the sports oracle's game), and for a neg-risk question its NegRiskOperator's, which decides when it stands (the market resolves only through it); otherwise the resolution over a flag over a pause over a reset. Null when nothing does. `status` stays the disputed request's own",
    ),
    requester: address.describe("Optimistic Oracle requester (a Polymarket adapter)"),
    proposer: address.nullable(),
    disputer: address.nullable(),
    proposed_price: z
      .string()
      .nullable()
      .describe('Proposed price scaled from 1e18 as an exact decimal string: "1" = Yes, "0" = No, "0.5" = unknown'),
    identifier: z.string().describe("Price identifier, e.g. YES_OR_NO_QUERY"),
    requested_at: isoTime.nullable().describe("Timestamp of the Optimistic Oracle request"),
    proposed_at: isoTime
      .nullable()
      .describe(
        "When the disputed proposal was made: the DVM request's time (OOv2 sends an event-based request, as all of Polymarket's are, to the DVM at its proposal time); null until bridged",
      ),
    disputed_at: isoTime.nullable().describe("Block time of the dispute"),
    chain: z.literal("polygon").describe("Chain the question was asked and disputed on"),
    oracle_address: address.nullable(),
    dispute_tx_hash: z.string().nullable(),
    dvm: z
      .object({
        request_id: z.string().describe("VotingV2 request id: keccak256(abi.encode(identifier, time, ancillaryData))"),
        status: z
          .enum(["not_requested", "active", "resolved", "future", "to_delete", "deleted"])
          .nullable()
          .describe("getPriceRequestStatuses(); `deleted`: removed after too many rolls (RequestDeleted); null when unread"),
        round_id: z.number().int().nullable().describe("Round the request is (or was last) voted in"),
        ancillary_form: z
          .enum(["compressed", "legacy"])
          .describe("compressed: mainnet carries only a hash of the text (child tunnel since 2025-04); legacy: cleartext"),
      })
      .nullable()
      .describe("The request on the mainnet DVM; null until the dispute has been bridged"),
    neg_risk: z
      .object({
        operator: address.describe("The NegRiskOperator whose questionIds(question_id) answered"),
        question_id: z.string().describe("The neg-risk question id (Gamma's `questionID` of the market)"),
        market_id: z.string().describe("Its neg-risk market id (Gamma's `negRiskMarketID`)"),
        condition_ids: z
          .array(z.string())
          .describe("getConditionId(adapter, question_id, 2) for the operator's nrAdapter() and the legacy NegRiskAdapter 0xd91E80cF…5296"),
      })
      .nullable()
      .describe(
        "For a neg-risk adapter's question: the question the operator prepared for this questionID (docs/oracle-indexer.md); else null",
      ),
    sports: z
      .object({
        game_id: z.string().describe("keccak256 of the game's ancillary data (UmaSportsOracle)"),
        markets: z
          .array(
            z.object({
              market_id: z.string(),
              condition_id: z.string(),
              market_type: z.enum(["winner", "spreads", "totals"]),
              line: z.string().describe("Spreads and totals line scaled by 1e6, as the contract stores it"),
            }),
          )
          .describe("Every market the sports oracle created on the game (MarketCreated logs): one dispute decides them all"),
      })
      .nullable()
      .describe("For a dispute of Polymarket's sports oracle (MULTIPLE_VALUES game scores): the game and its markets; else null"),
    unread: z
      .array(z.enum(["oo_state", "dvm_status"]))
      .describe(
        "Contract states that could not be read for this row (empty normally). An unread `oo_state` is taken as Disputed; an unread `dvm_status` leaves `dvm.status` null",
      ),
  })
  .meta({ id: "DisputedAssertion" });

export const VotingRoundSchema = z
  .object({
    round_id: z.number().int(),
    starts_at: isoTime,
    ends_at: isoTime,
    status: z.enum(["active", "past"]),
    requests: z
      .number()
      .int()
      .nullable()
      .describe(
        "Requests voted in the round, as VotingV2 counts them: rounds(r).numberOfRequestsToVote (a request counts in the round it lands in, a roll in the round that processes it); for the active round plus the requests rolled into it that VotingV2 has not processed yet. null when unread",
      ),
    requests_revealed: z.number().int().describe("Distinct requests with at least one reveal"),
    reveal_count: z.number().int().describe("VoteRevealed events of the round"),
    unique_revealers: z.number().int().describe("Distinct voters (stakers, not delegates) that revealed"),
    tokens_revealed: tokens.describe("Sum of numTokens over the round's reveals (a voter revealing on several requests counts each time)"),
    cumulative_stake_at_round: tokens.nullable().describe("Frozen at the round's first reveal; null before it"),
    min_participation_requirement: tokens.nullable().describe("GAT, frozen at the first reveal; null before it"),
    min_agreement_requirement: tokens.nullable().describe("SPAT threshold in tokens, frozen at the first reveal; null before it"),
    unread: z.array(z.literal("rounds")).describe('["rounds"] when rounds(r) could not be read (its figures are then null), else []'),
  })
  .meta({ id: "VotingRound" });

export const VoterSchema = z
  .object({
    rank: z.number().int().describe("1-based; equal stakes share a rank (1, 2, 2, 4), ties ordered by address"),
    address,
    stake: tokens.describe(
      "Current stake after pending slashes (getVoterStakePostUpdate) for the top stakers; voterStakes().stake, which can lag pending slashes, where `stake_stale` is true",
    ),
    stake_stale: z
      .boolean()
      .describe(
        "True when the stake could not be refreshed with getVoterStakePostUpdate (outside the refreshed top, or the call ran out of gas)",
      ),
    delegate: address
      .nullable()
      .describe(
        "Address voting for this staker, when the delegation is in effect: the staker named it (setDelegate) and it named the staker back (setDelegator), as Staker.getVoterFromDelegate requires; else null",
      ),
    pending_delegate: address
      .nullable()
      .describe(
        "Delegate the staker named that has not named the staker back (not in effect; UMA's voter dapp shows it as pending), else null",
      ),
    pending_unstake: tokens.describe("Stake in its unstake cooldown (voterStakes().pendingUnstake): no longer staked, not yet withdrawn"),
    unstake_time: isoTime.nullable().describe("When the pending unstake can be executed (voterStakes().unstakeTime); null when none"),
    share_of_total_stake: z
      .number()
      .min(0)
      .max(1)
      .describe(
        "stake / the sum of every listed staker's stake, each as its row shows it (one basis: the shares sum to 1). Not cumulativeStake(), the contract's principal, which applied slashes never move",
      ),
  })
  .meta({ id: "Voter" });

export const summaryEndpoint = oracleEndpoint({
  path: "/api/oracle/summary",
  summary: "UMA oracle overview: pending and disputed requests, active voting round",
  description: `Pending DVM requests, unresolved Polymarket disputes, and the active VotingV2 round with its phase and when the phase and the round end. Rebuilt every indexer pass. ${CHAIN_NOTE}`,
  data: OracleSummarySchema,
  meta: {
    counts_stale: z
      .boolean()
      .optional()
      .describe("True when the request counts come from getNumberOfPriceRequests() because getNumberOfPriceRequestsPostUpdate() failed"),
  },
});

export const roundsEndpoint = oracleEndpoint({
  path: "/api/oracle/rounds",
  summary: "Recent DVM voting rounds with reveal counts",
  description:
    "The current round and every round with reveals, newest first (at most 50), built from VotingV2 `VoteRevealed` " +
    "logs grouped by round (roundId is not an indexed topic, so logs are grouped after the scan) and `rounds(r)`. " +
    `Rebuilt every indexer pass. ${CHAIN_NOTE}`,
  data: z.array(VotingRoundSchema),
  meta: { current_round_id: z.number().int() },
});

export const votersEndpoint = oracleEndpoint({
  path: "/api/oracle/voters",
  summary: "Top UMA stakers read on-chain from VotingV2",
  description:
    "Every address that received stake (VotingV2 `Staked` logs), with its current stake read on-chain through " +
    "bounded Multicall3 batches (`voterStakes`), the top stakers then refreshed post-slash one by one " +
    "(`getVoterStakePostUpdate`, an explicit gas limit; a staker not refreshed is marked `stake_stale`), delegate (both " +
    "sides agreeing), pending unstake and share of the listed stakes, ranked by stake. " +
    "Addresses with no stake left (fully unstaked) are left out. `meta.total` counts stakers; `meta.cumulative_stake` " +
    `is the contract's total. Rebuilt at most every 5 minutes. ${CHAIN_NOTE}`,
  query: z.object({
    limit: intParam({ min: 1, max: 500, default: 50, description: "Number of stakers to return (1-500, default 50)" }),
  }),
  data: z.array(VoterSchema),
  meta: {
    cumulative_stake: tokens,
    stale_stakes: z.number().int().optional().describe("Stakers with a stale stake"),
    pending_unstakes: z
      .object({ stakers: z.number().int(), tokens })
      .optional()
      .describe("Stakers with an unstake in cooldown (fully unstaking ones included, who are not listed) and its sum"),
  },
});

const chainPass = z.object({
  head: z.number().int().nullable().describe("Indexed head block (finalized or N confirmations below the latest)"),
  rewound_to: z.number().int().nullable().describe("Block the cursors were rewound to after a reorg, or null"),
  scanned_to: z.number().int().nullable(),
  backfill_progress: z.number().min(0).max(1).describe("Share of the scan's block span covered so far"),
  backfill_complete: z.boolean(),
  chunk_size: z.number().int().describe("eth_getLogs range in use (cut on a provider's range/result error, grown back after)"),
  error: z.string().nullable(),
});

const IndexerPassSchema = z
  .object({
    status: z.enum(["ok", "partial", "failed"]),
    duration_ms: z.number().int(),
    chains: z.object({ ethereum: chainPass, polygon: chainPass }),
    snapshots: z.record(z.string(), z.enum(["built", "kept", "failed"])).describe("What each oracle endpoint's stored answer became"),
    rpc_calls: z.record(z.string(), z.record(z.string(), z.number().int())).describe("JSON-RPC calls of this pass by chain and method"),
  })
  .meta({ id: "OracleIndexerPass" });

export const cronOracleEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/cron/oracle",
  summary: "Run one oracle indexer pass (Vercel cron)",
  description:
    "Scans both chains' new logs up to the indexed head (resuming a backfill), rewinds on a reorg, and rebuilds the " +
    "stored answers of the four oracle endpoints. Needs `Authorization: Bearer <CRON_SECRET>` (no API key); a missing " +
    'or wrong secret is a 401. A pass whose RPCs failed answers 200 with `status: "failed"` or `"partial"` and ' +
    "the errors; the stored answers it could not rebuild stay as they were.",
  tags: ["System"],
  access: "public",
  response: z.object({ data: IndexerPassSchema }),
  errors: [401],
});

export const endpoints = [summaryEndpoint, roundsEndpoint, votersEndpoint, cronOracleEndpoint];
