// Drives a local anvil chain the way the oracle tests play a dispute's lifecycle: transactions from anvil's first dev
// account (its public test key), waited for and checked, and the chain's clock moved to a given time.
import {
  type Abi,
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  decodeEventLog,
  encodeAbiParameters,
  type Hex,
  http,
  keccak256,
  stringToHex,
  type TransactionReceipt,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { mainnet, polygon } from "viem/chains";

/** anvil's first dev account (a public test key). */
export const account = privateKeyToAccount("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
/** The identifier Polymarket's requests use. */
export const YES_OR_NO = stringToHex("YES_OR_NO_QUERY", { size: 32 });
/** 1e18: "Yes" as a price, one token in wei. */
export const ONE = 10n ** 18n;

export type ChainDriver = ReturnType<typeof driver>;

export function driver(url: string, chain: typeof mainnet | typeof polygon) {
  const transport = http(url);
  const pub = createPublicClient({ chain, transport });
  const wallet = createWalletClient({ chain, transport, account });
  const test = createTestClient({ chain, transport, mode: "anvil" });
  return {
    pub,
    /** Sends one transaction and waits for it; a revert throws with the function's name. */
    async send(address: Address, abi: Abi, functionName: string, args: unknown[]): Promise<TransactionReceipt> {
      const hash = await wallet.writeContract({ address, abi, functionName, args, gas: 3_000_000n });
      const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      if (receipt.status !== "success") throw new Error(`${functionName} reverted`);
      return receipt;
    },
    /** Mines one block at the given timestamp. */
    async advanceTo(timestamp: bigint) {
      await test.setNextBlockTimestamp({ timestamp });
      await test.mine({ blocks: 1 });
    },
  };
}

export interface DvmRequest {
  roundId: number;
  time: bigint;
  ancillaryData: Hex;
}

/** The DVM request with this id as mainnet holds it (its compressed ancillary data), from VotingV2's RequestAdded logs. */
export async function findDvmRequest(eth: ChainDriver, votingV2: Address, abi: Abi, requestId: string): Promise<DvmRequest> {
  const logs = await eth.pub.getContractEvents({ address: votingV2, abi, eventName: "RequestAdded", fromBlock: 0n });
  const added = logs.map((log) => decodeEventLog({ abi, data: log.data, topics: log.topics }).args as unknown as DvmRequest);
  const request = added.find(
    (a) =>
      keccak256(
        encodeAbiParameters([{ type: "bytes32" }, { type: "uint256" }, { type: "bytes" }], [YES_OR_NO, a.time, a.ancillaryData]),
      ) === requestId,
  );
  if (!request) throw new Error(`no RequestAdded log for DVM request ${requestId}`);
  return request;
}
