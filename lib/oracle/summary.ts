// The DVM at a glance: pending requests, Polymarket disputes not yet resolved, and the active round with its phase,
// all from the chain's own clock (VotingV2's round and phase at the head block).
import { votingV2Abi } from "./abi";
import { MULTICALL3_ADDRESS } from "./clients";
import { headOf, type OracleContext } from "./context";
import { onChain } from "./errors";

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
  activeRound: ActiveRound;
  blockNumber: bigint;
  asOf: bigint;
}

const iso = (seconds: bigint) => new Date(Number(seconds) * 1000).toISOString();

export async function loadChainSummary(ctx: OracleContext): Promise<ChainSummary> {
  const head = await headOf(ctx, "ethereum");
  const address = ctx.config.votingV2;
  const [roundId, phase, phaseLength, active, counts] = await onChain("ethereum", () =>
    ctx.clients.ethereum.multicall({
      allowFailure: false,
      blockNumber: head.number,
      multicallAddress: MULTICALL3_ADDRESS,
      contracts: [
        { address, abi: votingV2Abi, functionName: "getCurrentRoundId" },
        { address, abi: votingV2Abi, functionName: "getVotePhase" },
        { address, abi: votingV2Abi, functionName: "voteTiming" },
        { address, abi: votingV2Abi, functionName: "getPendingRequests" },
        { address, abi: votingV2Abi, functionName: "getNumberOfPriceRequests" },
      ],
    }),
  );
  // VoteTiming.sol: a round is two phases; getRoundEndTime(r) = 2 * phaseLength * (r + 1).
  const roundEnd = 2n * phaseLength * (BigInt(roundId) + 1n);
  const isReveal = Number(phase) === 1;
  return {
    pendingRequests: Number(counts[0]),
    resolvedRequests: Number(counts[1]),
    activeRound: {
      round_id: roundId,
      phase: isReveal ? "reveal" : "commit",
      phase_ends_at: iso(isReveal ? roundEnd : roundEnd - phaseLength),
      round_ends_at: iso(roundEnd),
      requests_to_vote: active.length,
    },
    blockNumber: head.number,
    asOf: head.timestamp,
  };
}
