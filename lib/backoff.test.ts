import { describe, expect, it } from "vitest";
import { backoffMs } from "./backoff";

describe("backoffMs", () => {
  it("doubles from the base and stops at the cap", () => {
    const plain = (n: number) => backoffMs(n, { baseMs: 200, maxMs: 2_000, jitter: false });
    expect([0, 1, 2, 3, 4, 5].map(plain)).toEqual([200, 400, 800, 1600, 2000, 2000]);
    expect(plain(-1)).toBe(200);
    expect(plain(10_000)).toBe(2_000);
  });

  it("jitters between half and all of the capped delay", () => {
    expect(backoffMs(2, { baseMs: 200, maxMs: 2_000, random: () => 0 })).toBe(400);
    expect(backoffMs(2, { baseMs: 200, maxMs: 2_000, random: () => 0.999999 })).toBeCloseTo(800, 2);
    for (let i = 0; i < 100; i++) {
      const d = backoffMs(4, { baseMs: 200, maxMs: 2_000 });
      expect(d).toBeGreaterThanOrEqual(1_000);
      expect(d).toBeLessThanOrEqual(2_000);
    }
  });
});
