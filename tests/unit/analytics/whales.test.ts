import { describe, expect, it } from "vitest";
import { rankWhales, valuePosition } from "@/lib/analytics/whales";

describe("valuePosition", () => {
  it("values at the current price and computes unrealized PnL from the entry", () => {
    expect(valuePosition({ wallet: "a", token_id: "1", shares: 10_000, entry_price: 0.3, current_price: 0.45 })).toEqual({
      value_usd: 4_500,
      unrealized_pnl_usd: 1_500,
    });
  });
  it("has no PnL without an entry price", () => {
    expect(valuePosition({ wallet: "a", token_id: "1", shares: 100, entry_price: null, current_price: 0.5 }).unrealized_pnl_usd).toBeNull();
  });
});

describe("rankWhales", () => {
  it("ranks by value, not by shares, with ties by wallet", () => {
    const ranked = rankWhales(
      [
        { wallet: "0xb", token_id: "1", shares: 100_000, entry_price: 0.01, current_price: 0.02 }, // $2,000
        { wallet: "0xa", token_id: "2", shares: 10_000, entry_price: 0.5, current_price: 0.9 }, // $9,000
        { wallet: "0xc", token_id: "3", shares: 20_000, entry_price: 0.5, current_price: 0.1 }, // $2,000
      ],
      10,
    );
    expect(ranked.map((r) => r.wallet)).toEqual(["0xa", "0xb", "0xc"]);
    expect(ranked[0].value_usd).toBe(9_000);
    expect(ranked[2].unrealized_pnl_usd).toBe(-8_000);
  });
});
