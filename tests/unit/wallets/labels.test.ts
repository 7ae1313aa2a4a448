// Wallet labels on constructed wallets: each rule fires on a wallet built to meet it and not on one just short of it.
import { describe, expect, it } from "vitest";
import { type LabelInput, walletLabels } from "@/lib/wallets/labels";

const NOW = 1_800_000_000;
const DAY = 86_400;
const base: LabelInput = {
  now_s: NOW,
  first_at_s: NOW - 200 * DAY,
  fills: 10,
  maker_share: 0.1,
  two_sided_share: 0.1,
  max_position_usd: 500,
  value_usd: 500,
  win_rate: 0.5,
  resolved_markets: 2,
  winning_redemptions: 0,
  active_days: 5,
};
const labels = (over: Partial<LabelInput>) => walletLabels({ ...base, ...over });

describe("wallet labels", () => {
  it("an ordinary wallet has none", () => {
    expect(labels({})).toEqual([]);
  });

  it("market_maker: most fills as maker, on both sides of at least half its markets, 20+ fills", () => {
    expect(labels({ fills: 480, maker_share: 0.85, two_sided_share: 1 })).toContain("market_maker");
    expect(labels({ fills: 480, maker_share: 0.45, two_sided_share: 1 })).not.toContain("market_maker");
    expect(labels({ fills: 480, maker_share: 0.85, two_sided_share: 0.4 })).not.toContain("market_maker");
    expect(labels({ fills: 19, maker_share: 1, two_sided_share: 1 })).not.toContain("market_maker");
    expect(labels({ fills: 480, maker_share: null, two_sided_share: 1 })).not.toContain("market_maker");
  });

  it("fresh_wallet: first activity within 7 days and a position of $10k or more", () => {
    expect(labels({ first_at_s: NOW - 2 * DAY, max_position_usd: 16_000 })).toContain("fresh_wallet");
    expect(labels({ first_at_s: NOW - 8 * DAY, max_position_usd: 16_000 })).not.toContain("fresh_wallet");
    expect(labels({ first_at_s: NOW - 2 * DAY, max_position_usd: 9_999 })).not.toContain("fresh_wallet");
  });

  it("whale: $100k or more open now", () => {
    expect(labels({ value_usd: 100_000 })).toContain("whale");
    expect(labels({ value_usd: 99_999 })).not.toContain("whale");
  });

  it("sharp: 10+ resolved markets won at 70 % or more", () => {
    expect(labels({ resolved_markets: 10, win_rate: 0.7 })).toContain("sharp");
    expect(labels({ resolved_markets: 9, win_rate: 0.9 })).not.toContain("sharp");
    expect(labels({ resolved_markets: 12, win_rate: 0.6 })).not.toContain("sharp");
  });

  it("redeemer: at least one redemption that paid", () => {
    expect(labels({ winning_redemptions: 1 })).toContain("redeemer");
  });

  it("high_frequency: 1,000+ fills at 50+ a day of activity", () => {
    expect(labels({ fills: 12_345, active_days: 31 })).toContain("high_frequency");
    expect(labels({ fills: 12_345, active_days: 300 })).not.toContain("high_frequency");
    expect(labels({ fills: 999, active_days: 1 })).not.toContain("high_frequency");
  });
});
