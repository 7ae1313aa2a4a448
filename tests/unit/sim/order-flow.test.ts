// The market channel's measured order flow (reality `activeMarketShare`, `activeFramesPerS`; sim/polymarket/SOURCES.md,
// "Live feeds"): an active market sends 2 × 48 `price_change` frames a second (≈ 48 per token averaged over its two
// tokens, as the note measured over 8 tokens), each one order carrying both tokens' entries (mirror prices and sides,
// the level's total size, never "0" at the announced top) that the service's parser reads; the other markets keep one
// change a second at most; every reader gets the same frames; a reader that stops reading is closed with 1013.
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { clob } from "@/lib/upstream";
import { isActiveMarket, OrderFlow } from "@/sim/polymarket/order-flow";
import { simulatorForTests } from "./helpers";
import { pollUntil } from "@/tests/helpers/poll";

type Frame = Record<string, unknown>;

async function open(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url);
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  return ws;
}

describe("simulated market-channel order flow", () => {
  const sim = simulatorForTests({
    seed: 7,
    scale: "demo",
    reality: { activeMarketShare: 0.5, activeFramesPerS: 48, slowConsumerClose: true },
  });
  const openMarkets = () => sim().world.markets.filter((m) => sim().world.isOpen(sim().world.events[m.eventIndex]));

  it("sends each active market ≈ 96 price_change frames a second, each one order on both tokens, parseable", async () => {
    const markets = openMarkets().slice(0, 40);
    const active = markets.filter((m) => isActiveMarket(sim().world, m.index, 0.5));
    const quiet = markets.filter((m) => !isActiveMarket(sim().world, m.index, 0.5));
    expect(active.length, "active markets among the 40").toBeGreaterThan(5);
    expect(quiet.length, "quiet markets among the 40").toBeGreaterThan(5);
    const ws = await open(sim().clobWsUrl);
    const perMarket = new Map<string, number>();
    const frames: Frame[] = [];
    let counting = false;
    ws.on("message", (raw) => {
      const text = raw.toString();
      if (!counting || !text.startsWith("{")) return;
      const frame = JSON.parse(text) as Frame;
      if (frame.event_type !== "price_change") return;
      frames.push(frame);
      perMarket.set(frame.market as string, (perMarket.get(frame.market as string) ?? 0) + 1);
    });
    ws.send(JSON.stringify({ assets_ids: markets.flatMap((m) => [...m.tokenIds]), type: "market" }));
    // The book dump sets each token's top; count from a second later for four seconds.
    await new Promise((r) => setTimeout(r, 1000));
    counting = true;
    const seconds = 4;
    await new Promise((r) => setTimeout(r, seconds * 1000));
    counting = false;
    ws.close();
    // Poisson at 96/s over 4 s: mean 384, sd ≈ 20 per market; the bounds leave room for a loaded machine's late ticks.
    for (const m of active) {
      const rate = (perMarket.get(m.conditionId) ?? 0) / seconds;
      expect(rate, `frames/s of active market ${m.index}`).toBeGreaterThan(60);
      expect(rate, `frames/s of active market ${m.index}`).toBeLessThan(130);
    }
    // The others: the top-of-book pass only, one change a second at most.
    for (const m of quiet) expect(perMarket.get(m.conditionId) ?? 0, `frames of quiet market ${m.index}`).toBeLessThanOrEqual(seconds + 1);
    const byCondition = new Map(active.map((m) => [m.conditionId, m]));
    // Order-flow frames, not the top-of-book pass's (whose hashes start with the market index and second, in hex).
    const flow = frames.filter(
      (f) => byCondition.has(f.market as string) && ((f.price_changes as Frame[])[0].hash as string).startsWith("0000000000"),
    );
    expect(flow.length, "order-flow frames").toBeGreaterThan(active.length * 60 * seconds);
    for (const frame of flow.slice(0, 2000)) {
      const { messages, failures } = clob.parseMarketWsFrame(frame);
      expect(failures).toEqual([]);
      const change = messages[0];
      expect(change.type).toBe("price_change");
      if (change.type !== "price_change") continue;
      expect(change.changes.length, "entries of one order").toBe(2);
      const [a, b] = change.changes;
      const market = byCondition.get(frame.market as string)!;
      expect(new Set([a.token_id, b.token_id])).toEqual(new Set(market.tokenIds));
      // The other token's entry is the mirror: 1 − price, the other side, the same level total, the mirrored top.
      expect(a.price + b.price).toBeCloseTo(1, 9);
      expect(a.side).not.toBe(b.side);
      expect(a.size).toBe(b.size);
      expect(a.best_bid! + b.best_ask!).toBeCloseTo(1, 9);
      expect(a.best_bid!).toBeLessThan(a.best_ask!);
      // The best level is never announced empty while best_bid/best_ask stay on it.
      for (const c of [a, b]) {
        const atTop = c.side === "BUY" ? c.price === c.best_bid : c.price === c.best_ask;
        if (atTop) expect(c.size, "size at the top level").toBeGreaterThan(0);
        expect(c.side === "BUY" ? c.price <= c.best_bid! : c.price >= c.best_ask!, "a resting order, not a crossing one").toBe(true);
      }
    }
    const counters = (await (await fetch(`${sim().url}/__sim/ws`)).json()) as { counters: Record<string, number> };
    expect(counters.counters.order_flow_frames_emitted).toBeGreaterThan(active.length * 60 * seconds);
  }, 30_000);

  it("sends every reader the same frames, each size the level's total after the order", () => {
    const market = openMarkets().find((m) => isActiveMarket(sim().world, m.index, 0.5))!;
    const flow = new OrderFlow(sim().world);
    // Two readers, one per token: one book, the same frames to both.
    const readers = market.tokenIds.map((t) => ({ assets: new Set([t]), assetsVersion: 0 }));
    let top = { bid: 0.41, ask: 0.43, tick: 0.01 };
    const tops = (asset: string) => (asset === market.tokenIds[0] ? top : { bid: 1 - top.ask, ask: 1 - top.bid, tick: top.tick });
    const announced = new Map<string, string>();
    let frames = 0;
    for (let tick = 0; tick < 200; tick++) {
      // Halfway the top moves a tick up: the book re-anchors on it.
      if (tick === 100) top = { bid: 0.42, ask: 0.44, tick: 0.01 };
      const got: string[][] = [[], []];
      readers.forEach((r, i) => flow.emit(r, 0.5, 48, 100, 1_000_000 + tick * 100, tops, (text) => got[i].push(text)));
      expect(got[1]).toEqual(got[0]);
      frames += got[0].length;
      for (const text of got[0]) {
        const first = (JSON.parse(text) as { price_changes: Frame[] }).price_changes.find((c) => c.asset_id === market.tokenIds[0])!;
        announced.set(`${first.side as string}|${first.price as string}`, first.size as string);
      }
    }
    // 2 × 48/s for 20 s: mean 1,920, sd ≈ 44.
    expect(frames).toBeGreaterThan(1700);
    expect(frames).toBeLessThan(2150);
    // The last size announced for each level of the first token is what the book holds there.
    const checked = [...announced].filter(([key]) => {
      const [side, p] = key.split("|");
      return side === "BUY" ? Number(p) <= top.bid && Number(p) > top.bid - 0.05 : Number(p) >= top.ask && Number(p) < top.ask + 0.05;
    });
    expect(checked.length, "levels of the final book announced").toBe(10);
    for (const [key, size] of checked) {
      const [side, p] = key.split("|");
      expect(String(flow.levelSize(market.index, side as "BUY" | "SELL", Number(p))), key).toBe(size);
    }
  });

  it("closes a reader that stops reading with 1013 once its send buffer passes the threshold", async () => {
    // 200 × 2 frames a second per active market (≈ 800 markets): the buffer fills within a tick or two.
    sim().setReality({ activeFramesPerS: 200 });
    try {
      const ws = await open(sim().clobWsUrl);
      const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
      ws.send(JSON.stringify({ assets_ids: openMarkets().flatMap((m) => [...m.tokenIds]), type: "market" }));
      // Stop reading: the simulator's unsent bytes pile up until it cuts the socket.
      ws.pause();
      await pollUntil(
        async () => ((await (await fetch(`${sim().url}/__sim/ws`)).json()) as { counters: Record<string, number> }).counters,
        (c) => c.slow_consumer_closes >= 1,
        20_000,
        100,
        "the slow-consumer close counted",
      );
      // Back to the usual rate before reading again: at 200 frames/s the simulator, which runs in this process, keeps
      // the event loop busy enough on a loaded machine that the client drains too slowly to hear the close in time.
      sim().setReality({ activeFramesPerS: 48 });
      // Reading again, the client gets what was buffered, then the close frame and its code.
      ws.resume();
      const code = await Promise.race([closed, new Promise<number>((r) => setTimeout(() => r(-1), 20_000))]);
      ws.terminate();
      expect(code).toBe(1013);
    } finally {
      sim().setReality({ activeFramesPerS: 48 });
    }
  }, 60_000);
});
