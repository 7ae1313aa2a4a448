// Oracle configuration, from lib/env.ts with the real deployments as defaults (docs/oracle-facts.md#deployments).
import { type Address, getAddress } from "viem";
import { env as processEnv, type Env } from "@/lib/env";
import type { ChainName } from "./clients";

/** Polymarket's UMA CTF adapters on Polygon (UMA's own list: optimistic-oracle-dapp-v2 src/projects/polymarket.ts). */
const DEFAULT_POLYMARKET_REQUESTERS: Address[] = [
  "0xCB1822859cEF82Cd2Eb4E6276C7916e692995130",
  "0x6A9D222616C90FcA5754cd1333cFD9b7fb6a4F74",
  "0x2F5e3684cb1F318ec51b00Edba38d79Ac2c0aA9d",
  "0x157Ce2d672854c848c9b79C49a8Cc6cc89176a49",
  "0x65070BE91477460D8A7AeEb94ef92fe056C2f2A7",
  "0x69c47De9D4D3Dad79590d61b9e05918E03775f24",
];
const DEFAULT_CHILD_TUNNEL: Address = "0xac60353a54873c446101216829a6A98cDbbC3f3D";
/**
 * Polymarket's UMA adapters for neg-risk markets (their `ctf` is a NegRiskOperator, so their questionID is the
 * operator's requestId): Polymarket/neg-risk-ctf-adapter `addresses.json` and the v4 one (docs/resolution.md).
 */
const NEG_RISK_REQUESTERS: readonly string[] = ["0x2f5e3684cb1f318ec51b00edba38d79ac2c0aa9d", "0x69c47de9d4d3dad79590d61b9e05918e03775f24"];
/**
 * The NegRiskAdapter every neg-risk condition of the first operator names as its oracle. UMA's monitor calls it
 * "LEGACY_NEG_RISK_ADAPTER" and tries it beside each operator's `nrAdapter()` (protocol monitor-v2
 * monitor-polymarket/common.ts `getNegRiskConditionIds`): it requests nothing from the OO and emits nothing the index
 * needs, so it is not scanned, only used to compute condition ids.
 */
export const LEGACY_NEG_RISK_ADAPTER: Address = "0xd91E80cF2E7be2e162c6513ceD06f1dD0dA35296";

export type Confirmations = "finalized" | number;

export interface OracleConfig {
  ethRpcUrl: string;
  polygonRpcUrl: string;
  votingV2: Address;
  votingV2FromBlock: bigint;
  /** Every Optimistic Oracle scanned: the legacy OOv2s and the Managed OOv2s. */
  optimisticOracles: Address[];
  /** The Managed OOv2s among them (lower case): no Expired by the clock, settled by a resolver only. */
  managedOracles: Set<string>;
  optimisticOraclesFromBlock: bigint;
  /** Polymarket's requesters (lower case): the configured adapters and the sports oracle. */
  polymarketRequesters: Set<string>;
  /** The neg-risk adapters among them (lower case): their disputes are looked up on the operators. */
  negRiskRequesters: Set<string>;
  negRiskOperators: Address[];
  /** Polymarket's UmaSportsOracle (lower case), or null when switched off (an empty value). */
  sportsOracle: string | null;
  childTunnel: Address;
  /** Starting eth_getLogs range per chain; halved on a provider's range/result error, grown back after. */
  logChunkSize: Record<ChainName, bigint>;
  /** Where the indexer stops: the finalized block, or this many blocks below the latest one. */
  confirmations: Record<ChainName, Confirmations>;
  /** A pass stops scanning after this long (at least one range); the next pass resumes from the stored cursor. */
  scanBudgetMs: number;
  rpcTimeoutMs: number;
  /** Requests per second sent to each RPC. */
  maxRequestsPerSecond: number;
  /** Stakers refreshed one by one with getVoterStakePostUpdate (ranked first by voterStakes().stake). */
  topVoters: number;
  indexIntervalS: number;
}

export function oracleConfigFromEnv(env: Env = processEnv): OracleConfig {
  const requesters = env.POLYMARKET_UMA_REQUESTERS.length ? env.POLYMARKET_UMA_REQUESTERS : DEFAULT_POLYMARKET_REQUESTERS;
  const sports = env.POLYMARKET_SPORTS_ORACLE_ADDRESS.trim() || null;
  return {
    ethRpcUrl: env.ETH_RPC_URL ?? "https://ethereum-rpc.publicnode.com",
    polygonRpcUrl: env.POLYGON_RPC_URL ?? "https://polygon-bor-rpc.publicnode.com",
    // Lower-cased first: a hand-typed address with a wrong checksum is still the address meant.
    votingV2: getAddress(env.UMA_VOTING_V2_ADDRESS.toLowerCase()),
    votingV2FromBlock: BigInt(env.UMA_VOTING_V2_FROM_BLOCK),
    optimisticOracles: [...new Set([...env.UMA_OOV2_ADDRESSES, ...env.UMA_MANAGED_OOV2_ADDRESSES].map((a) => a.toLowerCase()))].map((a) =>
      getAddress(a),
    ),
    // An address in both lists is a Managed OOv2: its Expired is never final.
    managedOracles: new Set(env.UMA_MANAGED_OOV2_ADDRESSES.map((a) => a.toLowerCase())),
    optimisticOraclesFromBlock: BigInt(env.UMA_OOV2_FROM_BLOCK),
    polymarketRequesters: new Set([...requesters, ...(sports ? [sports] : [])].map((a) => a.toLowerCase())),
    negRiskRequesters: new Set(NEG_RISK_REQUESTERS),
    negRiskOperators: env.POLYMARKET_NEG_RISK_OPERATOR_ADDRESSES.map((a) => getAddress(a.toLowerCase())),
    sportsOracle: sports ? sports.toLowerCase() : null,
    childTunnel: getAddress((env.UMA_ORACLE_CHILD_TUNNEL_ADDRESS ?? DEFAULT_CHILD_TUNNEL).toLowerCase()),
    logChunkSize: { ethereum: BigInt(env.ORACLE_LOG_CHUNK_SIZE), polygon: BigInt(env.ORACLE_POLYGON_LOG_CHUNK_SIZE) },
    confirmations: { ethereum: env.ORACLE_ETH_CONFIRMATIONS, polygon: env.ORACLE_POLYGON_CONFIRMATIONS },
    scanBudgetMs: 20_000,
    rpcTimeoutMs: env.UPSTREAM_TIMEOUT_MS,
    maxRequestsPerSecond: env.ORACLE_RPC_MAX_RPS,
    topVoters: env.ORACLE_TOP_VOTERS,
    indexIntervalS: env.ORACLE_INDEX_INTERVAL_S,
  };
}
