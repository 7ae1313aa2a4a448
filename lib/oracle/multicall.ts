// Bounded chain reads. Public RPCs cap what one eth_call may cost: geth runs a call with at most --rpc.gascap gas (50M
// by default) and refuses request bodies over 5 MB, and a Multicall3 sub-call that runs out of gas takes the rest of
// the batch's gas with it. So calls are packed into Multicall3 batches bounded by calldata size and by an estimate of
// the gas each call needs, at most `concurrency` batches in flight, each sub-call allowed to fail on its own. A batch
// the RPC refuses as a whole (out of gas, body too large, a revert of the aggregate) is split in two and retried down
// to single calls; a single call that still fails degrades its own row only. Transport failures (timeouts, connection
// errors, 5xx) are not a row's fault: they end the read, and the indexer pass with it (the last snapshot stays).
import {
  type Abi,
  type Address,
  BaseError,
  ContractFunctionExecutionError,
  encodeFunctionData,
  HttpRequestError,
  type PublicClient,
  TimeoutError,
} from "viem";
import { MULTICALL3_ADDRESS, type ChainName } from "./clients";
import { upstreamError } from "@/lib/api/errors";
import { toUpstreamError } from "./errors";

interface BoundedCall {
  address: Address;
  abi: Abi;
  functionName: string;
  args?: readonly unknown[];
  /** Gas this call may need; a batch's estimates add up to at most `maxGasPerBatch`. */
  gas?: bigint;
}

export type CallOutcome<T = unknown> = { ok: true; value: T } | { ok: false; error: string };

interface BoundedReadOptions {
  blockNumber: bigint;
  /** Calldata bytes per batch (the request body stays far below the 5 MB limit). */
  maxCalldataBytes?: number;
  /** Estimated gas per batch: below the 50M eth_call cap with room for Multicall3's own overhead. */
  maxGasPerBatch?: bigint;
  concurrency?: number;
}

const DEFAULT_CALL_GAS = 100_000n;
const DEFAULTS = { maxCalldataBytes: 256 * 1024, maxGasPerBatch: 30_000_000n, concurrency: 4 };

/** A failure of the transport (not of the call): timeouts, refused connections, 5xx and 429 answers. */
export function isTransportFailure(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  if (error.walk((e) => e instanceof TimeoutError)) return true;
  const http = error.walk((e) => e instanceof HttpRequestError) as HttpRequestError | null;
  // 413 (body too large) is the batch's size, not the RPC being away: a smaller batch can pass.
  return http !== null && http.status !== 413;
}

/** The error of the Multicall3 aggregate3 call as a whole (not of one sub-call). */
function isAggregateFailure(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  const execution = error.walk((e) => e instanceof ContractFunctionExecutionError) as ContractFunctionExecutionError | null;
  return execution === null || execution.functionName === "aggregate3";
}

function shortError(error: unknown): string {
  if (error instanceof BaseError) return error.shortMessage.split("\n")[0].replace(/https?:\/\/\S+/g, "<rpc>");
  return error instanceof Error ? error.message : String(error);
}

function pack(calls: BoundedCall[], options: Required<BoundedReadOptions>): number[][] {
  const batches: number[][] = [];
  let current: number[] = [];
  let bytes = 0;
  let gas = 0n;
  calls.forEach((call, i) => {
    const size = (encodeFunctionData({ abi: call.abi, functionName: call.functionName, args: call.args }).length - 2) / 2 + 96;
    const need = call.gas ?? DEFAULT_CALL_GAS;
    if (current.length && (bytes + size > options.maxCalldataBytes || gas + need > options.maxGasPerBatch)) {
      batches.push(current);
      current = [];
      bytes = 0;
      gas = 0n;
    }
    current.push(i);
    bytes += size;
    gas += need;
  });
  if (current.length) batches.push(current);
  return batches;
}

export async function boundedMulticall(
  client: PublicClient,
  chain: ChainName,
  calls: BoundedCall[],
  options: BoundedReadOptions,
): Promise<CallOutcome[]> {
  const opts = { ...DEFAULTS, ...options } as Required<BoundedReadOptions>;
  const out = new Array<CallOutcome>(calls.length);
  const run = async (indices: number[]): Promise<void> => {
    let batchError: unknown = null;
    try {
      const results = (await client.multicall({
        allowFailure: true,
        blockNumber: opts.blockNumber,
        multicallAddress: MULTICALL3_ADDRESS,
        batchSize: 0,
        contracts: indices.map((i) => calls[i]) as never,
      })) as { status: "success" | "failure"; result?: unknown; error?: unknown }[];
      // viem reports a failure of the aggregate3 eth_call itself as the same error on every sub-call.
      const whole = results.find((r) => r.status === "failure" && isAggregateFailure(r.error));
      if (whole) batchError = whole.error;
      else {
        results.forEach((r, k) => {
          out[indices[k]] = r.status === "success" ? { ok: true, value: r.result } : { ok: false, error: shortError(r.error) };
        });
        return;
      }
    } catch (error) {
      batchError = error;
    }
    if (isTransportFailure(batchError)) throw toUpstreamError(batchError, chain) ?? batchError;
    if (indices.length === 1) {
      out[indices[0]] = { ok: false, error: shortError(batchError) };
      return;
    }
    const half = Math.ceil(indices.length / 2);
    await run(indices.slice(0, half));
    await run(indices.slice(half));
  };
  const queue = pack(calls, opts);
  const workers = Array.from({ length: Math.min(opts.concurrency, queue.length) }, async () => {
    for (let batch = queue.shift(); batch; batch = queue.shift()) await run(batch);
  });
  await Promise.all(workers);
  return out;
}

/** The value of a call that must succeed for the answer to mean anything (a contract-wide figure). */
export function required<T>(outcome: CallOutcome, what: string, chain: ChainName): T {
  if (outcome.ok) return outcome.value as T;
  throw upstreamError("upstream_unavailable", chain, `The ${chain} RPC failed: ${what} could not be read (${outcome.error}).`);
}
