// Maps chain RPC failures onto the API's error registry: a timeout is a 504, anything else from the RPC a 502.
// The RPC URL is never echoed (paid RPC URLs carry keys).
import { BaseError, TimeoutError } from "viem";
import { ApiError } from "@/lib/api/errors";

export function toUpstreamError(error: unknown, chain: string): ApiError | null {
  if (error instanceof ApiError) return error;
  if (!(error instanceof BaseError)) return null;
  if (error.walk((e) => e instanceof TimeoutError) instanceof TimeoutError) {
    return new ApiError("upstream_timeout", `The ${chain} RPC did not answer in time.`);
  }
  return new ApiError("upstream_unavailable", `The ${chain} RPC failed: ${error.shortMessage.split("\n")[0].replace(/https?:\/\/\S+/g, "<rpc>")}`);
}

/** Runs a chain read and turns its failure into the right ApiError. */
export async function onChain<T>(chain: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw toUpstreamError(error, chain) ?? error;
  }
}
