// Probability change over a window, from a step series of samples. Pure: no I/O, no clock.
//
// Definition (also in the OpenAPI descriptions and the README): the change of an outcome over a window W,
// answered as of time A (the time of the latest sample), is  p(latest sample at or before A) − p(latest sample at or
// before A − W).  An outcome with no sample at or before A − W (it was born, or first sampled, inside the window) is
// left out rather than guessed.

export interface PricePoint {
  /** Unix seconds. */
  t: number;
  /** Probability in [0, 1]. */
  p: number;
}

/** The latest point with `t <= at`, from points sorted by ascending `t`; null if every point is later. */
export function sampleAtOrBefore(points: readonly PricePoint[], at: number): PricePoint | null {
  let lo = 0;
  let hi = points.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid].t <= at) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found === -1 ? null : points[found];
}

interface WindowChange {
  now: PricePoint;
  then: PricePoint;
  /** now.p − then.p, in probability points as a fraction (0.05 = +5 points). */
  change: number;
}

/**
 * Change over `windowSeconds` ending at `asOf`. Null when there is no sample at or before the window's start, or
 * when the outcome was first sampled after the window's start (`firstSampledAt`, for bucketed rollups whose bucket
 * start can precede the first real sample).
 */
export function changeOverWindow(
  points: readonly PricePoint[],
  asOf: number,
  windowSeconds: number,
  options: { firstSampledAt?: number | null } = {},
): WindowChange | null {
  const start = asOf - windowSeconds;
  if (options.firstSampledAt != null && options.firstSampledAt > start) return null;
  const now = sampleAtOrBefore(points, asOf);
  const then = sampleAtOrBefore(points, start);
  if (!now || !then) return null;
  return { now, then, change: roundProbability(now.p - then.p) };
}

/** Float noise (and float4 storage) shows up as 0.30000000000000004; six decimals is far below any tick size. */
export function roundProbability(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
