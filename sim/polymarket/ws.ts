// Polymarket's websockets, simulated on the same server (sources in README.md, "Websockets"):
// - `/ws/market` — the CLOB market channel (wss://ws-subscriptions-clob.polymarket.com/ws/market): subscribe with
//   `{"assets_ids":[…],"type":"market"}` (later `{"assets_ids":[…],"operation":"subscribe"|"unsubscribe"}`), get a
//   `book` per asset (as one JSON array, the initial dump, levels best last), then `price_change` (batched
//   `price_changes[]` format), `tick_size_change`, and per trade `last_trade_price` and both tokens' `book`;
//   custom-feature sockets add `best_bid_ask`, `new_market`, `market_resolved`; text `PING` is answered with `PONG`.
// - `/rtds` — the real-time data socket (wss://ws-live-data.polymarket.com): `{"action":"subscribe","subscriptions":
//   [{"topic":"activity","type":"trades"|"orders_matched"|"*","filters":"{\"event_slug\":…}"}]}`; every trade as
//   `{topic, type, timestamp, payload, connection_id}` with the Data API's camelCase trade as payload; `ping`/`PING`
//   answered with an empty text frame.
// Trades are emitted when their second begins, which is also when the Data API's REST tape starts to show them, so a
// client that misses messages can always find them there. The faults users report are switchable at /__sim/ws:
// a silent stall with the socket open (messages stop, pings are still answered: real-time-data-client#35, #42),
// dropped messages (#42: "lots of missed events"), and disconnects. Counters say what was emitted, sent and dropped.
import { createHash } from "node:crypto";
import type http from "node:http";
import type { Duplex } from "node:stream";
import { getAddress } from "viem";
import { WebSocket, WebSocketServer } from "ws";
import { tradeV1 } from "./data-api";
import { compareTrades, type Trade, tradeKey } from "./flow";
import type { SimContext, SimResponse } from "./http-types";
import { makerCrossShare, makerFills } from "./makers";
import { OrderFlow } from "./order-flow";
import { decimalString, round } from "./prices";
import { gauss, rand } from "./random";

export interface WsFaults {
  /** Stop sending data messages on every open socket (the socket stays open). */
  stall: boolean;
  /** While stalled, stop answering pings too. */
  stall_pings: boolean;
  /** Drop this many of the next data messages (per channel message, counted across sockets). */
  drop_next: number;
  /** Drop each data message with this probability. */
  drop_rate: number;
  /** Refuse new connections until this time (ms). */
  refuse_until: number;
  /** Limit drops to one channel ("market" or "rtds"); null = both. */
  drop_channel: "market" | "rtds" | null;
  /**
   * Feed drift: RTDS payloads carry this field under another name (`{from, to}`), as an upstream rename would; null =
   * none. The worker must count such messages as failures and report the feed unhealthy (docs/stream.md).
   */
  rename_rtds_field: { from: string; to: string } | null;
  /**
   * Every RTDS connection falls silent this many seconds after it opened (no data; the socket stays open and pings
   * are still answered, ours) until the client connects again; null = never. The research note (§6.2) saw RTDS go
   * silent after 6 minutes on a connection that never pinged (reality `rtdsSilentWithoutPingS`); users report a
   * silence with pings working "after ~20–30 minutes" (real-time-data-client#35), which this fault plays, at the
   * caller's delay, whatever the client sends.
   */
  rtds_silent_after_s: number | null;
}

interface Client {
  socket: WebSocket;
  channel: "market" | "rtds";
  assets: Set<string>;
  /** Bumped on every change of `assets` (order-flow.ts rebuilds the client's active tokens). */
  assetsVersion: number;
  /** Market channel: asked for custom features (`best_bid_ask`, `new_market`, `market_resolved`). */
  custom: boolean;
  /** RTDS subscriptions: activity types and optional filters. */
  activity: { type: string; eventSlug?: string; marketSlug?: string }[];
  connectionId: string;
  /** Wall-clock ms of the connection and of its last ping (RTDS silence: reality `rtdsSilentWithoutPingS`, faults). */
  openedAtMs: number;
  lastPingMs: number;
}

export interface EmittedTrade {
  key: string;
  /** The RTDS payload as sent (the Data API's camelCase trade). */
  payload: Record<string, unknown>;
  emitted_at_ms: number;
}

export interface EmittedPriceChange {
  asset_id: string;
  best_bid: string;
  best_ask: string;
  emitted_at_ms: number;
  /** A `book` after a trade: that trade's transaction hash. */
  after_tx?: string;
}

const RECENT_LIMIT = 20_000;
const SALT_RTDS_EARLY = 960;
/**
 * A market-channel reader whose unsent bytes pass this is closed with 1013 "slow consumer: send buffer full"
 * (reality `slowConsumerClose`; research note §6.1, SOURCES.md "Live feeds"). The threshold is ours: the note gives
 * the close, not the buffer size.
 */
export const SLOW_CONSUMER_BYTES = 4 * 1024 * 1024;
/** When a trade's messages go out, in ms (reality `rtdsTiming`; SOURCES.md, "Live feeds"). */
export interface FeedTiming {
  /** The CLOB's match; the block (the trade's `timestamp`) follows it. */
  matchMs: number;
  /** `last_trade_price`, then `book` (and `best_bid_ask`), on the market channel. */
  lastTradeMs: number;
  /** RTDS `orders_matched` (the taker's row). */
  ordersMatchedMs: number;
  /** RTDS `trades` (the taker's and the makers' rows). */
  tradesMs: number;
}

/** Bounds of the drawn delays, so the emission loop knows how far around a block second to look. */
export const MATCH_BEFORE_BLOCK_MAX_MS = 6_000;
export const RTDS_AFTER_MATCH_MAX_MS = 8_000;
const SALT_TIMING = 963;

/** A log-normal delay with this median and 90th percentile, from a standard normal draw, within bounds. */
const delayMs = (median: number, p90: number, z: number, min: number, max: number) =>
  Math.min(max, Math.max(min, median * Math.exp((Math.log(p90 / median) / 1.2816) * z)));

/**
 * With `rtdsTiming`, the research note's timeline (§1, §6.1, §6.2, session 2): the block comes 2.2 s after the match
 * (p90 2.9 s), `last_trade_price` 0.09 s after it (p90 0.22 s), RTDS `orders_matched` 1.9 s after it (p90 2.6 s) and
 * `trades` 0.2 s after `orders_matched`. Without it, everything at the start of the block's second.
 */
export function feedTiming(ctx: SimContext, t: Trade): FeedTiming {
  const blockMs = t.timestamp * 1000;
  if (!ctx.reality.rtdsTiming) return { matchMs: blockMs, lastTradeMs: blockMs, ordersMatchedMs: blockMs, tradesMs: blockMs };
  const z = (k: number) => gauss(ctx.world.seed, SALT_TIMING + k, t.kind * 1_000_003 + t.a, t.b, t.c * 64 + t.fill);
  const matchMs = blockMs - Math.round(delayMs(2200, 2900, z(0), 800, MATCH_BEFORE_BLOCK_MAX_MS));
  const ordersMatchedMs = matchMs + Math.round(delayMs(1900, 2600, z(2), 800, RTDS_AFTER_MATCH_MAX_MS - 200));
  return {
    matchMs,
    lastTradeMs: matchMs + Math.round(delayMs(90, 220, z(1), 20, 1500)),
    ordersMatchedMs,
    tradesMs: ordersMatchedMs + 200,
  };
}

function marketOfToken(ctx: SimContext, asset: string) {
  const code = ctx.world.tokenLookup.get(asset);
  return code === undefined ? null : { market: ctx.world.markets[code >> 1], outcome: code & 1 };
}

/** Book depth the market channel's `book` carries per side (ours: the real one is the whole book). */
const BOOK_LEVELS = 3;

/**
 * A `book` frame around a top of book. Levels come as the real channel sends them, best last: bids ascending, asks
 * descending (a captured frame in nautilus_trader `ws_book_snapshot_captured.json`; docs realtime-data "API" example;
 * docs prices-order-books: "the best bid and ask are the last entries"). `hash` summarises the content (40 hex, no
 * `0x`, as captured), so it changes when the book does.
 */
function bookFrame(conditionId: string, asset: string, bid: number, ask: number, tick: number, nowMs: number) {
  const bids: { price: string; size: string }[] = [];
  const asks: { price: string; size: string }[] = [];
  for (let i = BOOK_LEVELS - 1; i >= 0; i--) {
    const b = round(bid - i * tick, 3);
    const a = round(ask + i * tick, 3);
    if (b > 0) bids.push({ price: decimalString(b, 3), size: String(100 * (i + 1)) });
    if (a < 1) asks.push({ price: decimalString(a, 3), size: String(100 * (i + 1)) });
  }
  const hash = createHash("sha1")
    .update(`${asset}|${JSON.stringify(bids)}|${JSON.stringify(asks)}`)
    .digest("hex");
  return { event_type: "book", asset_id: asset, market: conditionId, bids, asks, timestamp: String(nowMs), hash };
}

/** A book's best bid and ask (the last level of each side). */
function topOf(book: { bids: { price: string }[]; asks: { price: string }[] }) {
  return { bid: book.bids.at(-1)?.price ?? "0", ask: book.asks.at(-1)?.price ?? "1" };
}

function bestBidAskText(conditionId: string, asset: string, bid: string, ask: string, nowMs: number): string {
  return JSON.stringify({
    event_type: "best_bid_ask",
    market: conditionId,
    asset_id: asset,
    best_bid: bid,
    best_ask: ask,
    spread: decimalString(Number(ask) - Number(bid), 3),
    timestamp: String(nowMs),
  });
}

export interface SimWebsockets {
  handleUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): boolean;
  control(method: string, path: string, body: unknown): SimResponse | null;
  close(): void;
}

export function startWebsockets(context: () => SimContext, options: { tickMs?: number } = {}): SimWebsockets {
  const wss = new WebSocketServer({ noServer: true });
  const clients = new Set<Client>();
  const faults: WsFaults = {
    stall: false,
    stall_pings: false,
    drop_next: 0,
    drop_rate: 0,
    refuse_until: 0,
    drop_channel: null,
    rename_rtds_field: null,
    rtds_silent_after_s: null,
  };
  const counters = {
    trades_emitted: 0,
    maker_rows_emitted: 0,
    slow_consumer_closes: 0,
    lifecycle_emitted: 0,
    tick_size_changes_emitted: 0,
    price_changes_emitted: 0,
    /** `price_change` frames of the active order flow (reality `activeMarketShare`; order-flow.ts). */
    order_flow_frames_emitted: 0,
    messages_sent: 0,
    messages_dropped: 0,
    messages_stalled: 0,
    /** RTDS data messages not sent to a connection that had fallen silent (reality `rtdsSilentWithoutPingS`, faults). */
    messages_silenced: 0,
    connections: 0,
    disconnects: 0,
  };
  const recent: EmittedTrade[] = [];
  const recentPriceChanges: EmittedPriceChange[] = [];
  const recordTop = (asset: string, bestBid: string, bestAsk: string, atMs: number, afterTx?: string) => {
    recentPriceChanges.push({
      asset_id: asset,
      best_bid: bestBid,
      best_ask: bestAsk,
      emitted_at_ms: atMs,
      ...(afterTx ? { after_tx: afterTx } : {}),
    });
    if (recentPriceChanges.length > RECENT_LIMIT) recentPriceChanges.splice(0, recentPriceChanges.length - RECENT_LIMIT);
  };
  let nextConnection = 1;

  // ------------------------------------------------------------------------------------------------ emission
  let lastSecond = Math.floor(context().nowMs / 1000);
  let minuteCache: { minute: number; bursts: number; trades: Trade[] } | null = null;
  const quotes = new Map<string, string>();
  /** The tick each subscribed token was last priced on (a `book` or a `price_change` pass). */
  const ticks = new Map<string, number>();

  const tradesOfMinute = (ctx: SimContext, minute: number): Trade[] => {
    // A burst added since (a test injecting fills into the current minute) makes the cached minute stale.
    if (minuteCache?.minute !== minute || minuteCache.bursts !== ctx.flow.burstCount) {
      const trades = ctx.flow.query({
        markets: null,
        takerOnly: true,
        until: minute * 60 + 59,
        since: minute * 60,
        need: Number.MAX_SAFE_INTEGER,
      });
      minuteCache = { minute, bursts: ctx.flow.burstCount, trades: trades.sort((a, b) => -compareTrades(a, b)) };
    }
    return minuteCache.trades;
  };

  /** reality `slowConsumerClose`, read once a tick (deliver runs for every frame of the order flow). */
  let slowConsumerClose = context().reality.slowConsumerClose;
  let silentWithoutPingS = context().reality.rtdsSilentWithoutPingS;
  /**
   * An RTDS connection that sends no data any more (the socket stays open, pings are answered). The note saw only a
   * connection that never pinged go silent; counting from the last ping, data returning after a later ping and the
   * answered pings are ours.
   */
  const rtdsSilent = (client: Client) => {
    const now = Date.now();
    if (faults.rtds_silent_after_s !== null && now - client.openedAtMs >= faults.rtds_silent_after_s * 1000) return true;
    return silentWithoutPingS > 0 && now - client.lastPingMs >= silentWithoutPingS * 1000;
  };
  const deliver = (client: Client, text: string) => {
    if (client.socket.readyState !== WebSocket.OPEN) return;
    if (faults.stall) {
      counters.messages_stalled++;
      return;
    }
    if (client.channel === "rtds" && rtdsSilent(client)) {
      counters.messages_silenced++;
      return;
    }
    const droppable = faults.drop_channel === null || faults.drop_channel === client.channel;
    if (droppable && faults.drop_next > 0) {
      faults.drop_next--;
      counters.messages_dropped++;
      return;
    }
    if (droppable && faults.drop_rate > 0 && Math.random() < faults.drop_rate) {
      counters.messages_dropped++;
      return;
    }
    if (client.channel === "market" && slowConsumerClose && client.socket.bufferedAmount > SLOW_CONSUMER_BYTES) {
      counters.slow_consumer_closes++;
      client.socket.close(1013, "slow consumer: send buffer full");
      return;
    }
    counters.messages_sent++;
    client.socket.send(text);
  };

  /** A trade as RTDS sends it: the Data API's row, stamped a second early and in checksum case where reality says so. */
  const rtdsPayload = (ctx: SimContext, t: Trade): Record<string, unknown> => {
    const payload = tradeV1(ctx, t);
    const salt = t.kind * 1_000_003 + t.a;
    if (ctx.reality.rtdsEarlyShare > 0 && rand(ctx.world.seed, SALT_RTDS_EARLY, salt, t.b, t.c, t.fill) < ctx.reality.rtdsEarlyShare)
      payload.timestamp = t.timestamp - 1;
    if (ctx.reality.checksumWallets) payload.proxyWallet = getAddress(payload.proxyWallet as string);
    const rename = faults.rename_rtds_field;
    if (rename && rename.from in payload) {
      payload[rename.to] = payload[rename.from];
      delete payload[rename.from];
    }
    return payload;
  };

  // A trade's market-channel messages: `last_trade_price` (one per transaction, the taker's token, side and size, at
  // the last level it touched: research note §6.1), then the book as it stands after the trade (docs: market-channel,
  // `book`: "when there is a trade that affects the book") of both outcome tokens — a binary market's two books
  // mirror each other, so one trade changes both (research note §6.1: 3,328 `book` for 1,658 `last_trade_price` on
  // 8 tokens, both tokens of each market subscribed) — and, on custom-feature sockets, each book's `best_bid_ask`.
  const emitLastTrade = (ctx: SimContext, t: Trade, nowMs: number) => {
    const market = ctx.world.markets[t.market];
    const asset = market.tokenIds[t.outcome];
    const lastTrade = JSON.stringify({
      asset_id: asset,
      event_type: "last_trade_price",
      fee_rate_bps: "0",
      market: market.conditionId,
      price: String(t.levels ? t.levels[t.levels.length - 1].price : t.price),
      side: t.side,
      size: String(t.size),
      timestamp: String(nowMs),
      transaction_hash: ctx.flow.txHash(t),
    });
    for (const client of clients) if (client.channel === "market" && client.assets.has(asset)) deliver(client, lastTrade);
    // The traded token's book first, then its mirror.
    for (const token of [asset, ...market.tokenIds.filter((a) => a !== asset)]) {
      if (![...clients].some((c) => c.channel === "market" && c.assets.has(token))) continue;
      const book = bookMessage(ctx, token, t);
      if (!book) continue;
      const top = topOf(book);
      // The top of book it carries is a change the market channel emitted, like a price_change's (`/ws/emitted`).
      recordTop(token, top.bid, top.ask, nowMs, ctx.flow.txHash(t));
      const bookText = JSON.stringify(book);
      const bestText = bestBidAskText(market.conditionId, token, top.bid, top.ask, nowMs);
      for (const client of clients) {
        if (client.channel !== "market" || !client.assets.has(token)) continue;
        deliver(client, bookText);
        if (client.custom) deliver(client, bestText);
      }
    }
  };

  // A trade's RTDS rows of one type. With maker rows on, each subscribed type is its own message stream:
  // `orders_matched` the taker's row, `trades` the taker's and every maker's (SOURCES.md, "Live feeds").
  const emitActivity = (ctx: SimContext, t: Trade, type: "orders_matched" | "trades", nowMs: number) => {
    const market = ctx.world.markets[t.market];
    const event = ctx.world.events[market.eventIndex];
    const payload = rtdsPayload(ctx, t);
    if (type === "orders_matched") {
      counters.trades_emitted++;
      recent.push({ key: tradeKey(t), payload, emitted_at_ms: nowMs });
      if (recent.length > RECENT_LIMIT) recent.splice(0, recent.length - RECENT_LIMIT);
    }
    let makers: Record<string, unknown>[] | null = null;
    const makerPayloads = () => (makers ??= makerFills(ctx.world, t, makerCrossShare(ctx.reality)).map((m) => rtdsPayload(ctx, m)));
    for (const client of clients) {
      if (client.channel !== "rtds") continue;
      const types = new Set<string>();
      for (const sub of client.activity) {
        if (sub.eventSlug && sub.eventSlug !== event.slug) continue;
        if (sub.marketSlug && sub.marketSlug !== market.slug) continue;
        if (sub.type === "*") types.add("trades").add("orders_matched");
        else types.add(sub.type);
      }
      if (!ctx.reality.rtdsMakerRows) {
        // The plain world: one row per trade, under the first type the client asked for, sent once.
        const first = client.activity.find(
          (sub) => (!sub.eventSlug || sub.eventSlug === event.slug) && (!sub.marketSlug || sub.marketSlug === market.slug),
        );
        if (!first || type !== "orders_matched") continue;
        const as = first.type === "*" ? "trades" : first.type;
        deliver(client, JSON.stringify({ topic: "activity", type: as, timestamp: nowMs, payload, connection_id: client.connectionId }));
        continue;
      }
      if (!types.has(type)) continue;
      const send = (p: Record<string, unknown>) =>
        deliver(client, JSON.stringify({ topic: "activity", type, timestamp: nowMs, payload: p, connection_id: client.connectionId }));
      send(payload);
      if (type === "trades") {
        for (const m of makerPayloads()) {
          counters.maker_rows_emitted++;
          send(m);
        }
      }
    }
  };

  // Every message of the trades whose instants (feedTiming) fall in (fromMs, nowMs], in time order.
  const emitTradesDue = (ctx: SimContext, fromMs: number, nowMs: number) => {
    const timed = ctx.reality.rtdsTiming;
    const firstSec = Math.floor(fromMs / 1000) - (timed ? Math.ceil(RTDS_AFTER_MATCH_MAX_MS / 1000) : 0);
    const lastSec = Math.floor(nowMs / 1000) + (timed ? Math.ceil(MATCH_BEFORE_BLOCK_MAX_MS / 1000) : 0);
    const due: { at: number; order: number; t: Trade; what: "last_trade" | "orders_matched" | "trades" }[] = [];
    for (let minute = Math.floor(firstSec / 60); minute <= Math.floor(lastSec / 60); minute++) {
      for (const t of tradesOfMinute(ctx, minute)) {
        if (t.timestamp < firstSec || t.timestamp > lastSec) continue;
        const at = feedTiming(ctx, t);
        const add = (ms: number, order: number, what: (typeof due)[number]["what"]) => {
          if (ms > fromMs && ms <= nowMs) due.push({ at: ms, order, t, what });
        };
        add(at.lastTradeMs, 0, "last_trade");
        add(at.ordersMatchedMs, 1, "orders_matched");
        add(at.tradesMs, 2, "trades");
      }
    }
    due.sort((x, y) => x.at - y.at || x.order - y.order);
    for (const e of due) {
      if (e.what === "last_trade") emitLastTrade(ctx, e.t, timed ? e.at : nowMs);
      else emitActivity(ctx, e.t, e.what, timed ? e.at : nowMs);
    }
  };

  // Top of book per subscribed asset, compared once a tick: a change is one `price_change` per market.
  const emitPriceChanges = (ctx: SimContext, nowMs: number) => {
    const subscribed = new Set<string>();
    for (const c of clients) if (c.channel === "market") for (const a of c.assets) subscribed.add(a);
    const byMarket = new Map<string, Record<string, string>[]>();
    const nowSec = Math.floor(nowMs / 1000);
    for (const asset of subscribed) {
      const found = marketOfToken(ctx, asset);
      if (!found) continue;
      const { market, outcome } = found;
      const q = ctx.prices.quote(market, outcome, nowSec);
      // The tick follows the price across 0.04 / 0.96 (docs: market-channel, `tick_size_change`), announced before
      // the change that prices on the new tick.
      const oldTick = ticks.get(asset);
      ticks.set(asset, q.tick);
      if (oldTick !== undefined && oldTick !== q.tick) {
        const text = JSON.stringify({
          event_type: "tick_size_change",
          asset_id: asset,
          market: market.conditionId,
          old_tick_size: String(oldTick),
          new_tick_size: String(q.tick),
          timestamp: String(nowMs),
        });
        counters.tick_size_changes_emitted++;
        for (const c of clients) if (c.channel === "market" && c.assets.has(asset)) deliver(c, text);
      }
      const key = `${q.bid}|${q.ask}`;
      if (quotes.get(asset) === key) continue;
      const first = !quotes.has(asset);
      quotes.set(asset, key);
      if (first) continue;
      const list = byMarket.get(market.conditionId) ?? [];
      list.push({
        asset_id: asset,
        price: decimalString(q.bid, 3),
        size: String(Math.round(100 + ((nowSec * 7919 + market.index) % 5000))),
        side: "BUY",
        hash: `${market.index.toString(16)}${nowSec.toString(16)}${outcome}`.padEnd(40, "0").slice(0, 40),
        best_bid: decimalString(q.bid, 3),
        best_ask: decimalString(q.ask, 3),
      });
      byMarket.set(market.conditionId, list);
    }
    for (const [conditionId, changes] of byMarket) {
      for (const ch of changes) {
        counters.price_changes_emitted++;
        recentPriceChanges.push({ asset_id: ch.asset_id, best_bid: ch.best_bid, best_ask: ch.best_ask, emitted_at_ms: nowMs });
      }
      if (recentPriceChanges.length > RECENT_LIMIT) recentPriceChanges.splice(0, recentPriceChanges.length - RECENT_LIMIT);
      const text = JSON.stringify({ market: conditionId, price_changes: changes, timestamp: String(nowMs), event_type: "price_change" });
      // A custom-feature socket also hears `best_bid_ask` for each token whose top moved (docs: market-channel,
      // `best_bid_ask`: "when the best bid and ask prices for a market change").
      const best = changes.map((ch) => ({
        asset: ch.asset_id,
        text: bestBidAskText(conditionId, ch.asset_id, ch.best_bid, ch.best_ask, nowMs),
      }));
      for (const c of clients) {
        if (c.channel !== "market" || !changes.some((ch) => c.assets.has(ch.asset_id))) continue;
        deliver(c, text);
        if (c.custom) for (const b of best) if (c.assets.has(b.asset)) deliver(c, b.text);
      }
    }
  };

  // Custom-feature sockets hear of every market created (`new_market`) and resolved (`market_resolved`), subscribed or
  // not (docs: market-channel, custom features; research note §6.1: `new_market` for all markets).
  const emitLifecycle = (ctx: SimContext, fromSec: number, nowSec: number) => {
    const custom = [...clients].filter((c) => c.channel === "market" && c.custom);
    if (!custom.length) return;
    for (const market of ctx.world.markets) {
      const created = market.startSec >= fromSec && market.startSec <= nowSec;
      const resolved = market.closedSec >= fromSec && market.closedSec <= nowSec;
      if (!created && !resolved) continue;
      let text: string;
      if (resolved) {
        // Only the fields every source shows (docs market-channel API example, Polymarket's SDK `MarketResolvedPayload`):
        // no question, slug or outcomes, which the older docs table listed and the current example does not carry.
        const yesWins = market.winner !== null ? market.winner === 0 : ctx.prices.quote(market, 0, market.closedSec).bid >= 0.5;
        text = JSON.stringify({
          event_type: "market_resolved",
          id: market.id,
          market: market.conditionId,
          assets_ids: market.tokenIds,
          winning_asset_id: market.tokenIds[yesWins ? 0 : 1],
          winning_outcome: market.outcomes[yesWins ? 0 : 1],
          timestamp: String(ctx.nowMs),
        });
      } else {
        // The market's event rides along (shared reference §4.4: `event_message{id, ticker, slug, title, description}`).
        const event = ctx.world.events[market.eventIndex];
        text = JSON.stringify({
          event_type: "new_market",
          id: market.id,
          question: market.question,
          market: market.conditionId,
          slug: market.slug,
          assets_ids: market.tokenIds,
          outcomes: market.outcomes,
          timestamp: String(ctx.nowMs),
          description: event.description,
          event_message: { id: event.id, ticker: event.slug, slug: event.slug, title: event.title, description: event.description },
        });
      }
      counters.lifecycle_emitted++;
      for (const c of custom) deliver(c, text);
    }
  };

  // The measured order flow (reality `activeMarketShare`): frames due since the last tick, by the wall clock (a load).
  const orderFlow = new OrderFlow(context().world);
  let lastFlowMs = performance.now();
  const emitOrderFlow = (ctx: SimContext) => {
    const wallMs = performance.now();
    const dtMs = Math.min(1000, wallMs - lastFlowMs);
    lastFlowMs = wallMs;
    const { activeMarketShare: share, activeFramesPerS: hz } = ctx.reality;
    if (share <= 0 || hz <= 0) return;
    const top = (asset: string) => {
      const quote = quotes.get(asset);
      if (!quote) return null;
      const [bid, ask] = quote.split("|").map(Number);
      return { bid, ask, tick: ticks.get(asset) ?? 0.01 };
    };
    const before = orderFlow.frames;
    for (const c of clients) if (c.channel === "market") orderFlow.emit(c, share, hz, dtMs, ctx.nowMs, top, (text) => deliver(c, text));
    counters.order_flow_frames_emitted += orderFlow.frames - before;
  };

  let lastTickMs = context().nowMs;
  const tick = () => {
    const ctx = context();
    const nowMs = ctx.nowMs;
    slowConsumerClose = ctx.reality.slowConsumerClose;
    silentWithoutPingS = ctx.reality.rtdsSilentWithoutPingS;
    const nowSec = Math.floor(nowMs / 1000);
    // Nothing is emitted while nobody listens (and the world's tape costs nothing to skip).
    if (clients.size === 0) {
      lastSecond = nowSec;
      lastTickMs = nowMs;
      return;
    }
    if (nowMs > lastTickMs) {
      // Never replay more than a minute after a long pause (a frozen test clock moved far ahead).
      emitTradesDue(ctx, Math.max(lastTickMs, nowMs - 60_000), nowMs);
      lastTickMs = nowMs;
    }
    if (nowSec > lastSecond) {
      emitLifecycle(ctx, Math.max(lastSecond + 1, nowSec - 60), nowSec);
      lastSecond = nowSec;
      emitPriceChanges(ctx, ctx.nowMs);
    }
    emitOrderFlow(ctx);
  };
  const timer = setInterval(tick, options.tickMs ?? 100);
  timer.unref?.();

  // ------------------------------------------------------------------------------------------------ protocol
  /**
   * The book of one asset as it stands: the quote now, or after `trade` when one just swept levels of its market (the
   * levels it emptied are gone: a BUY leaves its last level as the best ask, a SELL as the best bid; the other
   * outcome's book is the mirror, its bids 1 − the traded book's asks).
   */
  const bookMessage = (ctx: SimContext, asset: string, trade?: Trade) => {
    const found = marketOfToken(ctx, asset);
    if (!found) return null;
    const { market, outcome } = found;
    const nowSec = Math.floor(ctx.nowMs / 1000);
    const q = ctx.prices.quote(market, outcome, nowSec);
    quotes.set(asset, `${q.bid}|${q.ask}`);
    // Only a token's first tick: a change is announced by the price-change pass (`tick_size_change`), never skipped.
    if (!ticks.has(asset)) ticks.set(asset, q.tick);
    let { bid, ask } = q;
    const last = trade?.market === market.index ? trade.levels?.at(-1)?.price : undefined;
    if (last !== undefined) {
      // The traded token's top after the sweep, then seen from this token.
      const tq = ctx.prices.quote(market, trade!.outcome, nowSec);
      let tBid = tq.bid;
      let tAsk = tq.ask;
      if (trade!.side === "BUY") {
        tAsk = Math.max(tAsk, last);
        tBid = Math.min(tBid, round(tAsk - tq.tick, 3));
      } else {
        tBid = Math.min(tBid, last);
        tAsk = Math.max(tAsk, round(tBid + tq.tick, 3));
      }
      [bid, ask] = trade!.outcome === outcome ? [tBid, tAsk] : [round(1 - tAsk, 3), round(1 - tBid, 3)];
    }
    return bookFrame(market.conditionId, asset, bid, ask, q.tick, ctx.nowMs);
  };

  const onMessage = (client: Client, raw: string) => {
    const text = raw.trim();
    if (/^ping$/i.test(text)) {
      client.lastPingMs = Date.now();
      if (faults.stall && faults.stall_pings) return;
      // The market channel answers PING with PONG (docs: realtime-data, "API"); RTDS with an empty text frame (research
      // note §6.2: `""`; the RTDS client skips empty frames).
      client.socket.send(client.channel === "rtds" ? "" : text === "PING" ? "PONG" : "pong");
      return;
    }
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // The real server answers garbage with a plain-text error and keeps the socket.
      client.socket.send("INVALID OPERATION");
      return;
    }
    if (client.channel === "market") {
      const assets = Array.isArray(message.assets_ids) ? message.assets_ids.filter((a): a is string => typeof a === "string") : [];
      client.assetsVersion++;
      if (message.operation === "unsubscribe") {
        for (const a of assets) client.assets.delete(a);
        return;
      }
      if (message.custom_feature_enabled === true) client.custom = true;
      for (const a of assets) client.assets.add(a);
      const ctx = context();
      const books = assets.map((a) => bookMessage(ctx, a)).filter((b) => b !== null);
      if (books.length && message.initial_dump !== false) {
        deliver(client, JSON.stringify(books));
        // A subscription's snapshot is a top of book the channel emitted too (`/ws/emitted`): a reader that had a
        // price for the token before (a resubscription) may move it from here.
        for (const b of books) {
          const top = topOf(b);
          recordTop(b.asset_id, top.bid, top.ask, ctx.nowMs);
        }
      }
      return;
    }
    const subs = Array.isArray(message.subscriptions) ? (message.subscriptions as Record<string, unknown>[]) : [];
    for (const sub of subs) {
      if (sub.topic !== "activity") continue;
      const type = typeof sub.type === "string" ? sub.type : "";
      if (!["trades", "orders_matched", "*"].includes(type)) continue;
      let filters: Record<string, unknown> = {};
      if (typeof sub.filters === "string" && sub.filters.trim()) {
        try {
          filters = JSON.parse(sub.filters) as Record<string, unknown>;
        } catch {
          continue;
        }
      }
      const entry = {
        type,
        eventSlug: typeof filters.event_slug === "string" ? filters.event_slug : undefined,
        marketSlug: typeof filters.market_slug === "string" ? filters.market_slug : undefined,
      };
      if (message.action === "unsubscribe") client.activity = client.activity.filter((a) => a.type !== type);
      else if (message.action === "subscribe") client.activity.push(entry);
    }
  };

  wss.on("connection", (socket: WebSocket, channel: "market" | "rtds") => {
    const client: Client = {
      socket,
      channel,
      assets: new Set(),
      assetsVersion: 0,
      custom: false,
      activity: [],
      connectionId: `sim${nextConnection++}`,
      openedAtMs: Date.now(),
      lastPingMs: Date.now(),
    };
    clients.add(client);
    counters.connections++;
    socket.on("message", (data) => onMessage(client, (data as Buffer).toString()));
    socket.on("close", () => clients.delete(client));
    socket.on("error", () => clients.delete(client));
  });

  const disconnectAll = () => {
    for (const c of clients) {
      counters.disconnects++;
      c.socket.terminate();
    }
    clients.clear();
  };

  return {
    handleUpgrade(req, socket, head) {
      const path = new URL(req.url ?? "/", "http://sim.local").pathname;
      const channel = path === "/ws/market" ? "market" : path === "/rtds" || path === "/rtds/" ? "rtds" : null;
      if (!channel) return false;
      if (Date.now() < faults.refuse_until) {
        socket.end("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n");
        return true;
      }
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, channel));
      return true;
    },
    control(method, path, body) {
      if (!path.startsWith("/ws")) return null;
      if (path === "/ws" && method === "GET") {
        return {
          status: 200,
          body: {
            faults,
            counters: { ...counters, open_sockets: clients.size },
            clients: [...clients].map((c) => ({ channel: c.channel, assets: c.assets.size, activity: c.activity.length })),
            // Every token some market-channel client subscribes (tests wait for theirs).
            subscribed_assets: [...new Set([...clients].filter((c) => c.channel === "market").flatMap((c) => [...c.assets]))],
          },
        };
      }
      if (path === "/ws/emitted" && method === "GET") return { status: 200, body: { trades: recent, price_changes: recentPriceChanges } };
      if (path === "/ws/faults" && method === "POST") {
        const f = (body ?? {}) as Partial<WsFaults> & { disconnect?: boolean; refuse_ms?: number };
        if (f.stall !== undefined) faults.stall = Boolean(f.stall);
        if (f.stall_pings !== undefined) faults.stall_pings = Boolean(f.stall_pings);
        if (typeof f.drop_next === "number" && f.drop_next >= 0) faults.drop_next = Math.floor(f.drop_next);
        if (typeof f.drop_rate === "number" && f.drop_rate >= 0 && f.drop_rate <= 1) faults.drop_rate = f.drop_rate;
        if (typeof f.refuse_ms === "number" && f.refuse_ms >= 0) faults.refuse_until = Date.now() + f.refuse_ms;
        if (f.drop_channel !== undefined)
          faults.drop_channel = f.drop_channel === "market" || f.drop_channel === "rtds" ? f.drop_channel : null;
        if (f.rename_rtds_field !== undefined) {
          const r = f.rename_rtds_field as { from?: unknown; to?: unknown } | null;
          faults.rename_rtds_field = r && typeof r.from === "string" && typeof r.to === "string" ? { from: r.from, to: r.to } : null;
        }
        if (f.rtds_silent_after_s !== undefined)
          faults.rtds_silent_after_s =
            typeof f.rtds_silent_after_s === "number" && f.rtds_silent_after_s >= 0 ? f.rtds_silent_after_s : null;
        if (f.disconnect) disconnectAll();
        return { status: 200, body: { ok: true, faults } };
      }
      if (path === "/ws/faults" && method === "DELETE") {
        Object.assign(faults, {
          stall: false,
          stall_pings: false,
          drop_next: 0,
          drop_rate: 0,
          refuse_until: 0,
          drop_channel: null,
          rename_rtds_field: null,
          rtds_silent_after_s: null,
        });
        return { status: 200, body: { ok: true, faults } };
      }
      if (path === "/ws/counters" && method === "DELETE") {
        for (const k of Object.keys(counters) as (keyof typeof counters)[]) counters[k] = 0;
        recent.length = 0;
        recentPriceChanges.length = 0;
        return { status: 200, body: { ok: true } };
      }
      return { status: 404, body: { error: `unknown control endpoint ${method} /__sim${path}` } };
    },
    close() {
      clearInterval(timer);
      disconnectAll();
      wss.close();
    },
  };
}
