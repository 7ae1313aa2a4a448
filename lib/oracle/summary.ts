// The DVM at a glance: pending requests, Polymarket disputes not yet resolved, and the active round with its phase,
// all from the chain's own clock (VotingV2's round and phase at the indexed block). Request counts come from
// getNumberOfPriceRequestsPostUpdate(): VotingV2 processes requests lazily, so the plain getNumberOfPriceRequests()
// still counts a request whose vote has concluded as pending until someone processes the queue (UMA's own comment on
// the function says to use the PostUpdate one). Only a node that refuses that eth_call falls back to the plain one.
import type { Hex } from "viem";
import { votingV2Abi } from "./abi";
import type { OracleContext } from "./context";
import { dvmRequestId } from "./ancillary";
import { boundedMulticall, required } from "./multicall";
import type { ChainHead } from "./scan";
import { isoFromSeconds } from "./time";

export interface ActiveRound {
  round_id: number;
  phase: "commit" | "reveal";
  phase_ends_at: string;
  round_ends_at: string;
  requests_to_vote: number;
}

export interface ChainSummary {
  pendingRequests: number;
  resolvedRequests: number;
  /** True when the counts come from the plain (possibly stale) getNumberOfPriceRequests(). */
  countsStale: boolean;
  activeRound: ActiveRound;
  /** Roll count of each request up for vote now, by DVM request id (lower case): the true count, RequestRolled lags. */
  rollCounts: Map<string, number>;
  /**
   * Requests up for vote now whose roll into this round VotingV2 has not processed yet (their stored lastVotingRound is
   * a past round): rounds(current).numberOfRequestsToVote does not count them until processing does.
   */
  unprocessedRolls: number;
  blockNumber: bigint;
  asOf: bigint;
}

interface PendingRequest {
  lastVotingRound: number;
  isGovernance: boolean;
  time: bigint;
  rollCount: number;
  identifier: Hex;
  ancillaryData: Hex;
}

export async function loadChainSummary(ctx: OracleContext, head: ChainHead): Promise<ChainSummary> {
  const address = ctx.config.votingV2;
  const abi = votingV2Abi;
  const reads = await boundedMulticall(
    ctx.clients.ethereum,
    "ethereum",
    [
      { address, abi, functionName: "getCurrentRoundId" },
      { address, abi, functionName: "getVotePhase" },
      { address, abi, functionName: "voteTiming" },
      // getPendingRequests() copies every active request's ancillary data: give it a batch of its own.
      { address, abi, functionName: "getPendingRequests", gas: 25_000_000n },
      { address, abi, functionName: "getNumberOfPriceRequestsPostUpdate", gas: 25_000_000n },
      { address, abi, functionName: "getNumberOfPriceRequests" },
    ],
    { blockNumber: head.number },
  );
  const roundId = required<number>(reads[0], "getCurrentRoundId()", "ethereum");
  const phase = required<number>(reads[1], "getVotePhase()", "ethereum");
  const phaseLength = required<bigint>(reads[2], "voteTiming()", "ethereum");
  const pending = required<readonly PendingRequest[]>(reads[3], "getPendingRequests()", "ethereum");
  const countsStale = !reads[4].ok;
  const counts = required<readonly [bigint, bigint]>(reads[4].ok ? reads[4] : reads[5], "getNumberOfPriceRequests()", "ethereum");
  // VoteTiming.sol: a round is two phases; getRoundEndTime(r) = 2 * phaseLength * (r + 1).
  const roundEnd = 2n * phaseLength * (BigInt(roundId) + 1n);
  const isReveal = Number(phase) === 1;
  return {
    pendingRequests: Number(counts[0]),
    resolvedRequests: Number(counts[1]),
    countsStale,
    activeRound: {
      round_id: roundId,
      phase: isReveal ? "reveal" : "commit",
      phase_ends_at: isoFromSeconds(isReveal ? roundEnd : roundEnd - phaseLength),
      round_ends_at: isoFromSeconds(roundEnd),
      requests_to_vote: pending.length,
    },
    rollCounts: new Map(
      pending.map((r) => [dvmRequestId(r.identifier, BigInt(r.time), r.ancillaryData).toLowerCase(), Number(r.rollCount)] as const),
    ),
    // getPendingRequests returns the stored lastVotingRound (VotingV2.sol line 546), not the current one.
    unprocessedRolls: pending.filter((r) => Number(r.lastVotingRound) < Number(roundId)).length,
    blockNumber: head.number,
    asOf: head.timestamp,
  };
}
