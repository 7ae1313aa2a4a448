// The top of book and market lifecycle through the worker inside the server (docs/stream.md, "Ticks from the market
// channel", "Which markets the worker subscribes"), with the simulator's live feeds as measured (timing, maker rows):
// a trade that sweeps the book moves `/api/predmkt/live` and the stream's `ticks` to the post-trade price within a
// second; a resolved market's tokens are unsubscribed and the market is closed with its payout.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EmittedPriceChange } from "@/sim/polymarket/ws";
import { pollUntil } from "../../helpers/poll";
import { openSse, type SseClient, type SseMessage } from "../../helpers/sse";
import { type Stack, startStack } from "../../helpers/stack";

/** Polymarket's displayed price (docs: prices-orderbook): the midpoint while the spread is at most $0.10. */
const displayed = (bid: number, ask: number, last: number) => (ask - bid <= 0.1 + 1e-9 ? Math.round(((bid + ask) / 2) * 1e4) / 1e4 : last);

describe("book and lifecycle through the worker", () => {
  let stack: Stack;
  let ticks: SseClient;
  const sim = (path: string, method = "GET", body?: unknown) =>
    fetch(`${stack.sim.url}/__sim${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) }).then((r) => r.json());
  const api = (path: string) =>
    fetch(`${stack.app.url}${path}`, { headers: { authorization: `Bearer ${stack.key}` } }).then((r) => r.json());
  /** Tokens the worker has subscribed, as the simulator's market channel sees them. */
  const subscribed = async () => new Set((await sim("/ws")).subscribed_assets as string[]);
  /** Waits until the worker subscribes both tokens of this market (its set is re-read every 3 s here). */
  const awaitSubscribed = (tokens: string[]) =>
    pollUntil(subscribed, (set) => tokens.every((t) => set.has(t)), 90_000, 500, "the market's tokens subscribed");

  beforeAll(async () => {
    stack = await startStack({
      chains: false,
      env: { WORKER_IN_SERVER: "true", SAMPLER_INTERVAL_S: "3600", WORKER_SUBSCRIPTIONS_REFRESH_S: "3" },
    });
    stack.sim.setReality({ rtdsTiming: true, rtdsMakerRows: true, rtdsEarlyShare: 0.77, checksumWallets: true });
    await pollUntil(
      () => api("/api/predmkt/trades?limit=1"),
      (b) => Boolean(b.meta?.as_of),
      120_000,
      500,
      "the worker's first pass",
    );
    await pollUntil(subscribed, (set) => set.size > 0, 30_000, 200, "market-channel subscriptions");
    ticks = await openSse(`${stack.app.url}/api/predmkt/stream?api_key=${stack.key}&topics=ticks`);
    expect(ticks.status).toBe(200);
  }, 180_000);
  afterAll(async () => {
    ticks?.close();
    await stack?.stop();
  });

  it("moves /live and the ticks topic to the post-trade price within a second of a sweep's book", async () => {
    const busiest = stack.sim.summary().samples.busiest_markets[0];
    const market = stack.sim.world.markets.find((m) => m.id === busiest.id)!;
    await awaitSubscribed(market.tokenIds);
    // Far enough ahead that all the fill's messages are still to come (its match is up to 6 s before its block).
    const at = Math.floor(Date.now() / 1000) + 8;
    stack.sim.burst(1, { atSec: at, spreadSec: 1, market: market.index, sweep: true });
    const fill = stack.sim.flow
      .query({ markets: [market.index], takerOnly: true, since: at, until: at, need: 1000 })
      .find((t) => t.kind === 2)!;
    const tx = stack.sim.flow.txHash(fill);
    const asset = market.tokenIds[fill.outcome];
    const book = await pollUntil(
      async () => ((await sim("/ws/emitted")).price_changes as EmittedPriceChange[]).find((c) => c.after_tx === tx),
      Boolean,
      30_000,
      50,
      "the book after the sweep",
    );
    const lastTrade = fill.levels!.at(-1)!.price;
    const price = displayed(Number(book!.best_bid), Number(book!.best_ask), lastTrade);
    // The worker folds the market channel's frames into the newest price per token every 250 ms
    // (lib/stream/ingest/prices.ts): a change of this token's top right after the sweep's book supersedes it within
    // the same batch, and the stream and /live then show that price, not the sweep's. So the prices this token's top
    // showed from the sweep's book through the second the test allows all count; the time is taken from the book.
    const postTrade = async () =>
      new Set([
        price,
        ...((await sim("/ws/emitted")).price_changes as EmittedPriceChange[])
          .filter((c) => c.asset_id === asset && c.emitted_at_ms >= book!.emitted_at_ms && c.emitted_at_ms <= book!.emitted_at_ms + 1000)
          .map((c) => displayed(Number(c.best_bid), Number(c.best_ask), lastTrade)),
      ]);
    const ticksOfAsset = () =>
      ticks.messages.filter((m) => m.event === "tick" && m.data.token_id === asset && m.receivedAt >= book!.emitted_at_ms);
    // The tick on the stream, and /live: each must show the post-trade price within a second of the book.
    const found = { tick: 0, live: 0 };
    await Promise.all([
      pollUntil(
        async () => {
          const prices = await postTrade();
          return ticksOfAsset().find((m) => prices.has(m.data.price as number))?.receivedAt ?? 0;
        },
        (at) => at > 0 && (found.tick = at) > 0,
        10_000,
        100,
        `a tick at the post-trade price (${price}) for the swept token`,
      ),
      pollUntil(
        async () => {
          const body = await api("/api/predmkt/live?limit=100");
          const at = Date.now();
          const shown = (body.data as { token_id: string; price: number }[]).find((t) => t.token_id === asset)?.price;
          return shown !== undefined && (await postTrade()).has(shown) ? at : 0;
        },
        (at) => at > 0 && (found.live = at) > 0,
        10_000,
        50,
        "/live at the post-trade price",
      ),
    ]);
    const tickMs = found.tick - book!.emitted_at_ms;
    const liveMs = found.live - book!.emitted_at_ms;
    console.log(
      `sweep (${fill.side} ${fill.levels!.map((l) => `${l.size}@${l.price}`).join(" + ")}): book → tick ${tickMs} ms, book → /live ${liveMs} ms`,
    );
    expect(tickMs).toBeLessThan(1000);
    expect(liveMs).toBeLessThan(1000);
  }, 120_000);

  it("unsubscribes a resolved market's tokens and streams its payout as ticks", async () => {
    // A busy market the worker subscribes (not the one the sweep moved).
    const target = stack.sim.world.markets.find((m) => m.id === stack.sim.summary().samples.busiest_markets[1].id)!;
    await awaitSubscribed(target.tokenIds);
    const resolved = (await sim("/resolve", "POST", { market: target.id })) as { winner: string };
    const winner = target.outcomes.indexOf(resolved.winner);
    // Both tokens leave the market channel.
    await pollUntil(
      subscribed,
      (set) => target.tokenIds.every((t) => !set.has(t)),
      15_000,
      100,
      "the resolved market's tokens unsubscribed",
    );
    // The market is closed and its outcomes priced at the payout at once (sampled answers show it from the next pass;
    // the stream's ticks now): 1 for the winner, 0 for the other.
    const payout = (m: SseMessage, i: number) =>
      m.event === "tick" && m.data.token_id === target.tokenIds[i] && m.data.price === (i === winner ? 1 : 0);
    await ticks.waitFor((messages) => [0, 1].every((i) => messages.some((m) => payout(m, i))), 15_000, "the payout ticks");
  }, 120_000);
});
