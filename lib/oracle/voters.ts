// Top stakers: every address that ever received stake (the Staked log; there is no on-chain list of stakers), their
// stake read on-chain at one block through Multicall3 (post-slash via getVoterStakePostUpdate, falling back to the
// possibly stale voterStakes().stake when that call fails), delegate, and share of cumulativeStake().
import { type Address, type ContractFunctionParameters, formatUnits, getAddress, type Hex, zeroAddress } from "viem";
import { votingV2Abi } from "./abi";
import { MULTICALL_BATCH_BYTES, MULTICALL3_ADDRESS } from "./clients";
import { headOf, type OracleContext, votingEvents, votingScan } from "./context";
import { onChain, toUpstreamError } from "./errors";
import { advanceScan, readLogs } from "./scan";

export interface StakerReading {
  address: Address;
  stake: bigint;
  delegate: Address | null;
}

export interface RankedVoter {
  rank: number;
  address: Address;
  stake: string;
  delegate: Address | null;
  share_of_total_stake: number;
  pending_unstake?: string;
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
      delegate: r.delegate,
      share_of_total_stake: cumulativeStake > 0n ? Number((r.stake * 10n ** 18n) / cumulativeStake) / 1e18 : 0,
    };
  });
}

export interface VotersSnapshot {
  voters: RankedVoter[];
  cumulativeStake: string;
  blockNumber: bigint;
  asOf: bigint;
  backfillComplete: boolean;
}

export async function loadVoters(ctx: OracleContext): Promise<VotersSnapshot> {
  const head = await headOf(ctx, "ethereum");
  const scan = await advanceScan(ctx, votingScan(ctx.config), head.number);
  const db = await ctx.db();
  const staked = await readLogs(db, "ethereum", [ctx.config.votingV2], votingEvents.staked, ctx.config.votingV2FromBlock);
  // Staked.voter is topic1 (the recipient); no need to decode the data.
  const addresses = [...new Set(staked.map((l) => getAddress(`0x${(l.topics[1] as Hex).slice(26)}`)))];
  const address = ctx.config.votingV2;
  const contracts: ContractFunctionParameters<typeof votingV2Abi>[] = [
    { address, abi: votingV2Abi, functionName: "cumulativeStake" },
    ...addresses.flatMap((voter) => [
      { address, abi: votingV2Abi, functionName: "voterStakes", args: [voter] } as const,
      { address, abi: votingV2Abi, functionName: "getVoterStakePostUpdate", args: [voter] } as const,
    ]),
  ];
  const results = await onChain("ethereum", () =>
    ctx.clients.ethereum.multicall({ allowFailure: true, blockNumber: head.number,
      multicallAddress: MULTICALL3_ADDRESS, batchSize: MULTICALL_BATCH_BYTES, contracts }),
  );
  const cumulative = results[0];
  // With allowFailure, a transport failure arrives as per-call failures instead of a throw: map it like one.
  const failed = (error: unknown) => toUpstreamError(error, "ethereum") ?? error;
  if (cumulative.status !== "success") throw failed(cumulative.error);
  const readings: StakerReading[] = addresses.map((voter, i) => {
    const stakes = results[1 + 2 * i];
    const postUpdate = results[2 + 2 * i];
    if (stakes.status !== "success") throw failed(stakes.error);
    const [stake, , , , , , , delegate] = stakes.result as unknown as readonly [bigint, bigint, bigint, bigint, bigint, bigint, bigint, Address];
    return {
      address: voter,
      stake: postUpdate.status === "success" ? (postUpdate.result as bigint) : stake,
      delegate: delegate === zeroAddress ? null : getAddress(delegate),
    };
  });
  return {
    voters: rankVoters(readings, cumulative.result as bigint),
    cumulativeStake: formatUnits(cumulative.result as bigint, 18),
    blockNumber: head.number,
    asOf: head.timestamp,
    backfillComplete: scan.complete,
  };
}
