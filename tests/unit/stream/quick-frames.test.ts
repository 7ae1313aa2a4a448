// The worker's quick read of `price_change` frames (lib/stream/ingest/quick-frames.ts) against the schema it stands in
// for: on every frame it accepts it gives the schema's tokens and tops, and anything the schema might read otherwise or
// reject (a renamed or retyped field, an array frame, another type) is left to the schema, which counts drift.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { OutcomePriceBatcher } from "@/lib/stream/ingest/prices";
import { quickPriceChange } from "@/lib/stream/ingest/quick-frames";
import { clob } from "@/lib/upstream";

const recorded: unknown = JSON.parse(
  readFileSync(
    path.resolve(__dirname, "../../../../shared/fixtures/polymarket/ws_market_price_change__nautilus_price_change_v2.json"),
    "utf8",
  ),
);
const T1 = "71321045679252212594626385532706912750332728571942532289631379312455583992563";
const frame = (change: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  market: "0xabc",
  event_type: "price_change",
  timestamp: "1790000000000",
  price_changes: [{ asset_id: T1, price: "0.41", size: "120", side: "BUY", hash: "0", best_bid: "0.41", best_ask: "0.43", ...change }],
  ...extra,
});

/** What the schema gives for the same frame: each change's token and top. */
const schemaTops = (f: unknown) =>
  clob
    .parseMarketWsFrame(f)
    .messages.flatMap((m) =>
      m.type === "price_change" ? m.changes.map((c) => ({ token_id: c.token_id, best_bid: c.best_bid, best_ask: c.best_ask })) : [],
    );

describe("quickPriceChange", () => {
  it("reads the recorded frame and simulated ones exactly as the schema does", () => {
    const frames = [
      ...(Array.isArray(recorded) ? recorded : [recorded]),
      frame({}),
      frame({ best_bid: 0.4, best_ask: 0.42, price: 0.4, size: 3 }),
      frame({ best_bid: null, best_ask: undefined, side: null }),
      frame({}, { market: null, timestamp: 1790000000000 }),
    ];
    for (const f of frames) {
      const quick = quickPriceChange(f);
      expect(quick, JSON.stringify(f)).not.toBeNull();
      expect(quick).toEqual(schemaTops(f));
    }
  });

  it("leaves to the schema every frame it cannot read plainly, including the ones the schema rejects", () => {
    const doubtful = [
      frame({ asset_id: undefined, assetId: T1 }), // renamed: the schema fails it (drift)
      frame({ asset_id: "0xnot-decimal" }),
      frame({ price: "n/a" }),
      frame({ size: undefined }),
      frame({ best_bid: { value: 0.4 } }),
      frame({ side: 1 }),
      frame({}, { market: 7 }),
      frame({}, { timestamp: { ms: 1 } }),
      { ...frame({}), price_changes: "none" },
      { ...frame({}), event_type: "book" },
      [frame({})],
      "PONG",
      null,
    ];
    for (const f of doubtful) expect(quickPriceChange(f), JSON.stringify(f)).toBeNull();
    // The renamed field still fails in the schema, so the worker counts it as drift.
    expect(clob.parseMarketWsFrame(doubtful[0]).failures).toHaveLength(1);
  });

  it("feeds the displayed-price fold, which queues nothing for an order away from the top", () => {
    const batcher = new OutcomePriceBatcher();
    batcher.addTops(quickPriceChange(frame({}))!, 1_000);
    expect(batcher.take()).toEqual([{ tokenId: T1, price: 0.42, at: new Date(1_000) }]);
    // An order deeper in the book: the top is unchanged, nothing to write.
    batcher.addTops(quickPriceChange(frame({ price: "0.38", size: "0" }))!, 2_000);
    expect(batcher.take()).toEqual([]);
    batcher.addTops(quickPriceChange(frame({ best_bid: "0.42" }))!, 3_000);
    expect(batcher.take()).toEqual([{ tokenId: T1, price: 0.425, at: new Date(3_000) }]);
  });
});
