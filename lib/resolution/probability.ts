// An outcome's probability at a moment, from our own sampled history first and from the CLOB's price history where
// ours does not reach back that far. Pure: series in, a point with where it came from out. Both series are step
// series (a price holds until the next point) sorted by ascending time, as lib/analytics/changes.ts reads them.
import { type PricePoint, sampleAtOrBefore } from "@/lib/analytics/changes";

export type ProbabilitySource = "sampled" | "clob";

export interface ProbabilityAt {
  p: number;
  /** Unix seconds of the point used (at or before the moment asked for). */
  t: number;
  source: ProbabilitySource;
  /** How old the point was at the moment asked for, in seconds. */
  age_seconds: number;
}

interface ProbabilitySeries {
  sampled: readonly PricePoint[];
  clob: readonly PricePoint[];
}

/**
 * The probability at `at` (Unix seconds). Our samples answer when the first of them is at or before `at`, i.e. our
 * history covers the moment; otherwise the CLOB history does. `maxAgeSeconds` refuses a point so old that it says
 * nothing about the moment (a market the sampler stopped seeing, a CLOB series with a gap): null, not a stale price.
 */
export function probabilityAt(series: ProbabilitySeries, at: number, maxAgeSeconds = Infinity): ProbabilityAt | null {
  const fromSampled = series.sampled.length && series.sampled[0].t <= at ? sampleAtOrBefore(series.sampled, at) : null;
  const point = fromSampled ?? sampleAtOrBefore(series.clob, at);
  if (!point) return null;
  const age = at - point.t;
  if (age > maxAgeSeconds) return null;
  return { p: point.p, t: point.t, source: fromSampled ? "sampled" : "clob", age_seconds: age };
}

/** The part of a series between two moments (inclusive), with the point in force at `from` as its first point. */
export function seriesBetween(points: readonly PricePoint[], from: number, to: number): PricePoint[] {
  const start = sampleAtOrBefore(points, from);
  const inside = points.filter((point) => point.t > from && point.t <= to);
  return start ? [start, ...inside] : inside;
}
