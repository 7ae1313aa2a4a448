// The local chains for the demo and the tests: one anvil per chain id (1 = Ethereum with UMA's VotingV2, 137 =
// Polygon with the Optimistic Oracle V2 and the child tunnel), each with Multicall3 at its canonical address,
// deployed from the Solidity sources in ./contracts and seeded with a known world (./seed.ts).
import { type AnvilInstance, startAnvil } from "./anvil";
import { compileContracts } from "./compile";
import { GENESIS_TIMESTAMP, POLYMARKET_ADAPTERS, type SeedExpectation, type SeedResult, seedChains } from "./seed";

export type { SeedExpectation } from "./seed";

export interface LocalChainsOptions {
  /** Blocks per eth_getLogs range the app should use; small by default so scans cross chunk boundaries. */
  logChunkSize?: number;
}

export interface LocalChains {
  ethRpcUrl: string;
  polygonRpcUrl: string;
  /** Every env var the app needs to read these chains. */
  env: Record<string, string>;
  expected: SeedExpectation;
  addresses: SeedResult["addresses"];
  stop(): Promise<void>;
}

export async function startLocalChains(options: LocalChainsOptions = {}): Promise<LocalChains> {
  const artifacts = compileContracts();
  const instances: AnvilInstance[] = [];
  const stop = async () => {
    await Promise.all(instances.map((i) => i.stop()));
  };
  try {
    const [ethereum, polygon] = await Promise.all([
      startAnvil({ chainId: 1, genesisTimestamp: GENESIS_TIMESTAMP }),
      startAnvil({ chainId: 137, genesisTimestamp: GENESIS_TIMESTAMP }),
    ]);
    instances.push(ethereum, polygon);
    const seeded = await seedChains(artifacts, { ethereum: ethereum.url, polygon: polygon.url });
    const env: Record<string, string> = {
      ETH_RPC_URL: ethereum.url,
      POLYGON_RPC_URL: polygon.url,
      UMA_VOTING_V2_ADDRESS: seeded.addresses.votingV2,
      UMA_VOTING_V2_FROM_BLOCK: String(seeded.fromBlocks.votingV2),
      UMA_OOV2_ADDRESSES: seeded.addresses.optimisticOracleV2,
      UMA_OOV2_FROM_BLOCK: String(seeded.fromBlocks.optimisticOracleV2),
      POLYMARKET_UMA_REQUESTERS: POLYMARKET_ADAPTERS.join(","),
      UMA_ORACLE_CHILD_TUNNEL_ADDRESS: seeded.addresses.childTunnel,
      ORACLE_LOG_CHUNK_SIZE: String(options.logChunkSize ?? 5),
    };
    return { ethRpcUrl: ethereum.url, polygonRpcUrl: polygon.url, env, expected: seeded.expected, addresses: seeded.addresses, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
