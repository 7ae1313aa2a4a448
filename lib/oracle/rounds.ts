// Voting rounds: each round's reveal figures from oracle_rounds (kept by the indexer as VoteRevealed logs arrive,
// lib/oracle/derived.ts: no log is decoded here), plus its figures from rounds(r), read once a round is past and then
// kept in the same row (a past round's figures never change).
import { type Address, formatUnits } from "viem";
import { votingV2Abi } from "./abi";
import type { OracleContext } from "./context";
import { boundedMulticall, type CallOutcome, required } from "./multicall";
import type { ChainHead } from "./scan";
import { isoFromSeconds } from "./time";

const MAX_ROUNDS = 50;

export interface VotingRound {
  round_id: number;
  starts_at: string;
  ends_at: string;
  status: "active" | "past";
  /** null when rounds(r) could not be read (see `unread`). */
  requests: number | null;
  requests_revealed: number;
  reveal_count: number;
  unique_revealers: number;
  tokens_revealed: string;
  cumulative_stake_at_round: string | null;
  min_participation_requirement: string | null;
  min_agreement_requirement: string | null;
  /** Chain reads that failed for this row (its figures from them are null): ["rounds"] or []. */
  unread: "rounds"[];
}

export interface RoundsSnapshot {
  rounds: VotingRound[];
  currentRoundId: number;
  blockNumber: bigint;
  asOf: bigint;
}

type RoundTuple = readonly [Address, bigint, bigint, bigint, number];

/**
 * Rounds from oracle_rounds, and each round's frozen figures (stored for past rounds, else read at the indexed block).
 * @param unprocessedRolls requests up for vote now whose roll into the active round VotingV2 has not processed yet
 *   (ChainSummary.unprocessedRolls); null when getPendingRequests could not be read.
 */
export async function loadRounds(ctx: OracleContext, head: ChainHead, unprocessedRolls: number | null = null): Promise<RoundsSnapshot> {
  const db = await ctx.db();
  const address = ctx.config.votingV2;
  const clock = await boundedMulticall(
    ctx.clients.ethereum,
    "ethereum",
    [
      { address, abi: votingV2Abi, functionName: "getCurrentRoundId" },
      { address, abi: votingV2Abi, functionName: "voteTiming" },
    ],
    { blockNumber: head.number },
  );
  const currentRoundId = required<number>(clock[0], "getCurrentRoundId()", "ethereum");
  const phaseLength = required<bigint>(clock[1], "voteTiming()", "ethereum");
  const revealed = await db.oracleRound.findMany({ where: { reveals: { gt: 0 } }, orderBy: { roundId: "desc" }, take: MAX_ROUNDS });
  const stored = new Map(revealed.map((r) => [r.roundId, r]));
  const roundIds = [...new Set([...stored.keys(), Number(currentRoundId)])].sort((a, b) => b - a).slice(0, MAX_ROUNDS);
  // rounds(r) only for rounds whose figures are not stored yet (the active round, a round that just ended).
  const toRead = roundIds.filter((r) => stored.get(r)?.frozenBlock == null);
  const reads = await boundedMulticall(
    ctx.clients.ethereum,
    "ethereum",
    toRead.map((r) => ({ address, abi: votingV2Abi, functionName: "rounds", args: [BigInt(r)] })),
    { blockNumber: head.number },
  );
  const readOf = new Map<number, CallOutcome>(toRead.map((r, i) => [r, reads[i]]));
  const frozenNow: { roundId: number; tuple: RoundTuple }[] = [];
  const roundLength = 2n * phaseLength;
  const rounds = roundIds.map((roundId): VotingRound => {
    const row = stored.get(roundId);
    const read = readOf.get(roundId);
    let tuple: RoundTuple | null = null;
    if (row?.frozenBlock != null) {
      tuple = [
        "0x0000000000000000000000000000000000000000",
        BigInt(row.minParticipation!.toFixed()),
        BigInt(row.minAgreement!.toFixed()),
        BigInt(row.cumulativeStake!.toFixed()),
        row.requestsToVote!,
      ];
    } else if (read?.ok) {
      tuple = read.value as RoundTuple;
      // A past round that a reveal froze (cumulativeStakeAtRound > 0) keeps these figures for good.
      if (roundId < Number(currentRoundId) && tuple[3] > 0n) frozenNow.push({ roundId, tuple });
    }
    const [, minParticipation, minAgreement, cumulativeAtRound, requestsToVote] = tuple ?? ([null, 0n, 0n, 0n, 0] as const);
    // rounds(r) stays zero until the round's first reveal freezes it: report "not frozen yet" as null, not 0.
    const isFrozen = tuple !== null && cumulativeAtRound > 0n;
    return {
      round_id: roundId,
      starts_at: isoFromSeconds(BigInt(roundId) * roundLength),
      ends_at: isoFromSeconds(BigInt(roundId + 1) * roundLength),
      status: roundId === Number(currentRoundId) ? "active" : "past",
      // VotingV2 counts a request in the round it lands in (_requestPrice) and a roll in the round that processes it
      // (_processResolvablePriceRequests, lines 1070-1071): the active round also holds the rolls not processed yet.
      requests: tuple ? Number(requestsToVote) + (roundId === Number(currentRoundId) ? (unprocessedRolls ?? 0) : 0) : null,
      requests_revealed: row?.requestsRevealed ?? 0,
      reveal_count: row?.reveals ?? 0,
      unique_revealers: row?.uniqueRevealers ?? 0,
      tokens_revealed: formatUnits(row ? BigInt(row.tokensRevealed.toFixed()) : 0n, 18),
      cumulative_stake_at_round: isFrozen ? formatUnits(cumulativeAtRound, 18) : null,
      min_participation_requirement: isFrozen ? formatUnits(minParticipation, 18) : null,
      min_agreement_requirement: isFrozen ? formatUnits(minAgreement, 18) : null,
      unread: tuple ? [] : ["rounds"],
    };
  });
  if (frozenNow.length) {
    await db.$transaction(
      frozenNow.map(({ roundId, tuple }) =>
        db.oracleRound.updateMany({
          where: { roundId },
          data: {
            minParticipation: tuple[1].toString(),
            minAgreement: tuple[2].toString(),
            cumulativeStake: tuple[3].toString(),
            requestsToVote: Number(tuple[4]),
            frozenBlock: head.number,
          },
        }),
      ),
    );
  }
  return { rounds, currentRoundId: Number(currentRoundId), blockNumber: head.number, asOf: head.timestamp };
}
