// Oracle configuration, from lib/env.ts with the real deployments as defaults (reference/uma-oracle.md).
import { type Address, getAddress } from "viem";
import { env as processEnv, type Env } from "@/lib/env";

/** Polymarket's UMA CTF adapters on Polygon (UMA's own list: optimistic-oracle-dapp-v2 src/projects/polymarket.ts). */
export const DEFAULT_POLYMARKET_REQUESTERS: Address[] = [
  "0xCB1822859cEF82Cd2Eb4E6276C7916e692995130",
  "0x6A9D222616C90FcA5754cd1333cFD9b7fb6a4F74",
  "0x2F5e3684cb1F318ec51b00Edba38d79Ac2c0aA9d",
  "0x157Ce2d672854c848c9b79C49a8Cc6cc89176a49",
  "0x65070BE91477460D8A7AeEb94ef92fe056C2f2A7",
  "0x69c47De9D4D3Dad79590d61b9e05918E03775f24",
];
export const DEFAULT_CHILD_TUNNEL: Address = "0xac60353a54873c446101216829a6A98cDbbC3f3D";

export interface OracleConfig {
  ethRpcUrl: string;
  polygonRpcUrl: string;
  votingV2: Address;
  votingV2FromBlock: bigint;
  optimisticOracles: Address[];
  optimisticOraclesFromBlock: bigint;
  polymarketRequesters: Set<string>;
  childTunnel: Address;
  logChunkSize: bigint;
  /**
   * A scan stops after this many eth_getLogs ranges or this much time in one request (at least one range): a long
   * backfill spreads over requests (reported as `meta.backfill_complete: false`) instead of hanging one.
   */
  maxChunksPerScan: number;
  scanBudgetMs: number;
  rpcTimeoutMs: number;
}

export function oracleConfigFromEnv(env: Env = processEnv): OracleConfig {
  const requesters = env.POLYMARKET_UMA_REQUESTERS.length ? env.POLYMARKET_UMA_REQUESTERS : DEFAULT_POLYMARKET_REQUESTERS;
  return {
    ethRpcUrl: env.ETH_RPC_URL ?? "https://ethereum-rpc.publicnode.com",
    polygonRpcUrl: env.POLYGON_RPC_URL ?? "https://polygon-bor-rpc.publicnode.com",
    // Lower-cased first: a hand-typed address with a wrong checksum is still the address meant.
    votingV2: getAddress(env.UMA_VOTING_V2_ADDRESS.toLowerCase()),
    votingV2FromBlock: BigInt(env.UMA_VOTING_V2_FROM_BLOCK),
    optimisticOracles: env.UMA_OOV2_ADDRESSES.map((a) => getAddress(a.toLowerCase())),
    optimisticOraclesFromBlock: BigInt(env.UMA_OOV2_FROM_BLOCK),
    polymarketRequesters: new Set(requesters.map((a) => a.toLowerCase())),
    childTunnel: getAddress((env.UMA_ORACLE_CHILD_TUNNEL_ADDRESS ?? DEFAULT_CHILD_TUNNEL).toLowerCase()),
    logChunkSize: BigInt(env.ORACLE_LOG_CHUNK_SIZE),
    maxChunksPerScan: 200,
    scanBudgetMs: 4_000,
    rpcTimeoutMs: env.UPSTREAM_TIMEOUT_MS,
  };
}
