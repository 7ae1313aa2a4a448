// Contracts of the oracle endpoints (spec §4.5): UMA's DVM on Ethereum and the Optimistic Oracle V2 that Polymarket's
// adapters use on Polygon, read on-chain with viem. Field definitions live in the descriptions for users to read.
import { z } from "zod";
import { defineEndpoint } from "../contract";
import { intParam, MetaSchema } from "../schemas";

const isoTime = z.string().describe("ISO 8601 UTC");
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/).describe("EIP-55 checksummed address");
const tokens = z.string().regex(/^-?\d+(\.\d+)?$/).describe("UMA amount in whole tokens as an exact decimal string (18-decimal precision, no rounding)");

const CHAIN_NOTE =
  "Read on-chain (`meta.source: \"chain\"`): every figure of one answer is read at one block, `meta.block_number`, and " +
  "`meta.as_of` is that block's timestamp. Round and phase come from the voting contract's own clock. Answers are " +
  "cached in the server; `meta.cache` says `hit`, `miss` or `stale` (the chain RPC failed and the last good answer, at " +
  "most 10 minutes old, is served instead). Without a last good answer an RPC failure is a 502 (`upstream_unavailable`) " +
  "or 504 (`upstream_timeout`). Logs are scanned in bounded block ranges with stored cursors; while a first scan of a " +
  "long history is still catching up, `meta.backfill_complete` is false and later requests continue it.";

const chainMeta = MetaSchema.extend({
  block_number: z.number().int().describe("Ethereum block every read was made at"),
  backfill_complete: z.boolean().optional().describe("False while the log scan has not reached the head block yet"),
});

export const ActiveRoundSchema = z
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
    pending_requests: z.number().int().describe("Every DVM price request not yet resolved, this round's and future rounds' (getNumberOfPriceRequests())"),
    disputed_requests: z.number().int().describe("Polymarket disputes not yet resolved (status `disputed` or `voting` in /api/oracle/disputes)"),
    resolved_requests: z.number().int().describe("DVM requests resolved since VotingV2's deployment"),
    active_round: ActiveRoundSchema,
  })
  .meta({ id: "OracleSummary" });

export const DisputedAssertionSchema = z
  .object({
    id: z.string().describe("Optimistic Oracle request id: keccak256(abi.encodePacked(requester, identifier, timestamp, ancillaryData)); the DVM request id when the Polygon request is unknown"),
    title: z.string().nullable().describe("Question title decoded from the ancillary data (invalid UTF-8 bytes appear as U+FFFD); for requests bridged in compressed form, recovered from their Polygon origin"),
    description: z.string().nullable(),
    market_id: z.string().nullable().describe("Polymarket market id when the question text names one"),
    status: z.enum(["disputed", "voting", "resolved", "settled"]).describe(
      "disputed: waiting for the DVM (not yet bridged, queued for a later round, or past its roll limit); voting: up for vote in the current round (a roll keeps it in `voting` with `roll_count` + 1); resolved: the DVM has a price; settled: the Optimistic Oracle request is settled on Polygon",
    ),
    vote_phase: z.enum(["commit", "reveal"]).nullable().describe("Phase of the current round while `voting`, else null"),
    roll_count: z.number().int().describe("Times the DVM vote rolled to a later round"),
    requester: address.describe("Optimistic Oracle requester (a Polymarket adapter)"),
    proposer: address.nullable(),
    disputer: address.nullable(),
    proposed_price: z.string().nullable().describe("Proposed price scaled from 1e18 as an exact decimal string: \"1\" = Yes, \"0\" = No, \"0.5\" = unknown"),
    identifier: z.string().describe("Price identifier, e.g. YES_OR_NO_QUERY"),
    requested_at: isoTime.nullable().describe("Timestamp of the Optimistic Oracle request"),
    disputed_at: isoTime.nullable().describe("Block time of the dispute"),
    chain: z.literal("polygon").describe("Chain the question was asked and disputed on"),
    oracle_address: address.nullable(),
    dispute_tx_hash: z.string().nullable(),
    dvm: z
      .object({
        request_id: z.string().describe("VotingV2 request id: keccak256(abi.encode(identifier, time, ancillaryData))"),
        status: z.enum(["not_requested", "active", "resolved", "future", "to_delete"]).nullable(),
        round_id: z.number().int().nullable().describe("Round the request is (or was last) voted in"),
        ancillary_form: z.enum(["compressed", "legacy"]).describe("compressed: mainnet carries only a hash of the text (child tunnel since 2025-04); legacy: cleartext"),
      })
      .nullable()
      .describe("The request on the mainnet DVM; null until the dispute has been bridged"),
  })
  .meta({ id: "DisputedAssertion" });

export const VotingRoundSchema = z
  .object({
    round_id: z.number().int(),
    starts_at: isoTime,
    ends_at: isoTime,
    status: z.enum(["active", "past"]),
    requests: z.number().int().describe("Requests voted in the round: rounds(r).numberOfRequestsToVote"),
    requests_revealed: z.number().int().describe("Distinct requests with at least one reveal"),
    reveal_count: z.number().int().describe("VoteRevealed events of the round"),
    unique_revealers: z.number().int().describe("Distinct voters (stakers, not delegates) that revealed"),
    tokens_revealed: tokens.describe("Sum of numTokens over the round's reveals (a voter revealing on several requests counts each time)"),
    cumulative_stake_at_round: tokens.nullable().describe("Frozen at the round's first reveal; null before it"),
    min_participation_requirement: tokens.nullable().describe("GAT, frozen at the first reveal; null before it"),
    min_agreement_requirement: tokens.nullable().describe("SPAT threshold in tokens, frozen at the first reveal; null before it"),
  })
  .meta({ id: "VotingRound" });

export const VoterSchema = z
  .object({
    rank: z.number().int().describe("1-based; equal stakes share a rank (1, 2, 2, 4), ties ordered by address"),
    address,
    stake: tokens.describe("Current stake after pending slashes (getVoterStakePostUpdate), in whole tokens"),
    delegate: address.nullable().describe("Address allowed to vote for this staker, or null"),
    share_of_total_stake: z.number().min(0).max(1).describe("stake / cumulativeStake()"),
  })
  .meta({ id: "Voter" });

export const summaryEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/oracle/summary",
  summary: "UMA oracle overview: pending and disputed requests, active voting round",
  description: `Pending DVM requests, unresolved Polymarket disputes, and the active VotingV2 round with its phase and when the phase and the round end. Cached 60 s. ${CHAIN_NOTE}`,
  tags: ["Oracle"],
  access: "key",
  response: z.object({ data: OracleSummarySchema, meta: chainMeta }),
  errors: [502, 504],
});

export const disputesEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/oracle/disputes",
  summary: "Disputed Polymarket questions with cleartext titles and lifecycle status",
  description:
    "Polymarket questions disputed on Polygon's Optimistic Oracle V2 (requester in `POLYMARKET_UMA_REQUESTERS`), newest " +
    "dispute first, with titles decoded from the ancillary data. Requests that reached mainnet in the compressed form " +
    "(`ancillaryDataHash:…`, no text) are matched to their Polygon origin through the child tunnel's " +
    "`PriceRequestBridged` log. Lifecycle: `disputed → voting → resolved → settled`; a roll keeps a request in `voting` " +
    `and increments \`roll_count\`. Cached 60 s. ${CHAIN_NOTE}`,
  tags: ["Oracle"],
  access: "key",
  response: z.object({
    data: z.array(DisputedAssertionSchema),
    meta: chainMeta.extend({ polygon_block_number: z.number().int().describe("Polygon block the Optimistic Oracle states were read at") }),
  }),
  errors: [502, 504],
});

export const roundsEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/oracle/rounds",
  summary: "Recent DVM voting rounds with reveal counts",
  description:
    "The current round and every round with reveals, newest first (at most 50), built from VotingV2 `VoteRevealed` " +
    "logs grouped by round (roundId is not an indexed topic, so logs are grouped after the scan) and `rounds(r)`. " +
    `Cached 60 s. ${CHAIN_NOTE}`,
  tags: ["Oracle"],
  access: "key",
  response: z.object({ data: z.array(VotingRoundSchema), meta: chainMeta.extend({ current_round_id: z.number().int() }) }),
  errors: [502, 504],
});

export const votersEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/oracle/voters",
  summary: "Top UMA stakers read on-chain from VotingV2",
  description:
    "Every address that received stake (VotingV2 `Staked` logs), with its current stake read on-chain through " +
    "Multicall3 (post-slash via `getVoterStakePostUpdate`), delegate and share of `cumulativeStake()`, ranked by stake. " +
    "Addresses with no stake left (fully unstaked) are left out. `meta.total` counts stakers; `meta.cumulative_stake` " +
    `is the contract's total. Cached 5 min. ${CHAIN_NOTE}`,
  tags: ["Oracle"],
  access: "key",
  query: z.object({
    limit: intParam({ min: 1, max: 500, default: 50, description: "Number of stakers to return (1-500, default 50)" }),
  }),
  response: z.object({ data: z.array(VoterSchema), meta: chainMeta.extend({ cumulative_stake: tokens }) }),
  errors: [502, 504],
});

export const endpoints = [summaryEndpoint, disputesEndpoint, roundsEndpoint, votersEndpoint];
