import { describe, expect, it } from "vitest";
import {
  changeDirection,
  formatCompact,
  formatDateTime,
  formatPoints,
  formatPrice,
  formatProbability,
  formatRelativeTime,
  formatTokens,
  formatUsd,
  shortAddress,
  traderName,
} from "./format";

describe("dashboard number formatting", () => {
  it("formats USD by magnitude, with compact notation that does not depend on the ICU build", () => {
    expect(formatUsd(11_000_000)).toBe("$11M");
    expect(formatUsd(2_540_000)).toBe("$2.5M");
    expect(formatUsd(-2_500_000)).toBe("-$2.5M");
    expect(formatUsd(1_250_000_000)).toBe("$1.3B");
    expect(formatUsd(12_345.6)).toBe("$12,346");
    expect(formatUsd(12.345)).toBe("$12.35");
    expect(formatUsd(0)).toBe("$0.00");
    expect(formatUsd(null)).toBe("–");
    expect(formatUsd(Number.NaN)).toBe("–");
  });

  it("formats probabilities as percentages and changes as signed points", () => {
    expect(formatProbability(0.4567)).toBe("45.7%");
    expect(formatProbability(0)).toBe("0.0%");
    expect(formatProbability(1)).toBe("100.0%");
    expect(formatProbability(0.0004)).toBe("<0.1%");
    expect(formatProbability(0.9996)).toBe(">99.9%");
    expect(formatPoints(0.052)).toBe("+5.2 pts");
    expect(formatPoints(-0.004)).toBe("−0.4 pts");
    expect(formatPoints(0.0001)).toBe("±0.0 pts");
    expect(changeDirection(0.01)).toBe("up");
    expect(changeDirection(-0.01)).toBe("down");
    expect(changeDirection(0.0001)).toBe("flat");
    expect(formatPrice(0.634)).toBe("63.4¢");
  });

  it("formats counts and token amounts compactly", () => {
    expect(formatCompact(1234)).toBe("1.2K");
    expect(formatCompact(999)).toBe("999");
    expect(formatTokens("3899999.75")).toBe("3.9M");
    expect(formatTokens("1234.5")).toBe("1,235");
    expect(formatTokens(null)).toBe("–");
  });

  it("formats relative times against an injected clock", () => {
    const now = Date.parse("2026-11-22T12:00:00Z");
    expect(formatRelativeTime("2026-11-22T11:57:00Z", now)).toBe("3 min. ago");
    expect(formatRelativeTime("2026-11-22T11:59:58Z", now)).toBe("just now");
    expect(formatRelativeTime("2026-11-24T12:00:00Z", now)).toBe("in 2 days");
    expect(formatRelativeTime("not a date", now)).toBe("–");
    expect(formatDateTime("2026-11-22T11:57:00Z")).toBe("Nov 22, 2026, 11:57 AM UTC");
  });

  it("shortens addresses and prefers pseudonyms", () => {
    expect(shortAddress("0x1234567890abcdef1234567890abcdef12345678")).toBe("0x1234…5678");
    expect(traderName("Bold-Oar", "0x1234567890abcdef1234567890abcdef12345678")).toBe("Bold-Oar");
    expect(traderName(null, "0x1234567890abcdef1234567890abcdef12345678")).toBe("0x1234…5678");
  });
});
