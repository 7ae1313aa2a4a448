// What the oracle services run on: configuration, the two chain clients and the database. One per process by
// default (from lib/env.ts); tests build their own to point at a local chain or a dead RPC.
import { type AbiEvent, type Address, BaseError, getAddress, RpcRequestError } from "viem";
import { type Db, getDb } from "@/lib/db/client";
import {
  negRiskOperatorAbi,
  optimisticOracleV2Abi,
  oracleChildTunnelAbi,
  umaCtfAdapterAbi,
  umaSportsOracleAbi,
  VOTING_SCAN_EVENTS,
  votingV2Abi,
} from "./abi";
import { type ChainName, createOracleClients, type OracleClients } from "./clients";
import { type OracleConfig, oracleConfigFromEnv } from "./config";
import { onChain, toUpstreamError } from "./errors";
import type { ChainHead, ScanTarget } from "./scan";

export interface OracleContext {
  /** Distinguishes cache entries of contexts pointing at different chains. */
  id: string;
  config: OracleConfig;
  clients: OracleClients;
  db: () => Promise<Db>;
}

const holder = globalThis as unknown as { __predmktOracleContext?: OracleContext };

export function defaultOracleContext(): OracleContext {
  if (!holder.__predmktOracleContext) {
    const config = oracleConfigFromEnv();
    holder.__predmktOracleContext = { id: "default", config, clients: createOracleClients(config), db: getDb };
  }
  return holder.__predmktOracleContext;
}

export function createOracleContext(id: string, config: OracleConfig, db: () => Promise<Db> = getDb): OracleContext {
  return { id, config, clients: createOracleClients(config), db };
}

const eventsOf = (abi: readonly unknown[], names: readonly string[]) =>
  (abi as AbiEvent[]).filter((item) => item.type === "event" && names.includes(item.name));

export const votingEvents = {
  all: eventsOf(votingV2Abi, VOTING_SCAN_EVENTS),
  staked: eventsOf(votingV2Abi, ["Staked"]),
  voteRevealed: eventsOf(votingV2Abi, ["VoteRevealed"]),
  voteCommitted: eventsOf(votingV2Abi, ["VoteCommitted"]),
  requestResolved: eventsOf(votingV2Abi, ["RequestResolved"]),
  requestAdded: eventsOf(votingV2Abi, ["RequestAdded"]),
  requestRolled: eventsOf(votingV2Abi, ["RequestRolled"]),
  requestDeleted: eventsOf(votingV2Abi, ["RequestDeleted"]),
};
export const polygonEvents = {
  disputePrice: eventsOf(optimisticOracleV2Abi, ["DisputePrice"]),
  proposePrice: eventsOf(optimisticOracleV2Abi, ["ProposePrice"]),
  settle: eventsOf(optimisticOracleV2Abi, ["Settle"]),
  priceRequestBridged: eventsOf(oracleChildTunnelAbi, ["PriceRequestBridged"]),
  questionReset: eventsOf(umaCtfAdapterAbi, ["QuestionReset"]),
  /** The adapters' events scanned with the Optimistic Oracles since 2026-11 (the reset on a dispute, the resolutions). */
  adapterResets: eventsOf(umaCtfAdapterAbi, ["QuestionReset", "QuestionResolved", "QuestionManuallyResolved"]),
  /** Every event of the adapters: their outcomes outside the vote (lib/oracle/outcomes.ts). */
  adapterOutcomes: eventsOf(
    umaCtfAdapterAbi,
    umaCtfAdapterAbi.map((e) => e.name),
  ),
  /** The NegRiskOperators' flag and emergency resolution (QuestionFlagged's topic is the adapter's too). */
  operatorOutcomes: eventsOf(negRiskOperatorAbi, ["QuestionEmergencyResolved"]),
  gameReset: eventsOf(umaSportsOracleAbi, ["GameReset"]),
  marketCreated: eventsOf(umaSportsOracleAbi, ["MarketCreated"]),
  /** The sports oracle's outcomes outside the vote (settled, emergency-settled, canceled, paused; GameReset above). */
  sportsOutcomes: eventsOf(
    umaSportsOracleAbi,
    umaSportsOracleAbi.map((e) => e.name).filter((n) => n !== "MarketCreated" && n !== "GameReset"),
  ),
};

/** One scan of VotingV2 serves every endpoint: stakers, reveals, requests, rolls and resolutions. */
export function votingScan(config: OracleConfig): ScanTarget {
  return {
    name: "voting-v2-r2",
    chain: "ethereum",
    addresses: [config.votingV2],
    events: votingEvents.all,
    fromBlock: config.votingV2FromBlock,
  };
}

/**
 * Proposals, disputes and settlements on the Polygon Optimistic Oracles, the child tunnel's bridged requests and the
 * Polymarket adapters' reset and resolutions, in one scan (ProposePrice and Settle are kept for Polymarket's requesters
 * only, as rows of oracle_requests). The adapters' addresses are the configured requesters.
 */
function polygonScan(config: OracleConfig): ScanTarget {
  return {
    name: "oov2-r2",
    chain: "polygon",
    addresses: [...config.optimisticOracles, config.childTunnel, ...requesterAddresses(config)],
    events: [
      ...polygonEvents.proposePrice,
      ...polygonEvents.disputePrice,
      ...polygonEvents.settle,
      ...polygonEvents.priceRequestBridged,
      ...polygonEvents.adapterResets,
      // The sports oracle (one of the requesters): its markets per game, and its reset on a first dispute.
      ...polygonEvents.marketCreated,
      ...polygonEvents.gameReset,
    ],
    fromBlock: config.optimisticOraclesFromBlock,
    needsTimestamp: true,
  };
}

/**
 * The outcomes outside the vote the scan above does not read (docs/oracle-facts.md, "Outcomes outside the vote"): the
 * adapters' flags, pauses and v2 / v3.1 emergency resolutions, the NegRiskOperators' flags and emergency resolutions,
 * the sports oracle's game and market states. Its own scan (its own cursor, from the start block): a database built
 * before them scans only these from the start, not the Optimistic Oracles' history again.
 */
function outcomesScan(config: OracleConfig): ScanTarget {
  const scanned = new Set(polygonEvents.adapterResets.map((e) => e.name));
  return {
    name: "polymarket-outcomes",
    chain: "polygon",
    addresses: [...requesterAddresses(config), ...config.negRiskOperators],
    events: [
      ...polygonEvents.adapterOutcomes.filter((e) => !scanned.has(e.name)),
      ...polygonEvents.operatorOutcomes,
      ...polygonEvents.sportsOutcomes,
    ],
    fromBlock: config.optimisticOraclesFromBlock,
    needsTimestamp: true,
  };
}

/** The scans of a chain, in the order a pass runs them. */
export function chainScans(config: OracleConfig, chain: ChainName): ScanTarget[] {
  return chain === "ethereum" ? [votingScan(config)] : [polygonScan(config), outcomesScan(config)];
}

/** The Polymarket requesters (the adapters) as addresses, sorted so the scan's cursor id does not depend on order. */
export function requesterAddresses(config: OracleConfig): Address[] {
  return [...config.polymarketRequesters].sort().map((a) => getAddress(a));
}

// Where "finalized" is not served (an RPC or a local node without the tag), the indexer stays this many blocks back.
const FINALIZED_FALLBACK_DEPTH = 64n;

/**
 * The block the indexer reads a chain at: the finalized block, or `confirmations` blocks below the latest one. Its
 * number pins every read of a pass to one state; its timestamp is the data's `as_of`; its hash is the reorg check.
 */
export async function indexedHead(ctx: OracleContext, chain: ChainName): Promise<ChainHead> {
  const client = ctx.clients[chain];
  const confirmations = ctx.config.confirmations[chain];
  const toHead = (block: { number: bigint | null; hash: `0x${string}` | null; timestamp: bigint }) => ({
    number: block.number!,
    hash: block.hash!,
    timestamp: block.timestamp,
  });
  if (confirmations === "finalized") {
    try {
      return toHead(await client.getBlock({ blockTag: "finalized" }));
    } catch (error) {
      // The node answered but does not know the tag: fall back to a fixed depth. Anything else is an RPC failure.
      if (!(error instanceof BaseError) || !error.walk((e) => e instanceof RpcRequestError)) throw toUpstreamError(error, chain) ?? error;
    }
  }
  const depth = confirmations === "finalized" ? FINALIZED_FALLBACK_DEPTH : BigInt(confirmations);
  const latest = await onChain(chain, () => client.getBlock({ blockTag: "latest" }));
  if (depth === 0n || latest.number < depth) return toHead(latest);
  return toHead(await onChain(chain, () => client.getBlock({ blockNumber: latest.number - depth })));
}

/** Points the route handlers at another context (tests: a local chain, a dead or slow RPC). */
export function setDefaultOracleContext(ctx: OracleContext | undefined): void {
  holder.__predmktOracleContext = ctx;
}
