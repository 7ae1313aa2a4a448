// The one backoff formula for retries and reconnects: capped exponential (base × 2^attempt, at most max) with full
// jitter, a uniform draw below that delay, so the clients that failed together retry spread over the whole interval
// (of the jitters compared in AWS's "Exponential Backoff And Jitter", the one with the least total work). A caller
// that needs no jitter says why in docs/architecture.md ("Retries and timeouts"). Pure (no imports): the browser
// bundle uses it too.

export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  /** false: the capped exponential alone, for a schedule that must not shorten (docs/architecture.md). */
  jitter?: boolean;
  /** Injectable for tests. */
  random?: () => number;
}

/** The delay before retry number `attempt` (0 for the first retry): in [0, min(max, base × 2^attempt)). */
export function backoffMs(attempt: number, options: BackoffOptions): number {
  const capped = Math.min(options.maxMs, options.baseMs * 2 ** Math.min(Math.max(0, attempt), 30));
  if (options.jitter === false) return capped;
  return capped * (options.random ?? Math.random)();
}
