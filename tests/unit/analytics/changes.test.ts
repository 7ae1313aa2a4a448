import { describe, expect, it } from "vitest";
import { changeOverWindow, sampleAtOrBefore } from "@/lib/analytics/changes";
import { rankMovers } from "@/lib/analytics/movers";

// Series in unix seconds; asOf = 10_000 throughout.
const series = [
  { t: 6_000, p: 0.2 },
  { t: 6_400, p: 0.25 },
  { t: 9_000, p: 0.4 },
  { t: 10_000, p: 0.55 },
];

describe("sampleAtOrBefore", () => {
  it("returns the point exactly on the boundary", () => {
    expect(sampleAtOrBefore(series, 6_400)).toEqual({ t: 6_400, p: 0.25 });
  });
  it("returns the latest earlier point inside a gap", () => {
    expect(sampleAtOrBefore(series, 8_999)).toEqual({ t: 6_400, p: 0.25 });
  });
  it("returns null before the first point and the last point after the end", () => {
    expect(sampleAtOrBefore(series, 5_999)).toBeNull();
    expect(sampleAtOrBefore(series, 99_999)).toEqual({ t: 10_000, p: 0.55 });
    expect(sampleAtOrBefore([], 1)).toBeNull();
  });
});

describe("changeOverWindow", () => {
  it("uses the sample exactly on the window start", () => {
    // start = 10_000 - 3_600 = 6_400: that sample itself, not the one before.
    const result = changeOverWindow(series, 10_000, 3_600);
    expect(result?.then).toEqual({ t: 6_400, p: 0.25 });
    expect(result?.change).toBe(0.3);
  });

  it("carries the last sample across a gap (stored-on-change series)", () => {
    // start = 8_000 falls in the gap 6_400..9_000: the price then was still 0.25.
    const result = changeOverWindow(series, 10_000, 2_000);
    expect(result?.then.p).toBe(0.25);
    expect(result?.change).toBe(0.3);
  });

  it("is negative for a fall, in probability points as a fraction", () => {
    const falling = [
      { t: 0, p: 0.9 },
      { t: 100, p: 0.35 },
    ];
    expect(changeOverWindow(falling, 100, 100)?.change).toBe(-0.55);
  });

  it("leaves out a market born inside the window", () => {
    // First sample at 6_000; a window starting at 5_000 has nothing at or before its start.
    expect(changeOverWindow(series, 10_000, 5_000)).toBeNull();
  });

  it("leaves out an outcome first sampled after the start even if a rollup bucket starts earlier", () => {
    const rollup = [
      { t: 5_400, p: 0.3 }, // bucket [5_400, 6_300) whose first real sample was at 6_000
      { t: 9_900, p: 0.5 },
    ];
    expect(changeOverWindow(rollup, 10_000, 4_500, { firstSampledAt: 6_000 })).toBeNull();
    expect(changeOverWindow(rollup, 10_000, 4_500, { firstSampledAt: 5_400 })?.change).toBe(0.2);
  });

  it("has no float noise in the change", () => {
    const noisy = [
      { t: 0, p: 0.1 },
      { t: 60, p: 0.3 },
    ];
    expect(changeOverWindow(noisy, 60, 60)?.change).toBe(0.2);
  });
});

describe("rankMovers", () => {
  const candidates = [
    { market_id: "1", change: 0.05, volume_24h_usd: 10 },
    { market_id: "2", change: -0.2, volume_24h_usd: 10 },
    { market_id: "3", change: 0.2, volume_24h_usd: 50 },
    { market_id: "4", change: 0.2, volume_24h_usd: 50 },
    { market_id: "5", change: 0, volume_24h_usd: 1_000 },
  ];

  it("ranks by absolute change, then volume, then market id", () => {
    expect(rankMovers(candidates, 10).map((c) => c.market_id)).toEqual(["3", "4", "2", "1", "5"]);
  });

  it("applies the limit after ranking and does not mutate its input", () => {
    const copy = structuredClone(candidates);
    expect(rankMovers(candidates, 2).map((c) => c.market_id)).toEqual(["3", "4"]);
    expect(candidates).toEqual(copy);
  });
});
