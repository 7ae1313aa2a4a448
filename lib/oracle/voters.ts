// Top stakers: every address that ever received stake (the Staked log; there is no on-chain list of stakers), ranked
// in two steps because getVoterStakePostUpdate (the true stake, after pending slashes) walks every request resolved
// since the staker's last update and can run out of gas for a dormant staker (UMA added updateTrackersRange for it):
//   1. voterStakes(x) for every staker in bounded Multicall3 batches: cheap, but `.stake` may be stale;
//   2. getVoterStakePostUpdate(x) for the top K of that ranking, one eth_call each with an explicit gas limit.
// A staker whose stake was not refreshed (outside the top K, or the call failed) keeps voterStakes().stake, marked
// `stake_stale: true`.
import { type Address, decodeFunctionResult, encodeFunctionData, formatUnits, getAddress, zeroAddress } from "viem";
import { votingV2Abi } from "./abi";
import { type OracleContext, votingEvents } from "./context";
import { isTransportFailure, boundedMulticall, required } from "./multicall";
import { toUpstreamError } from "./errors";
import { type ChainHead, readLogs } from "./scan";

export interface StakerReading {
  address: Address;
  stake: bigint;
  delegate: Address | null;
  stale?: boolean;
}

export interface RankedVoter {
  rank: number;
  address: Address;
  stake: string;
  stake_stale: boolean;
  delegate: Address | null;
  share_of_total_stake: number;
}

/** Stake descending; equal stakes share a rank (1, 2, 2, 4) and are ordered by address so the order is stable. */
export function rankVoters(readings: StakerReading[], cumulativeStake: bigint): RankedVoter[] {
  const sorted = readings
    .filter((r) => r.stake > 0n)
    .sort((a, b) => (a.stake === b.stake ? a.address.toLowerCase().localeCompare(b.address.toLowerCase()) : a.stake > b.stake ? -1 : 1));
  let rank = 0;
  return sorted.map((r, i) => {
    if (i === 0 || sorted[i - 1].stake !== r.stake) rank = i + 1;
    return {
      rank,
      address: r.address,
      stake: formatUnits(r.stake, 18),
      stake_stale: r.stale ?? false,
      delegate: r.delegate,
      share_of_total_stake: cumulativeStake > 0n ? Number((r.stake * 10n ** 18n) / cumulativeStake) / 1e18 : 0,
    };
  });
}

// Gas for one getVoterStakePostUpdate: enough for a few thousand resolved requests' slashing updates; a staker further
// behind runs out and keeps its stale stake (marked).
export const VOTER_UPDATE_GAS = 20_000_000n;
const VOTER_STAKES_GAS = 40_000n;

type VoterStakesTuple = readonly [bigint, bigint, bigint, bigint, bigint, bigint, bigint, Address];

export interface VotersSnapshot {
  voters: RankedVoter[];
  cumulativeStake: string;
  /** Stakers whose stake could not be refreshed (outside the top K or a failed getVoterStakePostUpdate). */
  staleCount: number;
  blockNumber: bigint;
  asOf: bigint;
}

export async function loadVoters(ctx: OracleContext, head: ChainHead): Promise<VotersSnapshot> {
  const db = await ctx.db();
  const address = ctx.config.votingV2;
  const staked = await readLogs(db, "ethereum", [address], votingEvents.staked, ctx.config.votingV2FromBlock, head.number);
  // Staked.voter is topic1 (the recipient); no need to decode the data.
  const addresses = [...new Set(staked.map((l) => getAddress(`0x${l.topics[1].slice(26)}`)))];
  const reads = await boundedMulticall(
    ctx.clients.ethereum,
    "ethereum",
    [
      { address, abi: votingV2Abi, functionName: "cumulativeStake" },
      ...addresses.map((voter) => ({ address, abi: votingV2Abi, functionName: "voterStakes", args: [voter], gas: VOTER_STAKES_GAS })),
    ],
    { blockNumber: head.number },
  );
  const cumulative = required<bigint>(reads[0], "cumulativeStake()", "ethereum");
  const readings: StakerReading[] = [];
  addresses.forEach((voter, i) => {
    // A staker whose voterStakes() failed cannot be ranked at all; it is left out and counted as stale.
    const read = reads[1 + i];
    if (!read.ok) return;
    const [stake, , , , , , , delegate] = read.value as VoterStakesTuple;
    readings.push({ address: voter, stake, delegate: delegate === zeroAddress ? null : getAddress(delegate), stale: true });
  });
  const unreadStakers = addresses.length - readings.length;
  const byStaleStake = [...readings].sort((a, b) => (a.stake === b.stake ? 0 : a.stake > b.stake ? -1 : 1));
  for (const reading of byStaleStake.slice(0, ctx.config.topVoters)) {
    try {
      const data = await ctx.clients.ethereum.call({
        to: address,
        data: encodeFunctionData({ abi: votingV2Abi, functionName: "getVoterStakePostUpdate", args: [reading.address] }),
        gas: VOTER_UPDATE_GAS,
        blockNumber: head.number,
      });
      reading.stake = decodeFunctionResult({ abi: votingV2Abi, functionName: "getVoterStakePostUpdate", data: data.data! });
      reading.stale = false;
    } catch (error) {
      if (isTransportFailure(error)) throw toUpstreamError(error, "ethereum") ?? error;
      // Out of gas (a staker far behind) or a revert: keep voterStakes().stake, marked stale.
    }
  }
  const voters = rankVoters(readings, cumulative);
  return {
    voters,
    cumulativeStake: formatUnits(cumulative, 18),
    staleCount: voters.filter((v) => v.stake_stale).length + unreadStakers,
    blockNumber: head.number,
    asOf: head.timestamp,
  };
}
