// The DVM vote on one dispute, from the indexer's derived tables (lib/oracle/derived.ts, docs/oracle-indexer.md
// "Derived tables"): per round its commits (VoteCommitted: a hash of the vote until the reveal, so only counted),
// its reveals tallied by price, each revealer with the tokens the vote carried, and the resolved price
// (RequestResolved). No log is decoded and no chain is read here.
import { type Address, formatUnits, getAddress, type Hex } from "viem";
import { CHAIN_IDS } from "./clients";
import type { OracleContext } from "./context";

interface DisputeReveal {
  voter: Address;
  round_id: number;
  /** Price voted, scaled from 1e18 (exact decimal string). */
  price: string;
  /** Tokens the vote carried (the voter's stake at the round). */
  tokens: string;
  tokensWei: bigint;
}

interface DisputeVoteRound {
  round_id: number;
  commits: number;
  reveals: number;
  tokensWei: bigint;
  /** Revealed votes by price (decimal string), in ascending price order. */
  votes: { price: string; voters: number; tokensWei: bigint }[];
}

interface DisputeVote {
  reveals: DisputeReveal[];
  rounds: DisputeVoteRound[];
  /** Commits over all rounds. */
  commits: number;
  /** The DVM's price once resolved (RequestResolved), else null. */
  resolved_price: string | null;
  resolved_round_id: number | null;
}

const wei = (d: { toFixed(): string } | null) => (d === null ? 0n : BigInt(d.toFixed()));

/** The vote on DVM request `requestId`. */
export async function readDisputeVote(ctx: OracleContext, requestId: Hex): Promise<DisputeVote> {
  const db = await ctx.db();
  const id = requestId.toLowerCase();
  const [reveals, perRound, tallies, request] = await Promise.all([
    db.oracleVote.findMany({
      where: { chainId: CHAIN_IDS.ethereum, requestId: id, revealed: true },
      orderBy: [{ blockNumber: "asc" }, { logIndex: "asc" }],
    }),
    db.oracleRequestRound.findMany({ where: { requestId: id }, orderBy: { roundId: "asc" } }),
    db.oracleVoteTally.findMany({ where: { requestId: id }, orderBy: [{ roundId: "asc" }, { price: "asc" }] }),
    db.oracleRequest.findUnique({ where: { chainId_requestId: { chainId: CHAIN_IDS.ethereum, requestId: id } } }),
  ]);
  const rounds = perRound.map((r): DisputeVoteRound => ({
    round_id: r.roundId,
    commits: r.commits,
    reveals: r.reveals,
    tokensWei: wei(r.tokensRevealed),
    votes: tallies
      .filter((t) => t.roundId === r.roundId)
      .map((t) => ({ price: formatUnits(wei(t.price), 18), voters: t.voters, tokensWei: wei(t.tokens) })),
  }));
  const resolved = request?.resolvedBlock != null ? request : null;
  return {
    reveals: reveals.map((r) => ({
      voter: getAddress(r.voter),
      round_id: r.roundId,
      price: formatUnits(wei(r.price), 18),
      tokens: formatUnits(wei(r.tokens), 18),
      tokensWei: wei(r.tokens),
    })),
    rounds,
    commits: rounds.reduce((n, r) => n + r.commits, 0),
    resolved_price: resolved ? formatUnits(wei(resolved.resolvedPrice), 18) : null,
    resolved_round_id: resolved?.resolvedRound ?? null,
  };
}
