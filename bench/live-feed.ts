// The ingest worker's market feed at scale (docs/stream.md, "Which markets the worker subscribes"; `npx tsx
// bench/live-feed.ts`, and the "live feed" section of `npm run bench`). Parts, chosen with BENCH_LIVE_PARTS
// (comma-separated; default `worker`):
// - `worker` (bench/live-worker.ts): the whole ingest worker (`npm run worker`'s startWorker, in its own process, on
//   PostgreSQL) against the simulator at ≥ 20k open markets with the measured order flow on (reality
//   `activeMarketShare`: ≈ 48 `price_change`/s per token of an active market), every open market's tokens subscribed.
//   Frames/s sent and received, the worker's CPU, RSS and event-loop delay, trade ingest lag (emit → stored), price
//   ticks (emit → stored), 1013 closes, reconnects.
// - `subs`: subscriptions at ≥ 20k markets: two bench-scale simulator worlds (seeds 1 and 2, ≈ 21k markets), each open
//   market's 24 h volume as the simulator's Gamma reports it, run through the worker's subscription rule
//   (lib/stream/ingest/subscriptions.ts, default env) with sockets that only record: tokens and sockets subscribed,
//   against subscribing every open market's tokens.
// - `frames`: the worker's market-frame path alone (JSON.parse, parseMarketWsFrame, drift counting, the displayed-price
//   fold), fed `price_change` frames at a target rate (BENCH_LIVE_FRAMES_PER_TOKEN_S, default 48 frames/s per active
//   token × BENCH_LIVE_ACTIVE_TOKENS, default 200) for BENCH_LIVE_SECONDS (default 10). No websocket, no database.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { FeedDrift } from "@/lib/stream/ingest/drift";
import { OutcomePriceBatcher } from "@/lib/stream/ingest/prices";
import { quickPriceChange } from "@/lib/stream/ingest/quick-frames";
import type { ResilientSocket } from "@/lib/stream/ingest/socket";
import { MarketSubscriptions, ruleFromEnv } from "@/lib/stream/ingest/subscriptions";
import { clob } from "@/lib/upstream";
import { buildWorld } from "@/sim/polymarket";
import { marketStats } from "@/sim/polymarket/gamma";
import { REAL_UPSTREAM } from "@/sim/polymarket/reality";

const ACTIVE_TOKENS = Number(process.env.BENCH_LIVE_ACTIVE_TOKENS ?? 200);
const PER_TOKEN_HZ = Number(process.env.BENCH_LIVE_FRAMES_PER_TOKEN_S ?? 48);
const SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 10);

function subscriptionsAt20k() {
  const now = Date.now();
  const open: { token: string; volume: number }[] = [];
  let markets = 0;
  let openMarkets = 0;
  for (const seed of [1, 2]) {
    const { world, prices, flow } = buildWorld(seed, "bench");
    const ctx = { world, prices, flow, nowMs: now, reality: REAL_UPSTREAM };
    markets += world.markets.length;
    for (const m of world.markets) {
      if (!world.isOpen(world.events[m.eventIndex])) continue;
      openMarkets++;
      const volume = marketStats(ctx, m).volume24hr;
      for (const t of m.tokenIds) open.push({ token: `${seed}:${t}`, volume });
    }
  }
  const rule = ruleFromEnv();
  const byRule = open.filter((o) => o.volume >= rule.minVolume24hUsd).sort((a, b) => b.volume - a.volume);
  let socketsOpened = 0;
  const subs = new MarketSubscriptions({
    rule,
    openSocket: () => {
      socketsOpened++;
      return { start: () => undefined, stop: () => undefined, send: () => undefined, stats: {} } as unknown as ResilientSocket;
    },
    onDropped: () => undefined,
  });
  subs.apply(byRule.slice(0, rule.maxTokens).map((o) => o.token));
  subs.stop();
  const s = subs.stats();
  return {
    markets,
    open_markets: openMarkets,
    open_tokens: open.length,
    unbounded_sockets: Math.ceil(open.length / rule.maxAssetsPerSocket),
    rule: `open, 24h volume >= $${rule.minVolume24hUsd}, <= ${rule.maxTokens} tokens, ${rule.maxAssetsPerSocket}/socket, <= ${rule.maxSockets} sockets`,
    tokens_by_rule: byRule.length,
    tokens_subscribed: s.tokens,
    sockets: s.sockets,
    sockets_opened: socketsOpened,
  };
}

/** `schema`: every frame through parseMarketWsFrame (the worker before its quick read); `quick`: the worker's path now. */
async function framePath(mode: "schema" | "quick") {
  const tokens = Array.from({ length: ACTIVE_TOKENS }, (_, i) => `${10n ** 75n + BigInt(i) * 7919n}`);
  const market = `0x${"ab".repeat(32)}`;
  const drift = new FeedDrift();
  const prices = new OutcomePriceBatcher();
  const target = ACTIVE_TOKENS * PER_TOKEN_HZ;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  let frames = 0;
  let tick = 0;
  // Every 10 ms the frames due in that slice arrive (a socket delivers in bursts); the fold is flushed every 250 ms.
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const elapsed = (performance.now() - started) / 1000;
      const due = Math.floor(elapsed * target) - frames;
      for (let i = 0; i < due; i++) {
        const token = tokens[(frames + i) % tokens.length];
        const bid = 0.3 + ((frames + i) % 40) / 100;
        const text = JSON.stringify({
          market,
          price_changes: [
            {
              asset_id: token,
              price: bid.toFixed(2),
              size: "120",
              side: "BUY",
              hash: "0".repeat(40),
              best_bid: bid.toFixed(2),
              best_ask: (bid + 0.02).toFixed(2),
            },
          ],
          timestamp: String(Date.now()),
          event_type: "price_change",
        });
        const message: unknown = JSON.parse(text);
        const quick = mode === "quick" ? quickPriceChange(message) : null;
        if (quick) {
          drift.parsed("market", "price_change");
          prices.addTops(quick);
          continue;
        }
        const frame = clob.parseMarketWsFrame(message);
        for (const m of frame.messages) {
          drift.parsed("market", m.type);
          prices.add(m);
        }
      }
      frames += Math.max(0, due);
      if (++tick % 25 === 0) prices.take();
      if (elapsed >= SECONDS) {
        clearInterval(timer);
        resolve();
      }
    }, 10);
  });
  const wall = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  delay.disable();
  return {
    target_frames_per_s: target,
    frames_per_s: Math.round(frames / wall),
    loop_delay_p99_ms: Number((delay.percentile(99) / 1e6).toFixed(1)),
    loop_delay_max_ms: Number((delay.max / 1e6).toFixed(1)),
    cpu_percent_of_one_core: Math.round(((cpu.user + cpu.system) / 1e6 / wall) * 100),
    rss_mb: Math.round(process.memoryUsage().rss / 1e6),
  };
}

async function main() {
  const parts = new Set((process.env.BENCH_LIVE_PARTS ?? "worker").split(",").filter(Boolean));
  if (parts.has("worker")) await (await import("./live-worker")).runStandalone();
  // Each in-process part after the worker's (their worlds' garbage would otherwise land in the frame path's loop delay).
  if (parts.has("subs")) console.log("subscriptions at >= 20k markets:", JSON.stringify(subscriptionsAt20k(), null, 2));
  if (parts.has("frames")) {
    // The two paths in turns, twice, so that a change in the machine's load falls on both.
    for (const mode of ["schema", "quick", "schema", "quick"] as const) {
      const path = await framePath(mode);
      console.log(
        `market-frame path (${mode}), ${SECONDS} s (machine shared with other work: upper bounds on cost):`,
        JSON.stringify(path),
      );
    }
  }
  process.exit(0);
}

if (process.argv[1]?.endsWith("live-feed.ts")) void main();
