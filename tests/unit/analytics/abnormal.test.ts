import { describe, expect, it, vi } from "vitest";
import fc from "fast-check";
import {
  abnormalAmong,
  abnormalAmongInSlices,
  ABNORMAL_RULES,
  findAbnormalTrades,
  median,
  scoreAgainst,
  scoreTrade,
  summarizeMarket,
} from "@/lib/analytics/abnormal";
import { roundUsd } from "@/lib/analytics/money";

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

// The definition as it was written before scoring became one summary per market (a sort of the reference set per
// trade): kept here verbatim as the oracle that the summarised scoring must equal, value for value.
function definitionScore(trade: { usd_size: number }, market: { reference_usd_sizes: readonly number[]; volume_24h_usd: number }) {
  const rules = ABNORMAL_RULES;
  const sizes = market.reference_usd_sizes.filter((v) => v > 0);
  const denominator = Math.max(market.volume_24h_usd, trade.usd_size);
  const share = denominator > 0 ? trade.usd_size / denominator : 0;
  let z: number | null = null;
  let marketMedian: number | null = null;
  if (sizes.length >= rules.minReferenceTrades && trade.usd_size > 0) {
    const logs = sizes.map(Math.log);
    const m = median(logs);
    const mad = median(logs.map((x) => Math.abs(x - m)));
    z = (0.6745 * (Math.log(trade.usd_size) - m)) / Math.max(mad, rules.madFloor);
    marketMedian = Math.exp(m);
  } else if (sizes.length) {
    marketMedian = median(sizes);
  }
  const score = Math.max(z ?? 0, 0) / rules.zThreshold + share / rules.shareThreshold;
  return { score, z, marketMedian, share, abnormal: score >= rules.scoreThreshold && trade.usd_size >= rules.minUsd };
}

describe("summarised scoring equals the definition", () => {
  const size = fc.oneof(
    fc.double({ min: -10, max: 1e7, noNaN: true }),
    fc.constantFrom(0, 1, 100, 400, 500, 5_000),
    fc.integer({ min: 1, max: 100_000 }),
  );
  const market = fc.record({
    reference_usd_sizes: fc.array(size, { maxLength: 40 }),
    volume_24h_usd: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1e9, noNaN: true })),
  });

  it("gives every trade the definition's score, z, median, share and verdict (and scoreTrade's own answer)", () => {
    fc.assert(
      fc.property(market, fc.array(size, { minLength: 1, maxLength: 12 }), (context, tradeSizes) => {
        const summary = summarizeMarket(context);
        for (const usd_size of tradeSizes) {
          const expected = definitionScore({ usd_size }, context);
          const got = scoreAgainst({ usd_size }, summary);
          expect(got).toEqual(scoreTrade({ usd_size }, context));
          expect(got.score).toBe(Math.round(expected.score * 1000) / 1000);
          expect(got.z).toBe(expected.z === null ? null : Math.round(expected.z * 1000) / 1000);
          expect(got.market_median_usd).toBe(expected.marketMedian === null ? null : roundUsd(expected.marketMedian));
          expect(got.share_of_market_24h_volume).toBe(Math.round(expected.share * 1e6) / 1e6);
          expect(got.abnormal).toBe(expected.abnormal);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("ranks a mix of markets exactly as scoring trade by trade against the definition", () => {
    const trade = fc.record({
      id: fc.string({ minLength: 1, maxLength: 4 }),
      condition_id: fc.constantFrom("0xa", "0xb", "0xunknown"),
      usd_size: size,
      timestamp: fc.integer({ min: 0, max: 5 }),
    });
    fc.assert(
      fc.property(market, market, fc.array(trade, { maxLength: 30 }), fc.integer({ min: 1, max: 40 }), (a, b, trades, limit) => {
        const markets = new Map([
          ["0xa", a],
          ["0xb", b],
        ]);
        const expected = trades
          .map((t) => ({ t, d: definitionScore(t, markets.get(t.condition_id) ?? { reference_usd_sizes: [], volume_24h_usd: 0 }) }))
          .filter(({ d }) => d.abnormal)
          .map(({ t, d }) => ({ id: t.id, timestamp: t.timestamp, score: Math.round(d.score * 1000) / 1000 }))
          .sort((x, y) => y.score - x.score || y.timestamp - x.timestamp || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
          .slice(0, limit);
        const got = findAbnormalTrades(trades, markets, limit).map((t) => ({ id: t.id, timestamp: t.timestamp, score: t.score }));
        expect(got).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe("scoring in bounded time", () => {
  it("summarises a market once, so a burst of 30,000 trades in one market is scored in one pass over them", () => {
    // Deterministic sizes over one decade ($100–$1,000) and every thousandth a $1 M trade; each trade is also its
    // market's reference (as in a burst).
    const sizes = Array.from({ length: 30_000 }, (_, i) => (i % 1000 === 999 ? 1e6 : 100 * 10 ** (((i * 7919) % 30_000) / 30_000)));
    const trades = sizes.map((usd_size, i) => ({ id: `t${i}`, condition_id: "0xa", usd_size, timestamp: i }));
    const markets = new Map([["0xa", { reference_usd_sizes: sizes, volume_24h_usd: 5e6 }]]);
    const sort = vi.spyOn(Float64Array.prototype, "sort");
    try {
      const found = findAbnormalTrades(trades, markets, 500);
      expect(found.map((t) => t.usd_size)).toEqual(Array(30).fill(1e6));
      // One summary of the market: the plain sizes, the logs and the deviations, each sorted once.
      expect(sort).toHaveBeenCalledTimes(3);
    } finally {
      sort.mockRestore();
    }
  });
});

describe("abnormalAmongInSlices", () => {
  it("finds what abnormalAmong finds, handing control back between slices", async () => {
    const sizes = Array.from({ length: 5_000 }, (_, i) => (i % 500 === 0 ? 250_000 : 100 + (i % 97)));
    const trades = sizes.map((usd_size, i) => ({ id: `t${i}`, condition_id: "0xa", usd_size, timestamp: i }));
    const summaries = new Map([["0xa", summarizeMarket({ reference_usd_sizes: sizes, volume_24h_usd: 1e9 })]]);
    let turns = 0;
    const found = await abnormalAmongInSlices(trades, summaries, async () => void turns++, 1_000);
    // Five slices of 1,000: control goes back four times, between them.
    expect(turns).toBe(4);
    expect(found).toEqual(abnormalAmong(trades, summaries));
    expect(found.map((t) => t.id)).toEqual(["t0", "t500", "t1000", "t1500", "t2000", "t2500", "t3000", "t3500", "t4000", "t4500"]);
  });
});
