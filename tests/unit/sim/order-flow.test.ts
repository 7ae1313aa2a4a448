// The market channel's measured order flow (reality `activeMarketShare`, `activeFramesPerS`; sim/polymarket/SOURCES.md,
// "Live feeds"): an active market's subscribed tokens each send ≈ 48 `price_change` frames a second that the service's
// parser reads, the other tokens keep one change a second at most, and a reader that stops reading is closed with 1013.
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { clob } from "@/lib/upstream";
import { isActiveMarket } from "@/sim/polymarket/order-flow";
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

  it("sends each token of an active market ≈ 48 price_change frames a second, parseable, each with a top of book", async () => {
    const markets = openMarkets().slice(0, 40);
    const active = markets.filter((m) => isActiveMarket(sim().world, m.index, 0.5));
    const quiet = markets.filter((m) => !isActiveMarket(sim().world, m.index, 0.5));
    expect(active.length, "active markets among the 40").toBeGreaterThan(5);
    expect(quiet.length, "quiet markets among the 40").toBeGreaterThan(5);
    const ws = await open(sim().clobWsUrl);
    const perToken = new Map<string, number>();
    const frames: Frame[] = [];
    let counting = false;
    ws.on("message", (raw) => {
      const text = raw.toString();
      if (!counting || !text.startsWith("{")) return;
      const frame = JSON.parse(text) as Frame;
      if (frame.event_type !== "price_change") return;
      frames.push(frame);
      for (const c of frame.price_changes as Frame[]) perToken.set(c.asset_id as string, (perToken.get(c.asset_id as string) ?? 0) + 1);
    });
    ws.send(JSON.stringify({ assets_ids: markets.flatMap((m) => [...m.tokenIds]), type: "market" }));
    // The book dump sets each token's top; count from a second later for four seconds.
    await new Promise((r) => setTimeout(r, 1000));
    counting = true;
    const seconds = 4;
    await new Promise((r) => setTimeout(r, seconds * 1000));
    counting = false;
    ws.close();
    // Poisson at 48/s over 4 s: mean 192, sd ≈ 14 per token; the bounds leave room for a loaded machine's late ticks.
    for (const m of active)
      for (const t of m.tokenIds) {
        const rate = (perToken.get(t) ?? 0) / seconds;
        expect(rate, `frames/s of active token ${t}`).toBeGreaterThan(30);
        expect(rate, `frames/s of active token ${t}`).toBeLessThan(65);
      }
    // The others: the top-of-book pass only, one change a second at most.
    for (const m of quiet)
      for (const t of m.tokenIds) expect(perToken.get(t) ?? 0, `frames of quiet token ${t}`).toBeLessThanOrEqual(seconds + 1);
    const parsed = clob.parseMarketWsFrame(frames[0]);
    expect(parsed.failures).toEqual([]);
    for (const frame of frames.slice(0, 2000)) {
      const { messages, failures } = clob.parseMarketWsFrame(frame);
      expect(failures).toEqual([]);
      const change = messages[0];
      expect(change.type).toBe("price_change");
      if (change.type !== "price_change") continue;
      const c = change.changes[0];
      expect(c.best_bid!).toBeLessThan(c.best_ask!);
    }
    const counters = (await (await fetch(`${sim().url}/__sim/ws`)).json()) as { counters: Record<string, number> };
    expect(counters.counters.order_flow_frames_emitted).toBeGreaterThan(active.length * 2 * 30 * seconds);
  }, 30_000);

  it("closes a reader that stops reading with 1013 once its send buffer passes the threshold", async () => {
    sim().setReality({ activeFramesPerS: 1000 });
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
      // Reading again, the client gets what was buffered, then the close frame and its code.
      ws.resume();
      const code = await Promise.race([closed, new Promise<number>((r) => setTimeout(() => r(-1), 20_000))]);
      ws.terminate();
      expect(code).toBe(1013);
    } finally {
      sim().setReality({ activeFramesPerS: 48 });
    }
  }, 30_000);
});
