// The one backoff formula for retries and reconnects: capped exponential (base × 2^attempt, at most max), with
// "equal jitter" by default (half of the delay fixed, half random), so many clients retrying after the same failure
// spread out without any of them retrying at once. Pure (no imports): the browser bundle uses it too.

export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  /** false: the capped exponential alone (schedules where spreading does not matter, e.g. one tab's refresh). */
  jitter?: boolean;
  /** Injectable for tests. */
  random?: () => number;
}

/** The delay before retry number `attempt` (0 for the first retry). */
export function backoffMs(attempt: number, options: BackoffOptions): number {
  const capped = Math.min(options.maxMs, options.baseMs * 2 ** Math.min(Math.max(0, attempt), 30));
  if (options.jitter === false) return capped;
  return capped * (0.5 + (options.random ?? Math.random)() / 2);
}
