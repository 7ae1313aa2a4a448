// The local chains for the demo and the tests: one anvil per chain id (1 = Ethereum with UMA's VotingV2, 137 =
// Polygon with the Optimistic Oracle V2 and the child tunnel), each with Multicall3 at its canonical address,
// deployed from the Solidity sources in ./contracts and seeded with a known world (./seed.ts). The app reads them
// through the public-RPC stand-in (sim/rpc/standin.ts), one per chain, whose limits a test or the demo switches at
// runtime; the seeding itself talks to anvil directly.
import { type RpcStandin, type StandinLimits, startRpcStandin } from "../rpc/standin";
import { type AnvilInstance, startAnvil } from "./anvil";
import { compileContracts } from "./compile";
import {
  GENESIS_TIMESTAMP,
  POLYMARKET_ADAPTERS,
  type SeedExpectation,
  type SeedResult,
  seedChains,
  SPORTS_ORACLE,
  UMA_CTF_ADAPTER_V4,
} from "./seed";

export type { SeedExpectation } from "./seed";

export interface LocalChainsOptions {
  /** Blocks per eth_getLogs range the app should use; small by default so scans cross chunk boundaries. */
  logChunkSize?: number;
  /** Limits the stand-ins start with (none by default; `REALISTIC_LIMITS` imitates a public RPC). */
  limits?: Partial<StandinLimits>;
}

export interface LocalChains {
  /** The stand-ins' URLs: what the app is pointed at. */
  ethRpcUrl: string;
  polygonRpcUrl: string;
  /** anvil itself, for seeding and for tests that need the raw chain. */
  anvilUrls: { ethereum: string; polygon: string };
  standins: { ethereum: RpcStandin; polygon: RpcStandin };
  /** Every env var the app needs to read these chains. */
  env: Record<string, string>;
  expected: SeedExpectation;
  addresses: SeedResult["addresses"];
  stop(): Promise<void>;
}

export async function startLocalChains(options: LocalChainsOptions = {}): Promise<LocalChains> {
  const artifacts = compileContracts();
  const instances: AnvilInstance[] = [];
  const proxies: RpcStandin[] = [];
  const stop = async () => {
    await Promise.all(proxies.map((p) => p.close()));
    await Promise.all(instances.map((i) => i.stop()));
  };
  try {
    const [ethereum, polygon] = await Promise.all([
      startAnvil({ chainId: 1, genesisTimestamp: GENESIS_TIMESTAMP }),
      startAnvil({ chainId: 137, genesisTimestamp: GENESIS_TIMESTAMP }),
    ]);
    instances.push(ethereum, polygon);
    const seeded = await seedChains(artifacts, { ethereum: ethereum.url, polygon: polygon.url });
    const [ethStandin, polygonStandin] = await Promise.all([
      startRpcStandin(ethereum.url, options.limits),
      startRpcStandin(polygon.url, options.limits),
    ]);
    proxies.push(ethStandin, polygonStandin);
    const chunk = String(options.logChunkSize ?? 5);
    const env: Record<string, string> = {
      ETH_RPC_URL: ethStandin.url,
      POLYGON_RPC_URL: polygonStandin.url,
      UMA_VOTING_V2_ADDRESS: seeded.addresses.votingV2,
      UMA_VOTING_V2_FROM_BLOCK: String(seeded.fromBlocks.votingV2),
      UMA_OOV2_ADDRESSES: seeded.addresses.optimisticOracleV2,
      UMA_MANAGED_OOV2_ADDRESSES: seeded.addresses.managedOptimisticOracleV2,
      UMA_OOV2_FROM_BLOCK: String(seeded.fromBlocks.optimisticOracleV2),
      POLYMARKET_UMA_REQUESTERS: [...POLYMARKET_ADAPTERS, UMA_CTF_ADAPTER_V4].join(","),
      UMA_ORACLE_CHILD_TUNNEL_ADDRESS: seeded.addresses.childTunnel,
      POLYMARKET_NEG_RISK_OPERATOR_ADDRESSES: seeded.addresses.negRiskOperators.join(","),
      POLYMARKET_SPORTS_ORACLE_ADDRESS: SPORTS_ORACLE,
      ORACLE_LOG_CHUNK_SIZE: chunk,
      ORACLE_POLYGON_LOG_CHUNK_SIZE: chunk,
      // anvil's "finalized" is 64 blocks back (all of a small local chain): index up to the latest block instead.
      ORACLE_ETH_CONFIRMATIONS: "0",
      ORACLE_POLYGON_CONFIRMATIONS: "0",
      // The stand-ins rate-limit only when a test switches it on; the app's own pacing stays out of the way.
      ORACLE_RPC_MAX_RPS: "1000",
    };
    return {
      ethRpcUrl: ethStandin.url,
      polygonRpcUrl: polygonStandin.url,
      anvilUrls: { ethereum: ethereum.url, polygon: polygon.url },
      standins: { ethereum: ethStandin, polygon: polygonStandin },
      env,
      expected: seeded.expected,
      addresses: seeded.addresses,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
