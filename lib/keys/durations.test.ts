import { describe, expect, it } from "vitest";
import { formatAge, formatDuration, parseDuration } from "./durations";

describe("CLI durations", () => {
  it("reads a number and one unit", () => {
    expect(parseDuration("30s")).toBe(30_000);
    expect(parseDuration("15m")).toBe(900_000);
    expect(parseDuration("24h")).toBe(86_400_000);
    expect(parseDuration("90d")).toBe(90 * 86_400_000);
  });

  it("refuses everything else", () => {
    for (const bad of ["", "0s", "10", "1w", "1.5h", "-1d", "1d2h", "d", "24 h x"]) expect(parseDuration(bad), bad).toBeNull();
  });

  it("formats with the largest exact unit, and ages", () => {
    expect(formatDuration(86_400_000)).toBe("1d");
    expect(formatDuration(5_400_000)).toBe("90m");
    expect(formatDuration(45_000)).toBe("45s");
    const now = Date.UTC(2026, 0, 10);
    expect(formatAge(new Date(now - 3 * 86_400_000 - 5), now)).toBe("3d ago");
    expect(formatAge(new Date(now - 2 * 3_600_000), now)).toBe("2h ago");
    expect(formatAge(new Date(now - 10_000), now)).toBe("just now");
  });
});
