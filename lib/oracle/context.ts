// What the oracle services run on: configuration, the two chain clients and the database. One per process by
// default (from lib/env.ts); tests build their own to point at a local chain or a dead RPC.
import type { AbiEvent } from "viem";
import { type Db, getDb } from "@/lib/db/client";
import { optimisticOracleV2Abi, oracleChildTunnelAbi, VOTING_SCAN_EVENTS, votingV2Abi } from "./abi";
import { createOracleClients, type OracleClients } from "./clients";
import { type OracleConfig, oracleConfigFromEnv } from "./config";
import { onChain } from "./errors";
import type { ScanTarget } from "./scan";

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
  requestAdded: eventsOf(votingV2Abi, ["RequestAdded"]),
  requestRolled: eventsOf(votingV2Abi, ["RequestRolled"]),
};
export const polygonEvents = {
  disputePrice: eventsOf(optimisticOracleV2Abi, ["DisputePrice"]),
  priceRequestBridged: eventsOf(oracleChildTunnelAbi, ["PriceRequestBridged"]),
};

/** One scan of VotingV2 serves every endpoint: stakers, reveals, requests, rolls and resolutions. */
export function votingScan(config: OracleConfig): ScanTarget {
  return { name: "voting-v2", chain: "ethereum", addresses: [config.votingV2], events: votingEvents.all, fromBlock: config.votingV2FromBlock };
}

/** Disputes on the Polygon Optimistic Oracles and the child tunnel's bridged requests, in one scan. */
export function polygonScan(config: OracleConfig): ScanTarget {
  return {
    name: "oov2-disputes",
    chain: "polygon",
    addresses: [...config.optimisticOracles, config.childTunnel],
    events: [...polygonEvents.disputePrice, ...polygonEvents.priceRequestBridged],
    fromBlock: config.optimisticOraclesFromBlock,
    needsTimestamp: true,
  };
}

/** The newest block: its number pins every read of a request to one state, its timestamp is the data's `as_of`. */
export async function headOf(ctx: OracleContext, chain: "ethereum" | "polygon") {
  const block = await onChain(chain, () => ctx.clients[chain].getBlock({ blockTag: "latest" }));
  return { number: block.number!, timestamp: block.timestamp };
}

/** Points the route handlers at another context (tests: a local chain, a dead or slow RPC). */
export function setDefaultOracleContext(ctx: OracleContext | undefined): void {
  holder.__predmktOracleContext = ctx;
}
