// Maps chain RPC failures onto the API's error registry: a timeout is a 504, anything else from the RPC a 502.
// The RPC URL is never echoed (paid RPC URLs carry keys).
import { BaseError, TimeoutError } from "viem";
import { ApiError, upstreamError } from "@/lib/api/errors";
import type { ChainName } from "./clients";

// Messages nodes give for state or logs they no longer keep (geth: "missing trie node", Erigon/Nethermind/providers:
// "pruned", "history ... not available").
const PRUNED_HISTORY = /prun|missing trie node|history (?:is )?(?:not available|unavailable)/i;

export function toUpstreamError(error: unknown, chain: ChainName): ApiError | null {
  if (error instanceof ApiError) return error;
  if (!(error instanceof BaseError)) return null;
  if (error.walk((e) => e instanceof TimeoutError) instanceof TimeoutError) {
    return upstreamError("upstream_timeout", chain, `The ${chain} RPC did not answer in time.`);
  }
  // The provider's own words (e.g. "History has been pruned for this block") sit in `details`; they go to the log,
  // and a pruned history is named to the client in our own words (the deployment needs an archive node).
  const details = error.details && error.details !== error.shortMessage ? ` (${error.details.slice(0, 200)})` : "";
  const text = (error.shortMessage.split("\n")[0] + details).replace(/https?:\/\/\S+/g, "<rpc>");
  const pruned = PRUNED_HISTORY.test(text) ? "the node has pruned the history this read needs (an archive node is required)" : undefined;
  return upstreamError("upstream_unavailable", chain, `The ${chain} RPC failed: ${text}`, pruned);
}

/** Runs a chain read and turns its failure into the right ApiError. */
export async function onChain<T>(chain: ChainName, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw toUpstreamError(error, chain) ?? error;
  }
}
