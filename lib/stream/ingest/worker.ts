// The ingest worker: Polymarket's websockets in, trades stored as they happen, the sampler loop beside them.
// - The platform-wide activity feed (RTDS) carries every trade with its wallet: each is normalised and stored the
//   sampler's way (tape.ts), so the database triggers publish it once to every stream. We subscribe to both
//   `trades` and `orders_matched` (the README lists both; users report `trades` switched off while
//   `orders_matched` kept working, real-time-data-client#42) and without server-side filters (filtered
//   subscriptions deliver nothing, #34); a fill heard twice is one row.
// - The CLOB market channel for the open markets' tokens (at most WORKER_MAX_ASSETS_PER_SOCKET per socket) gives a
//   `last_trade_price` per fill: each is matched against the activity feed, and one the feed never delivered is
//   fetched from the market's REST tape, so a dropped activity message is repaired within seconds.
// - The same channel's `price_change` frames (and `last_trade_price`, where the spread is wide) give each outcome's
//   displayed price as the book moves; they are batched into `outcomes` every PRICE_FLUSH_MS (prices.ts), so the
//   `ticks` topic is live within a second instead of once per sampler pass.
// - After any outage (close, or the watchdog's silent-socket timeout) the gap is read back from the REST tape.
// - The sampler loop keeps running as the backstop (events, prices, holders and the tape every interval).
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { startSamplerLoop } from "@/lib/sampler";
import type { SamplerSource } from "@/lib/sampler/source";
import { upstreamSource } from "@/lib/sampler/upstream-source";
import { clob, data } from "@/lib/upstream";
import { TradeV1Schema } from "@/lib/upstream/schemas";
import type { NormalizedTrade } from "@/lib/upstream/types";
import { relayToRedis, type Subscription } from "../bus";
import { ResilientSocket } from "./socket";
import { OutcomePriceBatcher, writeOutcomePrices } from "./prices";
import { fillFromTape, storeTrades } from "./tape";

const FLUSH_MS = 50;
const FLUSH_MAX = 500;
/** Outcome prices are written at most this often: one statement per batch, ticks still well within a second. */
const PRICE_FLUSH_MS = 250;
/** How long a `last_trade_price` waits for its activity twin before its market's REST tape is read. */
const MATCH_WAIT_MS = 3000;
const RECENT_MS = 30_000;
const MARKETS_REFRESH_MS = 60_000;
/** Until the first sampler pass has listed open markets there is nothing to subscribe: look again soon. */
const MARKETS_FIRST_LOOK_MS = 2_000;

export interface WorkerStats {
  trades_heard: number;
  trades_stored: number;
  gap_fills: number;
  gap_fill_trades: number;
  unfilled_gaps: number;
  missed_detected: number;
  market_fill_trades: number;
  price_frames: number;
  /** Outcome prices changed by the market channel (each one a tick on the stream). */
  prices_changed: number;
  sockets: { name: string; connects: number; reconnects: number; stalls: number; messages: number }[];
}

export interface Worker {
  stats(): WorkerStats;
  stop(): Promise<void>;
}

interface LastTrade {
  asset: string;
  conditionId: string;
  side: string;
  price: number;
  size: number;
  at: number;
}

const sameFill = (a: { side: string; price: number; size: number }, b: { side: string; price: number; size: number }) =>
  a.side === b.side && Math.abs(a.price - b.price) < 1e-9 && Math.abs(a.size - b.size) < 1e-6;

export function startWorker(options: { source?: SamplerSource; samplerIntervalS?: number } = {}): Worker {
  const source = options.source ?? upstreamSource;
  const stats: WorkerStats = {
    trades_heard: 0,
    trades_stored: 0,
    gap_fills: 0,
    gap_fill_trades: 0,
    unfilled_gaps: 0,
    missed_detected: 0,
    market_fill_trades: 0,
    price_frames: 0,
    prices_changed: 0,
    sockets: [],
  };
  const sockets: { name: string; socket: ResilientSocket; assets: Set<string> }[] = [];
  const timers: NodeJS.Timeout[] = [];
  let pending: NormalizedTrade[] = [];
  let flushing: Promise<void> = Promise.resolve();
  // Prices have their own chain: a long gap fill on the trade chain must not hold ticks back.
  const prices = new OutcomePriceBatcher();
  let pricesFlushing: Promise<void> = Promise.resolve();
  // Activity trades heard recently (for matching last_trade_price) and last trades still waiting for their twin.
  const heard = new Map<string, { side: string; price: number; size: number; at: number }[]>();
  let waiting: LastTrade[] = [];

  const flush = () => {
    if (!pending.length) return;
    const batch = pending;
    pending = [];
    flushing = flushing.then(async () => {
      try {
        stats.trades_stored += await storeTrades(await getDb(), batch);
      } catch (error) {
        // The rows are not lost to the stream: the next gap fill or sampler pass stores them from REST.
        log.warn("worker: storing heard trades failed", errorFields(error));
      }
    });
  };

  const flushPrices = () => {
    const batch = prices.take();
    if (!batch.length) return;
    pricesFlushing = pricesFlushing.then(async () => {
      try {
        stats.prices_changed += await writeOutcomePrices(await getDb(), batch);
      } catch (error) {
        // A lost batch is a late tick, not a wrong one: the next change or sampler pass writes the price again.
        log.warn("worker: storing outcome prices failed", errorFields(error));
      }
    });
  };

  const gapFill = (sinceMs: number, reason: string) => {
    flushing = flushing.then(async () => {
      const result = await fillFromTape(await getDb(), source, Math.floor(sinceMs / 1000), reason);
      stats.gap_fills++;
      stats.gap_fill_trades += result.inserted;
      if (!result.complete) stats.unfilled_gaps++;
    });
  };

  const onActivity = (message: unknown) => {
    const m = message as { topic?: string; type?: string; payload?: unknown };
    if (m.topic !== "activity" || (m.type !== "trades" && m.type !== "orders_matched")) return;
    const parsed = TradeV1Schema.safeParse(m.payload);
    if (!parsed.success) return;
    const trade = parsed.data;
    stats.trades_heard++;
    const fill = { side: trade.side, price: trade.price, size: trade.shares };
    const twin = waiting.findIndex((w) => w.asset === trade.token_id && sameFill(w, fill));
    if (twin >= 0) waiting.splice(twin, 1);
    else {
      const list = heard.get(trade.token_id) ?? [];
      list.push({ ...fill, at: Date.now() });
      heard.set(trade.token_id, list);
    }
    pending.push(trade);
    if (pending.length >= FLUSH_MAX) flush();
  };

  const onMarket = (message: unknown) => {
    // Validated like every upstream body: a frame we cannot read is skipped, never half-used.
    for (const e of clob.parseMarketWsMessage(message)) {
      if (e.type === "price_change") stats.price_frames++;
      prices.add(e);
      if (e.type !== "last_trade_price" || !e.side || e.size === null || !e.condition_id) continue;
      const fill = { side: e.side, price: e.price, size: e.size };
      const list = heard.get(e.token_id);
      const i = list ? list.findIndex((h) => sameFill(h, fill)) : -1;
      if (i >= 0) list!.splice(i, 1);
      else waiting.push({ asset: e.token_id, conditionId: e.condition_id, ...fill, at: Date.now() });
    }
  };

  // Last trades whose activity twin never came: read those markets' REST tape.
  const checkMissed = () => {
    const now = Date.now();
    const due = waiting.filter((w) => now - w.at >= MATCH_WAIT_MS);
    if (due.length) {
      waiting = waiting.filter((w) => now - w.at < MATCH_WAIT_MS);
      stats.missed_detected += due.length;
      const markets = [...new Set(due.map((d) => d.conditionId))];
      flushing = flushing.then(async () => {
        for (let i = 0; i < markets.length; i += 20) {
          try {
            const page = await data.listTrades({ market: markets.slice(i, i + 20), limit: 500, takerOnly: true });
            stats.market_fill_trades += await storeTrades(await getDb(), page.trades);
          } catch (error) {
            log.warn("worker: reading a market's tape for a missed trade failed", errorFields(error));
          }
        }
      });
    }
    for (const [asset, list] of heard) {
      const kept = list.filter((h) => now - h.at < RECENT_MS);
      if (kept.length) heard.set(asset, kept);
      else heard.delete(asset);
    }
  };

  const activity = new ResilientSocket({
    name: "activity feed",
    url: env.POLYMARKET_RTDS_URL!,
    subscribe: () => [
      JSON.stringify({
        action: "subscribe",
        subscriptions: [
          { topic: "activity", type: "trades", filters: "" },
          { topic: "activity", type: "orders_matched", filters: "" },
        ],
      }),
    ],
    onMessage: onActivity,
    onRecovered: (since) => gapFill(since, "activity feed outage"),
    // The RTDS client pings every 5 s (real-time-data-client src/client.ts).
    pingText: "PING",
    pingIntervalMs: 5000,
    watchdogMs: env.WORKER_WATCHDOG_S * 1000,
  });
  activity.start();
  sockets.push({ name: "activity feed", socket: activity, assets: new Set() });

  // Market-channel sockets for the open markets' tokens, refreshed as markets open.
  const subscribed = new Set<string>();
  const refreshMarkets = async () => {
    try {
      const db = await getDb();
      const rows = await db.$queryRawUnsafe<{ token_id: string }[]>(
        `SELECT o.token_id FROM outcomes o JOIN markets m ON m.id = o.market_id AND m.open ORDER BY m.volume_usd DESC, o.token_id`,
      );
      const fresh = rows.map((r) => r.token_id).filter((t) => !subscribed.has(t));
      while (fresh.length) {
        let target = sockets.find((s) => s.name.startsWith("market channel") && s.assets.size < env.WORKER_MAX_ASSETS_PER_SOCKET);
        const room = target ? env.WORKER_MAX_ASSETS_PER_SOCKET - target.assets.size : env.WORKER_MAX_ASSETS_PER_SOCKET;
        const batch = fresh.splice(0, room);
        for (const t of batch) subscribed.add(t);
        if (target) {
          for (const t of batch) target.assets.add(t);
          target.socket.send(JSON.stringify({ assets_ids: batch, operation: "subscribe" }));
          continue;
        }
        const assets = new Set(batch);
        const name = `market channel ${sockets.length}`;
        const socket = new ResilientSocket({
          name,
          url: env.POLYMARKET_CLOB_WS_URL!,
          // The market channel's subscribe message (docs: market-channel; rs-clob-client ws types).
          subscribe: () => [JSON.stringify({ assets_ids: [...assets], type: "market", custom_feature_enabled: true })],
          onMessage: onMarket,
          // What the activity feed missed while this socket was down is the activity feed's own gap, not ours.
          onRecovered: () => undefined,
          // rs-clob-client: text PING every 10 s.
          pingText: "PING",
          pingIntervalMs: 10_000,
          watchdogMs: env.WORKER_WATCHDOG_S * 1000,
          quietAllowed: true,
        });
        socket.start();
        target = { name, socket, assets };
        sockets.push(target);
      }
    } catch (error) {
      log.warn("worker: listing open markets failed", errorFields(error));
    }
  };
  // On a fresh database the first sampler pass is still listing markets: look again every few seconds until it has
  // (so the market channel, and with it the ticks, start right after that pass), then once a minute.
  let marketsTimer: NodeJS.Timeout | null = null;
  let stopped = false;
  const scheduleRefresh = () => {
    if (stopped) return;
    marketsTimer = setTimeout(
      () => void refreshMarkets().finally(scheduleRefresh),
      subscribed.size ? MARKETS_REFRESH_MS : MARKETS_FIRST_LOOK_MS,
    );
    marketsTimer.unref?.();
  };
  void refreshMarkets().finally(scheduleRefresh);

  timers.push(setInterval(flush, FLUSH_MS), setInterval(flushPrices, PRICE_FLUSH_MS), setInterval(checkMissed, 500));
  for (const t of timers) t.unref?.();
  const stopSampler = startSamplerLoop(options.samplerIntervalS ?? (env.SAMPLER_INTERVAL_S > 0 ? env.SAMPLER_INTERVAL_S : 60), { source });
  const relay: Subscription | null = relayToRedis();
  log.info("worker started", { rtds: env.POLYMARKET_RTDS_URL, clob_ws: env.POLYMARKET_CLOB_WS_URL, relay: relay?.kind ?? null });

  return {
    stats: () => ({ ...stats, sockets: sockets.map((s) => ({ name: s.name, ...s.socket.stats })) }),
    stop: async () => {
      for (const t of timers) clearInterval(t);
      stopped = true;
      if (marketsTimer) clearTimeout(marketsTimer);
      stopSampler();
      for (const s of sockets) s.socket.stop();
      flush();
      flushPrices();
      await Promise.all([flushing, pricesFlushing]);
      await relay?.close();
    },
  };
}
