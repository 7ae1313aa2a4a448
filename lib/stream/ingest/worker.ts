// The ingest worker: Polymarket's websockets in, trades stored as they happen, the sampler loop beside them
// (docs/stream.md; the upstream behaviours it relies on: docs/upstream-live.md).
// - The platform-wide activity feed (RTDS): only `orders_matched`, one row per matched transaction, the taker's.
//   RTDS `trades` also carries every maker fill (like the Data API's `taker_only=false`): storing it counted two to
//   three rows per real fill and showed passive makers as traders on the wrong outcome. Each row is normalised and
//   stored the sampler's way (tape.ts) under the fill's cross-source identity, so the database triggers publish it
//   once to every stream. No server-side filters (filtered subscriptions deliver nothing, real-time-data-client#34).
// - The CLOB market channel for the subscribed tokens (a bounded, pruned set: subscriptions.ts) gives a
//   `last_trade_price` per settling transaction: each is matched to its activity row by transaction hash, and one the
//   feed never delivered is read back from its market's REST tape (cache-busted, retried until the Data API shows it).
// - A fill in a market outside that set has no `last_trade_price` to reveal a dropped activity row: the whole REST tape
//   is swept (fresh) every TAPE_SWEEP_MS, so such a fill is stored within the sweep interval plus the Data API's lag
//   instead of at the next sampler pass (up to SAMPLER_INTERVAL_S, an hour).
// - The same channel's `price_change`, `book` (after trades) and `best_bid_ask` frames give each outcome's displayed
//   price; they are batched into `outcomes` every PRICE_FLUSH_MS (prices.ts), so `ticks` are live within a second.
//   `market_resolved` closes the market, prices its outcomes at the payout and drops its tokens; `new_market` lists
//   the market and subscribes its tokens at once (lifecycle.ts).
// - Every message is counted as parsed, failed or ignored per feed and type (drift.ts): drift is loud.
// - After any outage (close, or the watchdog's silent-socket timeout) the gap is read back from the REST tape.
// - The sampler loop keeps running as the backstop (events, prices, holders and the tape every interval).
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { metrics } from "@/lib/metrics/registry";
import { startSamplerLoop } from "@/lib/sampler";
import type { SamplerSource } from "@/lib/sampler/source";
import { upstreamSource } from "@/lib/sampler/upstream-source";
import { clob, data } from "@/lib/upstream";
import { TRADE_LIST_LAG_MS } from "@/lib/upstream/data";
import { TradeV1Schema } from "@/lib/upstream/schemas";
import type { NormalizedTrade, NormalizedWsMessage } from "@/lib/upstream/types";
import { relayToRedis, type Subscription } from "../bus";
import { FeedDrift } from "./drift";
import { OutcomePriceBatcher, writeOutcomePrices } from "./prices";
import { ResilientSocket } from "./socket";
import { MarketSubscriptions } from "./subscriptions";
import { storeNewMarket, storeResolution } from "./lifecycle";
import { quickPriceChange } from "./quick-frames";
import { fillFromTape, storeTrades } from "./tape";

const FLUSH_MS = 50;
const FLUSH_MAX = 500;
/** Outcome prices are written at most this often: one statement per batch, ticks still well within a second. */
const PRICE_FLUSH_MS = 250;
/**
 * How long a `last_trade_price` waits for its activity row before it is taken as missed: RTDS `orders_matched`
 * arrives at p90 2.6–2.9 s after the match, `last_trade_price` 0.1 s after it (docs/upstream-live.md).
 */
export const MATCH_WAIT_MS = 6_000;
/** A missed fill's market tape is read again this often until the Data API shows the fill (5–9 s after its block). */
const REPAIR_RETRY_MS = 3_000;
/** ...and given up (counted, logged) this long after the match: the block plus the REST lag, twice over. */
export const REPAIR_GIVE_UP_MS = 45_000;
const RECENT_MS = 60_000;
/**
 * The whole tape is read back this often (docs/stream.md): one fresh Data API request a sweep at Polymarket's rate
 * (a sweep reads from TRADE_LIST_LAG_MS before the previous one began, about 20 s of fills).
 */
export const TAPE_SWEEP_MS = 10_000;
const FEED_HEALTH_PUBLISH_MS = 5_000;

export interface WorkerStats {
  trades_heard: number;
  trades_stored: number;
  /** RTDS rows of other types (`trades` carries maker fills): never stored. */
  rtds_rows_skipped: number;
  gap_fills: number;
  gap_fill_trades: number;
  unfilled_gaps: number;
  /** Sweeps of the whole REST tape, and the fills they stored that neither feed had delivered. */
  tape_sweeps: number;
  tape_sweep_trades: number;
  /** Last trades matched to their activity row by transaction hash. */
  matched_by_tx: number;
  /** Last trades without a transaction hash (cannot be matched). */
  last_trades_without_tx: number;
  missed_detected: number;
  missed_repaired: number;
  missed_unrepaired: number;
  market_fill_trades: number;
  price_frames: number;
  book_frames: number;
  /** Outcome prices changed by the market channel (each one a tick on the stream). */
  prices_changed: number;
  markets_resolved: number;
  new_markets: number;
  /** New markets listed from their `new_market` message (the rest were listed already). */
  new_markets_listed: number;
  subscriptions: ReturnType<MarketSubscriptions["stats"]>;
  sockets: { name: string; connects: number; reconnects: number; stalls: number; messages: number }[];
}

export interface Worker {
  stats(): WorkerStats;
  drift: FeedDrift;
  subscriptions: MarketSubscriptions;
  stop(): Promise<void>;
}

interface Missed {
  conditionId: string;
  atMs: number;
  count: number;
  nextTryMs: number;
  detected: boolean;
}

export function startWorker(options: { source?: SamplerSource; samplerIntervalS?: number } = {}): Worker {
  const source = options.source ?? upstreamSource;
  const stats = {
    trades_heard: 0,
    trades_stored: 0,
    rtds_rows_skipped: 0,
    gap_fills: 0,
    gap_fill_trades: 0,
    unfilled_gaps: 0,
    tape_sweeps: 0,
    tape_sweep_trades: 0,
    matched_by_tx: 0,
    last_trades_without_tx: 0,
    missed_detected: 0,
    missed_repaired: 0,
    missed_unrepaired: 0,
    market_fill_trades: 0,
    price_frames: 0,
    book_frames: 0,
    prices_changed: 0,
    markets_resolved: 0,
    new_markets: 0,
    new_markets_listed: 0,
  };
  const drift = new FeedDrift();
  const timers: NodeJS.Timeout[] = [];
  let pending: NormalizedTrade[] = [];
  let flushing: Promise<void> = Promise.resolve();
  // Prices have their own chain: a long gap fill on the trade chain must not hold ticks back.
  const prices = new OutcomePriceBatcher();
  let pricesFlushing: Promise<void> = Promise.resolve();
  // Transactions heard on the activity feed (count, when) and last trades still waiting for theirs, by tx hash.
  const heard = new Map<string, { count: number; atMs: number }>();
  const waiting = new Map<string, Missed>();
  let repairing = false;

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

  // The tape sweep has its own chain: a slow Data API answer must not hold back the heard trades' flushes. Concurrent
  // writes of one fill are one row (the idempotent writer), published once.
  let sweeping: Promise<void> | null = null;
  let sweptFromMs = Date.now();
  const sweepTape = () => {
    if (sweeping) return;
    const startedMs = Date.now();
    // A fill shows on the tape at most TRADE_LIST_LAG_MS after its block (docs/upstream-live.md, "Fresh Data API
    // reads"): the previous sweep had every fill up to that long before it began; read on from there.
    const sinceS = Math.floor((sweptFromMs - TRADE_LIST_LAG_MS) / 1000);
    sweeping = (async () => {
      try {
        const result = await fillFromTape(await getDb(), source, sinceS, "tape sweep", { recordComplete: false });
        stats.tape_sweeps++;
        stats.tape_sweep_trades += result.inserted;
        if (!result.complete) stats.unfilled_gaps++;
        if (result.inserted > 0) log.info("worker: tape sweep stored fills the feeds had not delivered", { trades: result.inserted });
      } catch (error) {
        log.warn("worker: tape sweep failed", errorFields(error));
      }
      // An incomplete walk is recorded as a gap (tape.ts); the next sweep goes on from here either way.
      sweptFromMs = startedMs;
    })().finally(() => {
      sweeping = null;
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
    const m = message as { topic?: unknown; type?: unknown; payload?: unknown };
    if (m.topic !== "activity") {
      if (typeof m.topic === "string") drift.ignored("rtds", m.topic);
      return;
    }
    const type = typeof m.type === "string" ? m.type : "(no type)";
    if (type !== "orders_matched") {
      // `trades` rows (taker and makers) if the upstream sends them unasked: never stored as trades.
      stats.rtds_rows_skipped++;
      drift.ignored("rtds", type);
      return;
    }
    const parsed = TradeV1Schema.safeParse(m.payload);
    if (!parsed.success) {
      drift.failed("rtds", type, parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; "), m.payload);
      return;
    }
    drift.parsed("rtds", type);
    const trade = parsed.data;
    stats.trades_heard++;
    if (trade.tx_hash) {
      const twin = waiting.get(trade.tx_hash);
      if (twin) {
        stats.matched_by_tx++;
        if (--twin.count <= 0) waiting.delete(trade.tx_hash);
      } else {
        const h = heard.get(trade.tx_hash);
        if (h) h.count++;
        else heard.set(trade.tx_hash, { count: 1, atMs: Date.now() });
      }
    }
    pending.push(trade);
    if (pending.length >= FLUSH_MAX) flush();
  };

  const onLastTrade = (e: Extract<NormalizedWsMessage, { type: "last_trade_price" }>) => {
    if (!e.tx_hash || !e.condition_id) {
      stats.last_trades_without_tx++;
      return;
    }
    const h = heard.get(e.tx_hash);
    if (h) {
      stats.matched_by_tx++;
      if (--h.count <= 0) heard.delete(e.tx_hash);
      return;
    }
    const w = waiting.get(e.tx_hash);
    if (w) w.count++;
    else {
      const now = Date.now();
      waiting.set(e.tx_hash, { conditionId: e.condition_id, atMs: now, count: 1, nextTryMs: now + MATCH_WAIT_MS, detected: false });
    }
  };

  const subscriptions = new MarketSubscriptions({
    openSocket: (name, assets, custom, onClose) => {
      const socket = new ResilientSocket({
        name,
        url: env.POLYMARKET_CLOB_WS_URL!,
        // The market channel's subscribe message (docs: market-channel). Custom features (`best_bid_ask`,
        // `new_market`, `market_resolved`) on one socket only: `new_market` comes for every market on every socket
        // that asks for it.
        subscribe: () => (assets.size ? [JSON.stringify({ assets_ids: [...assets], type: "market", custom_feature_enabled: custom })] : []),
        onMessage: onMarket,
        // What the activity feed missed while this socket was down is the activity feed's own gap, not ours.
        onRecovered: () => undefined,
        // rs-clob-client: text PING every 10 s.
        pingText: "PING",
        pingIntervalMs: 10_000,
        watchdogMs: env.WORKER_WATCHDOG_S * 1000,
        quietAllowed: true,
        onClose: (code) => {
          metrics().workerSocketCloses.inc({ feed: "market", code: String(code) });
          onClose(code);
        },
      });
      return socket;
    },
    onDropped: (tokens) => {
      for (const t of tokens) prices.forget(t);
    },
  });

  function onMarket(message: unknown) {
    // The commonest frame, read without the schema when it plainly fits it (quick-frames.ts).
    const quick = quickPriceChange(message);
    if (quick) {
      drift.parsed("market", "price_change");
      stats.price_frames++;
      prices.addTops(quick);
      return;
    }
    const frame = clob.parseMarketWsFrame(message);
    for (const f of frame.failures) drift.failed("market", f.type, f.reason, f.sample);
    for (const type of frame.ignored) drift.ignored("market", type);
    for (const e of frame.messages) {
      drift.parsed("market", e.type);
      switch (e.type) {
        case "price_change":
          stats.price_frames++;
          prices.add(e);
          break;
        case "book":
        case "best_bid_ask":
          stats.book_frames++;
          prices.add(e);
          break;
        case "last_trade_price":
          prices.add(e);
          onLastTrade(e);
          break;
        case "new_market":
          stats.new_markets++;
          subscriptions.addNewMarket(e.condition_id, e.token_ids);
          void onNewMarket(e);
          break;
        case "market_resolved":
          stats.markets_resolved++;
          subscriptions.dropMarket(e.condition_id, e.token_ids);
          void onResolved(e);
          break;
        case "tick_size_change":
          // Prices are stored as sent; the tick size only changes how finely they move.
          break;
      }
    }
  }

  // Both are written on the price chain: a resolution's payout must not be overtaken by a book frame's price.
  const onNewMarket = (e: Extract<NormalizedWsMessage, { type: "new_market" }>) => {
    pricesFlushing = pricesFlushing.then(async () => {
      try {
        if (await storeNewMarket(await getDb(), e)) stats.new_markets_listed++;
      } catch (error) {
        log.warn("worker: listing a new market failed", { condition_id: e.condition_id, ...errorFields(error) });
      }
    });
  };

  const onResolved = (e: Extract<NormalizedWsMessage, { type: "market_resolved" }>) => {
    for (const t of e.token_ids) prices.forget(t);
    pricesFlushing = pricesFlushing.then(async () => {
      try {
        stats.prices_changed += await storeResolution(await getDb(), e);
      } catch (error) {
        log.warn("worker: storing a market's resolution failed", { condition_id: e.condition_id, ...errorFields(error) });
      }
    });
  };

  // Last trades whose activity row never came: read their markets' REST tape (fresh) until the fill shows there.
  const checkMissed = () => {
    const now = Date.now();
    for (const [tx, h] of heard) if (now - h.atMs >= RECENT_MS) heard.delete(tx);
    if (repairing) return;
    const due = [...waiting.entries()].filter(([, w]) => w.nextTryMs <= now);
    if (!due.length) return;
    for (const [tx, w] of due) {
      if (!w.detected) {
        w.detected = true;
        stats.missed_detected++;
      }
      if (now - w.atMs >= REPAIR_GIVE_UP_MS) {
        waiting.delete(tx);
        stats.missed_unrepaired++;
        log.warn("worker: a fill the activity feed missed never showed on the REST tape", { tx_hash: tx, condition_id: w.conditionId });
      }
    }
    const live = due.filter(([tx]) => waiting.has(tx));
    if (!live.length) return;
    const markets = [...new Set(live.map(([, w]) => w.conditionId))];
    repairing = true;
    flushing = flushing
      .then(async () => {
        for (let i = 0; i < markets.length; i += 20) {
          try {
            const page = await data.listTrades({ market: markets.slice(i, i + 20), limit: 500, takerOnly: true }, { fresh: true });
            stats.market_fill_trades += await storeTrades(await getDb(), page.trades);
            for (const t of page.trades) {
              if (t.tx_hash && waiting.delete(t.tx_hash)) stats.missed_repaired++;
            }
          } catch (error) {
            log.warn("worker: reading a market's tape for a missed trade failed", errorFields(error));
          }
        }
        const next = Date.now() + REPAIR_RETRY_MS;
        for (const [tx] of live) {
          const w = waiting.get(tx);
          if (w) w.nextTryMs = next;
        }
      })
      .finally(() => {
        repairing = false;
      });
  };

  const activity = new ResilientSocket({
    name: "activity feed",
    url: env.POLYMARKET_RTDS_URL!,
    subscribe: () => [JSON.stringify({ action: "subscribe", subscriptions: [{ topic: "activity", type: "orders_matched", filters: "" }] })],
    onMessage: onActivity,
    onRecovered: (since) => gapFill(since, "activity feed outage"),
    // The RTDS client pings every 5 s (real-time-data-client src/client.ts).
    pingText: "PING",
    pingIntervalMs: 5000,
    watchdogMs: env.WORKER_WATCHDOG_S * 1000,
    onClose: (code) => metrics().workerSocketCloses.inc({ feed: "rtds", code: String(code) }),
  });
  activity.start();
  metrics().workerSockets.set({ feed: "rtds" }, 1);

  const publishHealth = async () => {
    try {
      await drift.publish(await getDb());
    } catch (error) {
      log.warn("worker: publishing feed health failed", errorFields(error));
    }
  };

  timers.push(
    setInterval(flush, FLUSH_MS),
    setInterval(flushPrices, PRICE_FLUSH_MS),
    setInterval(checkMissed, 500),
    setInterval(sweepTape, TAPE_SWEEP_MS),
    setInterval(() => void publishHealth(), FEED_HEALTH_PUBLISH_MS),
  );
  for (const t of timers) t.unref?.();
  subscriptions.start();
  const stopSampler = startSamplerLoop(options.samplerIntervalS ?? (env.SAMPLER_INTERVAL_S > 0 ? env.SAMPLER_INTERVAL_S : 60), { source });
  const relay: Subscription | null = relayToRedis();
  log.info("worker started", { rtds: env.POLYMARKET_RTDS_URL, clob_ws: env.POLYMARKET_CLOB_WS_URL, relay: relay?.kind ?? null });

  return {
    drift,
    subscriptions,
    stats: () => ({
      ...stats,
      subscriptions: subscriptions.stats(),
      sockets: [{ name: "activity feed", ...activity.stats }, ...subscriptions.socketStats()],
    }),
    stop: async () => {
      for (const t of timers) clearInterval(t);
      subscriptions.stop();
      stopSampler();
      activity.stop();
      flush();
      flushPrices();
      await Promise.all([flushing, pricesFlushing, sweeping]);
      await publishHealth();
      await relay?.close();
    },
  };
}
