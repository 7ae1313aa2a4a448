// Outcome prices from the market channel: Polymarket's displayed price (midpoint, or the last trade when the spread is
// wider than $0.10, docs/stream.md) and the batching of frames into the newest price per token.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { displayedPrice, OutcomePriceBatcher } from "@/lib/stream/ingest/prices";
import { clob } from "@/lib/upstream";

const priceChangeFixture: unknown = JSON.parse(
  readFileSync(
    path.resolve(__dirname, "../../../../shared/fixtures/polymarket/ws_market_price_change__nautilus_price_change_v2.json"),
    "utf8",
  ),
);

// Token ids as the CLOB writes them (decimal uint256), which the frame schema insists on.
const T1 = "71321045679252212594626385532706912750332728571942532289631379312455583992563";
const T2 = "52114319501245915516055106046884209969926127482827954674443846427813813222426";

describe("displayedPrice", () => {
  it("is the midpoint while the spread is at most $0.10", () => {
    expect(displayedPrice(0.6, 0.7, 0.42)).toBe(0.65);
    expect(displayedPrice(0.431, 0.434, null)).toBe(0.4325);
  });
  it("is the last trade when the spread is wider, and unknown without one", () => {
    expect(displayedPrice(0.3, 0.6, 0.42)).toBe(0.42);
    expect(displayedPrice(0.3, 0.6, null)).toBeNull();
    expect(displayedPrice(null, 0.6, 0.5)).toBe(0.5);
  });
});

describe("OutcomePriceBatcher", () => {
  it("folds a recorded price_change frame into one price per token: the book after its last change", () => {
    const batcher = new OutcomePriceBatcher();
    for (const m of clob.parseMarketWsMessage(priceChangeFixture)) batcher.add(m, 1_000);
    const taken = batcher.take();
    expect(taken).toEqual([
      { tokenId: "52114319501245915516055106046884209969926127482827954674443846427813813222426", price: 0.65, at: new Date(1_000) },
    ]);
    expect(batcher.take()).toEqual([]);
  });

  it("keeps only the newest price of a token between flushes and uses the last trade on a wide book", () => {
    const batcher = new OutcomePriceBatcher();
    const change = (bid: number, ask: number) =>
      clob.parseMarketWsMessage({
        market: "0xabc",
        event_type: "price_change",
        timestamp: "1",
        price_changes: [
          { asset_id: T1, price: String(bid), side: "BUY", size: "10", hash: "h", best_bid: String(bid), best_ask: String(ask) },
        ],
      });
    const lastTrade = (price: number) =>
      clob.parseMarketWsMessage({
        asset_id: T1,
        event_type: "last_trade_price",
        market: "0xabc",
        price: String(price),
        side: "BUY",
        size: "5",
        timestamp: "1",
      });
    for (const m of change(0.4, 0.42)) batcher.add(m, 1);
    for (const m of change(0.41, 0.43)) batcher.add(m, 2);
    expect(batcher.take()).toEqual([{ tokenId: T1, price: 0.42, at: new Date(2) }]);
    // A last trade on a tight book changes nothing: the midpoint stands.
    for (const m of lastTrade(0.43)) batcher.add(m, 3);
    expect(batcher.take()).toEqual([{ tokenId: T1, price: 0.42, at: new Date(3) }]);
    for (const m of change(0.2, 0.5)) batcher.add(m, 4);
    expect(batcher.take()).toEqual([{ tokenId: T1, price: 0.43, at: new Date(4) }]);
    for (const m of lastTrade(0.31)) batcher.add(m, 5);
    expect(batcher.take()).toEqual([{ tokenId: T1, price: 0.31, at: new Date(5) }]);
  });

  it("ignores a last trade for a token whose book it has not seen", () => {
    const batcher = new OutcomePriceBatcher();
    for (const m of clob.parseMarketWsMessage({
      asset_id: T2,
      event_type: "last_trade_price",
      market: "0x1",
      price: "0.5",
      side: "SELL",
      size: "1",
      timestamp: "1",
    }))
      batcher.add(m, 1);
    expect(batcher.take()).toEqual([]);
  });
});

describe("top of book after trades", () => {
  it("a book frame after a trade that swept the ask moves the displayed price to the post-trade midpoint", async () => {
    const { OutcomePriceBatcher } = await import("@/lib/stream/ingest/prices");
    const b = new OutcomePriceBatcher();
    b.add(
      {
        type: "price_change",
        condition_id: null,
        timestamp: null,
        changes: [{ token_id: "1", price: 0.5, side: "BUY", size: 10, best_bid: 0.5, best_ask: 0.52 }],
      },
      1000,
    );
    expect(b.take()).toEqual([{ tokenId: "1", price: 0.51, at: new Date(1000) }]);
    // The trade took the whole 0.52 level: last_trade_price, then the book as it now stands (docs: market-channel).
    b.add(
      { type: "last_trade_price", token_id: "1", condition_id: null, price: 0.52, side: "BUY", size: 25, timestamp: null, tx_hash: "0x1" },
      1100,
    );
    b.add({ type: "book", token_id: "1", condition_id: null, best_bid: 0.52, best_ask: 0.56, timestamp: null }, 1100);
    expect(b.take()).toEqual([{ tokenId: "1", price: 0.54, at: new Date(1100) }]);
    b.add({ type: "best_bid_ask", token_id: "1", condition_id: null, best_bid: 0.53, best_ask: 0.55, timestamp: null }, 1200);
    expect(b.take()).toEqual([{ tokenId: "1", price: 0.54, at: new Date(1200) }]);
    b.forget("1");
    b.add(
      { type: "last_trade_price", token_id: "1", condition_id: null, price: 0.6, side: "BUY", size: 1, timestamp: null, tx_hash: "0x2" },
      1300,
    );
    expect(b.take()).toEqual([]);
  });
});
