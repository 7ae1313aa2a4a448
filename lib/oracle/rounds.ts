// Voting rounds: VoteRevealed logs grouped by their roundId (not an indexed topic, so grouping happens here after the
// scan, whatever block ranges the logs came from), plus each round's figures read from rounds(r).
import { type Address, formatUnits, type Hex } from "viem";
import { votingV2Abi } from "./abi";
import { MULTICALL_BATCH_BYTES, MULTICALL3_ADDRESS } from "./clients";
import { headOf, type OracleContext, votingEvents, votingScan } from "./context";
import { onChain } from "./errors";
import { advanceScan, decodeStored, readLogs, type StoredLog } from "./scan";

export const MAX_ROUNDS = 50;

export interface RevealArgs {
  voter: Address;
  roundId: number;
  identifier: Hex;
  time: bigint;
  ancillaryData: Hex;
  numTokens: bigint;
}

export interface RevealGroup {
  roundId: number;
  revealCount: number;
  uniqueRevealers: number;
  tokensRevealed: bigint;
  requestsRevealed: number;
}

/** Groups reveals by round. A log seen twice (the same block and index, e.g. from overlapping ranges) counts once. */
export function groupReveals(reveals: (RevealArgs & { blockNumber: bigint; logIndex: number })[]): Map<number, RevealGroup> {
  const seen = new Set<string>();
  const acc = new Map<number, { count: number; voters: Set<string>; tokens: bigint; requests: Set<string> }>();
  for (const r of reveals) {
    const key = `${r.blockNumber}:${r.logIndex}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const a = acc.get(r.roundId) ?? { count: 0, voters: new Set(), tokens: 0n, requests: new Set() };
    a.count += 1;
    a.voters.add(r.voter.toLowerCase());
    a.tokens += r.numTokens;
    a.requests.add(`${r.identifier}:${r.time}:${r.ancillaryData}`);
    acc.set(r.roundId, a);
  }
  return new Map(
    [...acc].map(([roundId, a]) => [
      roundId,
      { roundId, revealCount: a.count, uniqueRevealers: a.voters.size, tokensRevealed: a.tokens, requestsRevealed: a.requests.size },
    ]),
  );
}

export function decodeReveals(logs: StoredLog[]) {
  return logs.map((log) => ({ ...decodeStored<RevealArgs>(votingV2Abi, log).args, blockNumber: log.blockNumber, logIndex: log.logIndex }));
}

export interface VotingRound {
  round_id: number;
  starts_at: string;
  ends_at: string;
  status: "active" | "past";
  requests: number;
  requests_revealed: number;
  reveal_count: number;
  unique_revealers: number;
  tokens_revealed: string;
  cumulative_stake_at_round: string | null;
  min_participation_requirement: string | null;
  min_agreement_requirement: string | null;
}

export interface RoundsSnapshot {
  rounds: VotingRound[];
  currentRoundId: number;
  blockNumber: bigint;
  asOf: bigint;
  backfillComplete: boolean;
}

const iso = (seconds: bigint) => new Date(Number(seconds) * 1000).toISOString();

export async function loadRounds(ctx: OracleContext): Promise<RoundsSnapshot> {
  const head = await headOf(ctx, "ethereum");
  const scan = await advanceScan(ctx, votingScan(ctx.config), head.number);
  const db = await ctx.db();
  const groups = groupReveals(decodeReveals(await readLogs(db, "ethereum", [ctx.config.votingV2], votingEvents.voteRevealed, ctx.config.votingV2FromBlock)));
  const address = ctx.config.votingV2;
  const [currentRoundId, phaseLength] = await onChain("ethereum", () =>
    ctx.clients.ethereum.multicall({
      allowFailure: false,
      blockNumber: head.number,
      multicallAddress: MULTICALL3_ADDRESS,
      contracts: [
        { address, abi: votingV2Abi, functionName: "getCurrentRoundId" },
        { address, abi: votingV2Abi, functionName: "voteTiming" },
      ],
    }),
  );
  const roundIds = [...new Set([...groups.keys(), currentRoundId])].sort((a, b) => b - a).slice(0, MAX_ROUNDS);
  const frozen = await onChain("ethereum", () =>
    ctx.clients.ethereum.multicall({
      allowFailure: false,
      blockNumber: head.number,
      multicallAddress: MULTICALL3_ADDRESS,
      batchSize: MULTICALL_BATCH_BYTES,
      contracts: roundIds.map((r) => ({ address, abi: votingV2Abi, functionName: "rounds", args: [BigInt(r)] }) as const),
    }),
  );
  const roundLength = 2n * phaseLength;
  const rounds = roundIds.map((roundId, i) => {
    const [, minParticipation, minAgreement, cumulativeAtRound, requestsToVote] = frozen[i];
    const g = groups.get(roundId);
    // rounds(r) stays zero until the round's first reveal freezes it: report "not frozen yet" as null, not 0.
    const isFrozen = cumulativeAtRound > 0n;
    return {
      round_id: roundId,
      starts_at: iso(BigInt(roundId) * roundLength),
      ends_at: iso(BigInt(roundId + 1) * roundLength),
      status: roundId === currentRoundId ? ("active" as const) : ("past" as const),
      requests: Number(requestsToVote),
      requests_revealed: g?.requestsRevealed ?? 0,
      reveal_count: g?.revealCount ?? 0,
      unique_revealers: g?.uniqueRevealers ?? 0,
      tokens_revealed: formatUnits(g?.tokensRevealed ?? 0n, 18),
      cumulative_stake_at_round: isFrozen ? formatUnits(cumulativeAtRound, 18) : null,
      min_participation_requirement: isFrozen ? formatUnits(minParticipation, 18) : null,
      min_agreement_requirement: isFrozen ? formatUnits(minAgreement, 18) : null,
    };
  });
  return { rounds, currentRoundId, blockNumber: head.number, asOf: head.timestamp, backfillComplete: scan.complete };
}
