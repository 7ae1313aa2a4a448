// Top stakers: every address that ever received stake (the Staked log; there is no on-chain list of stakers), ranked
// in two steps because getVoterStakePostUpdate (the true stake, after pending slashes) walks every request resolved
// since the staker's last update and can run out of gas for a dormant staker (UMA added updateTrackersRange for it):
//   1. voterStakes(x) for every staker in bounded Multicall3 batches: cheap, but `.stake` may be stale; with it the
//      pending unstake and its time, and the delegate the staker named, whose own side (delegateToStaker) is read too;
//   2. getVoterStakePostUpdate(x) for the top K of that ranking, one eth_call each with an explicit gas limit.
// A staker whose stake was not refreshed (outside the top K, or the call failed) keeps voterStakes().stake, marked
// `stake_stale: true`. The figures follow UMA's contracts (docs/oracle-facts.md, "Figures").
import { type Address, decodeFunctionResult, encodeFunctionData, formatUnits, getAddress, zeroAddress } from "viem";
import { votingV2Abi } from "./abi";
import { type OracleContext, votingEvents } from "./context";
import { isTransportFailure, boundedMulticall, required } from "./multicall";
import { toUpstreamError } from "./errors";
import { type ChainHead, readLogs } from "./scan";
import { isoFromSeconds } from "./time";

interface StakerReading {
  address: Address;
  stake: bigint;
  /** The delegate, only when both sides agree (the staker's setDelegate and the delegate's setDelegator). */
  delegate: Address | null;
  /** The delegate the staker named that has not named the staker back (not in effect: Staker.getVoterFromDelegate). */
  pendingDelegate?: Address | null;
  pendingUnstake?: bigint;
  /** Unix seconds from which the pending unstake can be executed (voterStakes().unstakeTime), 0 when none. */
  unstakeTime?: bigint;
  stale?: boolean;
}

export interface RankedVoter {
  rank: number;
  address: Address;
  stake: string;
  stake_stale: boolean;
  delegate: Address | null;
  pending_delegate: Address | null;
  pending_unstake: string;
  unstake_time: string | null;
  share_of_total_stake: number;
}

/**
 * Stake descending; equal stakes share a rank (1, 2, 2, 4) and are ordered by address so the order is stable. A share
 * is the staker's stake over the sum of the stakes listed, each as its row shows it, so numerator and denominator are on
 * one basis and the shares sum to 1 (cumulativeStake() is the contract's principal, which applied slashes never move:
 * docs/oracle-facts.md, "Figures").
 */
export function rankVoters(readings: StakerReading[]): RankedVoter[] {
  const sorted = readings
    .filter((r) => r.stake > 0n)
    .sort((a, b) => (a.stake === b.stake ? a.address.toLowerCase().localeCompare(b.address.toLowerCase()) : a.stake > b.stake ? -1 : 1));
  const total = sorted.reduce((sum, r) => sum + r.stake, 0n);
  let rank = 0;
  return sorted.map((r, i) => {
    if (i === 0 || sorted[i - 1].stake !== r.stake) rank = i + 1;
    return {
      rank,
      address: r.address,
      stake: formatUnits(r.stake, 18),
      stake_stale: r.stale ?? false,
      delegate: r.delegate,
      pending_delegate: r.pendingDelegate ?? null,
      pending_unstake: formatUnits(r.pendingUnstake ?? 0n, 18),
      unstake_time: r.unstakeTime ? isoFromSeconds(r.unstakeTime) : null,
      share_of_total_stake: total > 0n ? Number((r.stake * 10n ** 18n) / total) / 1e18 : 0,
    };
  });
}

// Gas for one getVoterStakePostUpdate: enough for a few thousand resolved requests' slashing updates; a staker further
// behind runs out and keeps its stale stake (marked).
const VOTER_UPDATE_GAS = 20_000_000n;
const VOTER_STAKES_GAS = 40_000n;

type VoterStakesTuple = readonly [bigint, bigint, bigint, bigint, bigint, bigint, bigint, Address];

export interface VotersSnapshot {
  voters: RankedVoter[];
  cumulativeStake: string;
  /** Stakers whose stake could not be refreshed (outside the top K or a failed getVoterStakePostUpdate). */
  staleCount: number;
  /** Stakers with an unstake in cooldown (voterStakes().pendingUnstake > 0), fully unstaking ones included, and its sum. */
  pendingUnstakes: { stakers: number; tokens: string };
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
  let pendingStakers = 0;
  let pendingTokens = 0n;
  addresses.forEach((voter, i) => {
    // A staker whose voterStakes() failed cannot be ranked at all; it is left out and counted as stale.
    const read = reads[1 + i];
    if (!read.ok) return;
    const [stake, pendingUnstake, , , , , unstakeTime, delegate] = read.value as VoterStakesTuple;
    if (pendingUnstake > 0n) {
      pendingStakers += 1;
      pendingTokens += pendingUnstake;
    }
    readings.push({
      address: voter,
      stake,
      delegate: null,
      pendingDelegate: delegate === zeroAddress ? null : getAddress(delegate),
      pendingUnstake,
      unstakeTime,
      stale: true,
    });
  });
  await confirmDelegations(ctx, head, readings);
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
  const voters = rankVoters(readings);
  return {
    voters,
    cumulativeStake: formatUnits(cumulative, 18),
    staleCount: voters.filter((v) => v.stake_stale).length + unreadStakers,
    pendingUnstakes: { stakers: pendingStakers, tokens: formatUnits(pendingTokens, 18) },
    blockNumber: head.number,
    asOf: head.timestamp,
  };
}

/**
 * A delegation is in effect only when both sides agree: the staker's voterStakes().delegate names the delegate and the
 * delegate's delegateToStaker names the staker back (Staker.sol `setDelegate`, `setDelegator`, `getVoterFromDelegate`;
 * UMA's voter dapp shows one side alone as a pending request). Reads each named delegate's side in bounded batches; a
 * failed read leaves the delegation pending.
 */
async function confirmDelegations(ctx: OracleContext, head: ChainHead, readings: StakerReading[]): Promise<void> {
  const named = readings.filter((r) => r.pendingDelegate);
  if (!named.length) return;
  const reads = await boundedMulticall(
    ctx.clients.ethereum,
    "ethereum",
    named.map((r) => ({
      address: ctx.config.votingV2,
      abi: votingV2Abi,
      functionName: "delegateToStaker",
      args: [r.pendingDelegate!],
      gas: VOTER_STAKES_GAS,
    })),
    { blockNumber: head.number },
  );
  named.forEach((r, i) => {
    const read = reads[i];
    if (read.ok && (read.value as Address).toLowerCase() === r.address.toLowerCase()) {
      r.delegate = r.pendingDelegate!;
      r.pendingDelegate = null;
    }
  });
}
