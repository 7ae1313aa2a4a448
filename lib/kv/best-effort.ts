// Calls to the shared KV store that may never fail or slow a request: each has a short timeout, and a failure (or
// the timeout) answers undefined, logged, so the caller falls back to its in-process layer.
import { log } from "@/lib/log";
import { TimeoutError, withTimeout } from "@/lib/timeout";

const KV_BEST_EFFORT_TIMEOUT_MS = 300;

export async function kvBestEffort<T>(what: string, call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await withTimeout(call(), KV_BEST_EFFORT_TIMEOUT_MS);
  } catch (error) {
    // A slow store is the expected degraded case (the caller's in-process layer answers); a failing one is logged.
    if (!(error instanceof TimeoutError)) log.warn("KV call failed", { op: what, error: (error as Error).message });
    return undefined;
  }
}
