// viem public clients for the two chains the oracle endpoints read, with a bounded timeout, one retry, and a
// counter of JSON-RPC requests (reported in meta and used to measure the RPC cost of each endpoint).
import { type Chain, createPublicClient, http, type PublicClient, type Transport } from "viem";
import { mainnet, polygon } from "viem/chains";
import type { OracleConfig } from "./config";
import { observeRpc } from "@/lib/metrics/registry";

export type ChainName = "ethereum" | "polygon";

export interface OracleClients {
  ethereum: PublicClient;
  polygon: PublicClient;
  /** JSON-RPC requests sent so far, per chain (one per viem request; a retry after a failure is not counted again). */
  rpcCalls: Record<ChainName, number>;
  /** The same, by JSON-RPC method (eth_getLogs, eth_call, ...). */
  rpcCallsByMethod: Record<ChainName, Record<string, number>>;
}

/**
 * Request starts spaced evenly, `perSecond` a second: public RPCs answer 429 above their rate, usually counted per
 * calendar second at their end. Spacing (not a burst of `perSecond` then a wait) keeps a request delayed on its way
 * from landing in the next second together with that second's whole allowance.
 */
function pacer(perSecond: number): () => Promise<void> {
  const intervalMs = 1000 / perSecond;
  let nextStart = 0;
  return async function wait() {
    const now = Date.now();
    const start = Math.max(now, nextStart);
    nextStart = start + intervalMs;
    if (start > now) await new Promise((r) => setTimeout(r, start - now));
  };
}

function countingTransport(url: string, config: OracleConfig, count: (method: string) => void): Transport {
  // JSON-RPC batching stays off: several public RPCs reject batches, and one request per call keeps counts honest.
  // viem retries a 429 or a 5xx with exponential backoff (retryDelay × 2^n).
  const base = http(url, { timeout: config.rpcTimeoutMs, retryCount: 1, retryDelay: 250, batch: false });
  const paced = pacer(config.maxRequestsPerSecond);
  return (args: Parameters<Transport>[0]) => {
    const transport = base(args);
    return {
      ...transport,
      request: (async (request: { method: string }) => {
        await paced();
        count(request.method);
        return (transport.request as (r: unknown) => Promise<unknown>)(request);
      }) as typeof transport.request,
    };
  };
}

export function createOracleClients(config: OracleConfig): OracleClients {
  const rpcCalls: Record<ChainName, number> = { ethereum: 0, polygon: 0 };
  const rpcCallsByMethod: Record<ChainName, Record<string, number>> = { ethereum: {}, polygon: {} };
  const make = (chain: Chain, url: string, name: ChainName) =>
    createPublicClient({
      chain,
      transport: countingTransport(url, config, (method) => {
        rpcCalls[name] += 1;
        observeRpc(name, method);
        rpcCallsByMethod[name][method] = (rpcCallsByMethod[name][method] ?? 0) + 1;
      }),
    }) as PublicClient;
  return {
    ethereum: make(mainnet, config.ethRpcUrl, "ethereum"),
    polygon: make(polygon, config.polygonRpcUrl, "polygon"),
    rpcCalls,
    rpcCallsByMethod,
  };
}

// Multicall3's canonical address on every chain. Passed explicitly: viem's chain definitions would otherwise refuse
// reads pinned to a block before Multicall3's mainnet deployment block (a local chain's blocks all are).
export const MULTICALL3_ADDRESS = "0xcA11bde05977b3631167028862bE2a173976CA11" as const;
export const CHAIN_IDS: Record<ChainName, number> = { ethereum: 1, polygon: 137 };
