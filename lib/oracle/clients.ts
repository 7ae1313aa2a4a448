// viem public clients for the two chains the oracle endpoints read, with a bounded timeout, one retry, and a
// counter of JSON-RPC requests (reported in meta and used to measure the RPC cost of each endpoint).
import { type Chain, createPublicClient, http, type PublicClient, type Transport } from "viem";
import { mainnet, polygon } from "viem/chains";
import type { OracleConfig } from "./config";

export type ChainName = "ethereum" | "polygon";

export interface OracleClients {
  ethereum: PublicClient;
  polygon: PublicClient;
  /** JSON-RPC requests sent so far, per chain (one per viem request; a retry after a failure is not counted again). */
  rpcCalls: Record<ChainName, number>;
}

function countingTransport(url: string, timeoutMs: number, count: () => void): Transport {
  // JSON-RPC batching stays off: several public RPCs reject batches, and one request per call keeps counts honest.
  const base = http(url, { timeout: timeoutMs, retryCount: 1, retryDelay: 100, batch: false });
  return ((args: Parameters<Transport>[0]) => {
    const transport = base(args);
    return {
      ...transport,
      request: ((request: unknown) => {
        count();
        return (transport.request as (r: unknown) => Promise<unknown>)(request);
      }) as typeof transport.request,
    };
  }) as Transport;
}

export function createOracleClients(config: OracleConfig): OracleClients {
  const rpcCalls: Record<ChainName, number> = { ethereum: 0, polygon: 0 };
  const make = (chain: Chain, url: string, name: ChainName) =>
    createPublicClient({
      chain,
      transport: countingTransport(url, config.rpcTimeoutMs, () => (rpcCalls[name] += 1)),
    }) as PublicClient;
  return { ethereum: make(mainnet, config.ethRpcUrl, "ethereum"), polygon: make(polygon, config.polygonRpcUrl, "polygon"), rpcCalls };
}

// viem's default of 1 KiB of calldata per Multicall3 batch is ~25 calls; 8 KiB (~220 calls) keeps a batch's gas
// well under the eth_call caps of public RPCs even for getVoterStakePostUpdate.
export const MULTICALL_BATCH_BYTES = 8 * 1024;
// Multicall3's canonical address on every chain. Passed explicitly: viem's chain definitions would otherwise refuse
// reads pinned to a block before Multicall3's mainnet deployment block (a local chain's blocks all are).
export const MULTICALL3_ADDRESS = "0xcA11bde05977b3631167028862bE2a173976CA11" as const;
export const CHAIN_IDS: Record<ChainName, number> = { ethereum: 1, polygon: 137 };
