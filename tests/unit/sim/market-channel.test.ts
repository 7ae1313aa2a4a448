// The simulated CLOB market channel against Polymarket's docs and captured frames (sim/polymarket/SOURCES.md, "Live
// feeds"): `book` levels best last with a content hash, both tokens' books after a trade (mirrored), `best_bid_ask` on
// every top-of-book change of a custom-feature socket, `tick_size_change` when a price crosses 0.04 / 0.96, and
// `market_resolved` with the fields every source shows.
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { simulatorForTests } from "./helpers";
import { pollUntil } from "@/tests/helpers/poll";

type Frame = Record<string, unknown>;
type Level = { price: string; size: string };

async function listen(url: string, first: unknown) {
  const ws = new WebSocket(url);
  const frames: Frame[] = [];
  const dumps: Frame[][] = [];
  ws.on("message", (raw) => {
    const text = raw.toString();
    if (!text.startsWith("{") && !text.startsWith("[")) return;
    const parsed = JSON.parse(text) as Frame | Frame[];
    if (Array.isArray(parsed)) dumps.push(parsed);
    else frames.push(parsed);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  ws.send(JSON.stringify(first));
  return { ws, frames, dumps };
}

const top = (book: Frame) => ({
  bid: Number((book.bids as Level[]).at(-1)!.price),
  ask: Number((book.asks as Level[]).at(-1)!.price),
});

describe("simulated market channel", () => {
  // The clock is the test's: it runs ten times as fast as the wall clock unless a test sets it.
  const startedMs = Date.now();
  let jumpMs = 0;
  let frozen: number | null = null;
  const clock = () => frozen ?? startedMs + jumpMs + (Date.now() - startedMs) * 10;
  const sim = simulatorForTests({ seed: 5, scale: "demo", clock });
  const openMarkets = () => sim().world.markets.filter((m) => sim().world.isOpen(sim().world.events[m.eventIndex]));

  it("books list levels best last with a content hash; a trade sends both tokens' books, mirrored, each with its best_bid_ask", async () => {
    const tokens = openMarkets()
      .slice(0, 400)
      .flatMap((m) => [...m.tokenIds]);
    const conn = await listen(sim().clobWsUrl, { assets_ids: tokens, type: "market", custom_feature_enabled: true });
    await pollUntil(
      () => conn.dumps.length,
      (n) => n > 0,
      15_000,
      20,
      "the initial book dump",
    );
    for (const book of conn.dumps[0]) {
      const bids = (book.bids as Level[]).map((l) => Number(l.price));
      const asks = (book.asks as Level[]).map((l) => Number(l.price));
      // Three levels a side, fewer only where the price range ends (a best bid of one tick).
      expect(bids.length).toBeGreaterThan(0);
      expect(asks.length).toBeGreaterThan(0);
      expect(bids).toEqual([...bids].sort((a, b) => a - b));
      expect(asks).toEqual([...asks].sort((a, b) => b - a));
      expect(bids.at(-1)!).toBeLessThan(asks.at(-1)!);
      expect(book.hash).toMatch(/^[0-9a-f]{40}$/);
    }
    expect(conn.dumps[0].filter((b) => (b.bids as Level[]).length === 3 && (b.asks as Level[]).length === 3).length).toBeGreaterThan(
      conn.dumps[0].length / 2,
    );
    // A trade: its last_trade_price, then a book for each token of its market, each followed by its best_bid_ask.
    const tradeIndex = await pollUntil(
      () => conn.frames.findIndex((f) => f.event_type === "last_trade_price" && conn.frames.length > conn.frames.indexOf(f) + 4),
      (i) => i >= 0,
      60_000,
      20,
      "a last_trade_price and what follows it",
    );
    const trade = conn.frames[tradeIndex];
    const market = sim().world.markets.find((m) => m.conditionId === trade.market)!;
    const [traded, mirror] = [trade.asset_id, market.tokenIds.find((t) => t !== trade.asset_id)];
    const after = conn.frames.slice(tradeIndex + 1, tradeIndex + 5);
    expect(after.map((f) => [f.event_type, f.asset_id])).toEqual([
      ["book", traded],
      ["best_bid_ask", traded],
      ["book", mirror],
      ["best_bid_ask", mirror],
    ]);
    const [tradedTop, mirrorTop] = [top(after[0]), top(after[2])];
    expect(mirrorTop.bid).toBeCloseTo(1 - tradedTop.ask, 9);
    expect(mirrorTop.ask).toBeCloseTo(1 - tradedTop.bid, 9);
    expect(after[1]).toMatchObject({ best_bid: String(tradedTop.bid), best_ask: String(tradedTop.ask) });
    // A quote that moves without a trade: its price_change entries, each with a best_bid_ask of the same top.
    const changeIndex = await pollUntil(
      () => conn.frames.findIndex((f) => f.event_type === "price_change"),
      (i) => i >= 0,
      60_000,
      20,
      "a price_change",
    );
    const change = conn.frames[changeIndex];
    const entries = change.price_changes as Frame[];
    const best = conn.frames.slice(changeIndex + 1, changeIndex + 1 + entries.length);
    expect(best.map((b) => [b.event_type, b.asset_id, b.best_bid, b.best_ask, b.timestamp])).toEqual(
      entries.map((e) => ["best_bid_ask", e.asset_id, e.best_bid, e.best_ask, change.timestamp]),
    );
    conn.ws.close();
  }, 150_000);

  it("sends tick_size_change when a token's price crosses 0.04 / 0.96, before the price_change on the new tick", async () => {
    // A second within the next two hours where some open market's tick changes (found from the price model).
    const fromSec = Math.floor(clock() / 1000) + 5;
    let found: { tokens: readonly string[]; sec: number; old: number; now: number } | null = null;
    for (const m of openMarkets()) {
      const mid = sim().prices.quote(m, 0, fromSec).mid;
      if (mid > 0.12 && mid < 0.88) continue;
      for (let s = fromSec + 4; s < fromSec + 7200 && !found; s++) {
        const [a, b] = [sim().prices.quote(m, 0, s - 1).tick, sim().prices.quote(m, 0, s).tick];
        if (a !== b) found = { tokens: m.tokenIds, sec: s, old: a, now: b };
      }
      if (found) break;
    }
    expect(found).not.toBeNull();
    const { tokens, sec, old, now } = found!;
    frozen = (sec - 3) * 1000;
    const conn = await listen(sim().clobWsUrl, { assets_ids: tokens, type: "market" });
    await pollUntil(
      () => conn.dumps.length,
      (n) => n > 0,
      15_000,
      20,
      "the initial book dump",
    );
    frozen = sec * 1000 + 500;
    await pollUntil(
      () => conn.frames.filter((f) => f.event_type === "tick_size_change").length,
      (n) => n >= tokens.length,
      15_000,
      20,
      "both tokens' tick_size_change",
    );
    const changes = conn.frames.filter((f) => f.event_type === "tick_size_change");
    expect(changes.map((c) => c.asset_id).sort()).toEqual([...tokens].sort());
    for (const c of changes)
      expect(c).toMatchObject({ old_tick_size: String(old), new_tick_size: String(now), timestamp: String(sec * 1000 + 500) });
    const firstTick = conn.frames.findIndex((f) => f.event_type === "tick_size_change");
    const priceChange = conn.frames.findIndex((f) => f.event_type === "price_change" && f.timestamp === String(sec * 1000 + 500));
    expect(priceChange).toBeGreaterThan(firstTick);
    conn.ws.close();
    jumpMs = frozen - (startedMs + (Date.now() - startedMs) * 10);
    frozen = null;
  }, 60_000);

  it("market_resolved carries id, market, assets_ids, winning_asset_id, winning_outcome and timestamp", async () => {
    const market = openMarkets()[0];
    const conn = await listen(sim().clobWsUrl, { assets_ids: [market.tokenIds[0]], type: "market", custom_feature_enabled: true });
    await pollUntil(
      () => conn.dumps.length,
      (n) => n > 0,
      15_000,
      20,
      "the initial book dump",
    );
    await fetch(`${sim().url}/__sim/resolve`, { method: "POST", body: JSON.stringify({ market: market.id }) });
    const resolved = await pollUntil(
      () => conn.frames.find((f) => f.event_type === "market_resolved" && f.market === market.conditionId),
      Boolean,
      30_000,
      20,
      "market_resolved",
    );
    expect(Object.keys(resolved!).sort()).toEqual(
      ["assets_ids", "event_type", "id", "market", "timestamp", "winning_asset_id", "winning_outcome"].sort(),
    );
    expect(market.tokenIds).toContain(resolved!.winning_asset_id);
    conn.ws.close();
  }, 60_000);
});
