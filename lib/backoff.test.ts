import { describe, expect, it } from "vitest";
import { backoffMs } from "./backoff";

describe("backoffMs", () => {
  it("doubles from the base and stops at the cap", () => {
    const plain = (n: number) => backoffMs(n, { baseMs: 200, maxMs: 2_000, jitter: false });
    expect([0, 1, 2, 3, 4, 5].map(plain)).toEqual([200, 400, 800, 1600, 2000, 2000]);
    expect(plain(-1)).toBe(200);
    expect(plain(10_000)).toBe(2_000);
  });

  it("draws uniformly below the capped delay (full jitter)", () => {
    expect(backoffMs(2, { baseMs: 200, maxMs: 2_000, random: () => 0 })).toBe(0);
    expect(backoffMs(2, { baseMs: 200, maxMs: 2_000, random: () => 0.5 })).toBe(400);
    expect(backoffMs(2, { baseMs: 200, maxMs: 2_000, random: () => 0.999999 })).toBeCloseTo(800, 2);
    expect(backoffMs(40, { baseMs: 200, maxMs: 2_000, random: () => 0.5 })).toBe(1_000);
    const draws = Array.from({ length: 1_000 }, () => backoffMs(4, { baseMs: 200, maxMs: 2_000 }));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(2_000);
    // Spread over the whole interval, not bunched in one half of it.
    expect(draws.filter((d) => d < 1_000).length).toBeGreaterThan(350);
    expect(draws.filter((d) => d >= 1_000).length).toBeGreaterThan(350);
  });
});
