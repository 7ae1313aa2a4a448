// Calls to the shared KV store that may never fail or slow a request: each has a short timeout, and a failure (or
// the timeout) answers undefined, logged, so the caller falls back to its in-process layer.
import { log } from "@/lib/log";

export const KV_BEST_EFFORT_TIMEOUT_MS = 300;

export async function kvBestEffort<T>(what: string, call: () => Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      call(),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), KV_BEST_EFFORT_TIMEOUT_MS);
      }),
    ]);
  } catch (error) {
    log.warn("KV call failed", { op: what, error: (error as Error).message });
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
