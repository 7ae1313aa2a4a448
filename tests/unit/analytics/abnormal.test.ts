import { describe, expect, it } from "vitest";
import { ABNORMAL_RULES, findAbnormalTrades, median, scoreTrade } from "@/lib/analytics/abnormal";

// Twenty reference trades: ten of $100 and ten of $400. ln-median = (ln 100 + ln 400)/2 = ln 200, MAD = ln 2.
const reference = [...Array(10).fill(100), ...Array(10).fill(400)];

describe("median", () => {
  it("handles odd and even lengths", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});

describe("scoreTrade", () => {
  it("computes the modified z-score of the log size against the market", () => {
    // z = 0.6745 · (ln 12800 − ln 200) / ln 2 = 0.6745 · 6 = 4.047
    const result = scoreTrade({ usd_size: 12_800 }, { reference_usd_sizes: reference, volume_24h_usd: 1_000_000 });
    expect(result.z).toBeCloseTo(4.047, 3);
    expect(result.market_median_usd).toBe(200);
    expect(result.share_of_market_24h_volume).toBeCloseTo(0.0128, 6);
    // score = 4.047/3.5 + 0.0128/0.1 = 1.156 + 0.128
    expect(result.score).toBeCloseTo(1.284, 3);
    expect(result.abnormal).toBe(true);
    expect(result.reason).toMatch(
      /\$12,800 is 4\.0 robust deviations above this market's typical trade \(median \$200 over 20 trades in 48 h/,
    );
  });

  it("does not flag a normal-sized trade", () => {
    const result = scoreTrade({ usd_size: 600 }, { reference_usd_sizes: reference, volume_24h_usd: 1_000_000 });
    expect(result.abnormal).toBe(false);
    expect(result.reason).toMatch(/not flagged/);
  });

  it("flags a trade that is a large share of the market's day even when its size is typical there", () => {
    // Market where everyone trades ~$5,000 but the day's volume is only $20,000: share 25 % alone crosses 1.
    const sizes = Array(30).fill(5_000);
    const result = scoreTrade({ usd_size: 5_000 }, { reference_usd_sizes: sizes, volume_24h_usd: 20_000 });
    expect(result.z).toBe(0);
    expect(result.score).toBeCloseTo(2.5, 6);
    expect(result.abnormal).toBe(true);
    expect(result.reason).toMatch(/25% of the market's 24 h volume/);
  });

  it("combines half of each signal", () => {
    // z = 1.75 needs ln(x/200) = 1.75 · ln2 / 0.6745; share 5 % → score 0.5 + 0.5 = 1.
    const usd = 200 * Math.exp((1.75 * Math.log(2)) / 0.6745);
    const result = scoreTrade({ usd_size: usd }, { reference_usd_sizes: reference, volume_24h_usd: usd / 0.05 });
    expect(result.score).toBeCloseTo(1, 3);
  });

  it("ignores the size term with too few reference trades", () => {
    const result = scoreTrade({ usd_size: 50_000 }, { reference_usd_sizes: [10, 20, 30], volume_24h_usd: 10_000_000 });
    expect(result.z).toBeNull();
    expect(result.abnormal).toBe(false);
    expect(result.reason).toMatch(/too few to judge size/);
  });

  it("floors the MAD so a market of identical trades does not divide by zero", () => {
    const result = scoreTrade({ usd_size: 1_000 }, { reference_usd_sizes: Array(20).fill(100), volume_24h_usd: 1e9 });
    expect(result.z).toBeCloseTo((0.6745 * Math.log(10)) / ABNORMAL_RULES.madFloor, 3);
    expect(Number.isFinite(result.score)).toBe(true);
  });

  it("never flags below the dollar floor, and caps the share at 1", () => {
    const result = scoreTrade({ usd_size: 400 }, { reference_usd_sizes: [], volume_24h_usd: 0 });
    expect(result.share_of_market_24h_volume).toBe(1);
    expect(result.abnormal).toBe(false);
    expect(result.reason).toMatch(/below the \$500 floor/);
  });
});

describe("findAbnormalTrades", () => {
  it("keeps abnormal trades only, highest score first, ties newest first", () => {
    const markets = new Map([["0xa", { reference_usd_sizes: reference, volume_24h_usd: 1e9 }]]);
    const trades = [
      { id: "small", condition_id: "0xa", usd_size: 300, timestamp: 1 },
      { id: "big-old", condition_id: "0xa", usd_size: 50_000, timestamp: 1 },
      { id: "big-new", condition_id: "0xa", usd_size: 50_000, timestamp: 2 },
      { id: "bigger", condition_id: "0xa", usd_size: 200_000, timestamp: 0 },
    ];
    expect(findAbnormalTrades(trades, markets, 10).map((t) => t.id)).toEqual(["bigger", "big-new", "big-old"]);
    expect(findAbnormalTrades(trades, markets, 1).map((t) => t.id)).toEqual(["bigger"]);
  });
});
