// The market channel's order flow at the measured rate (reality `activeMarketShare`, `activeFramesPerS`; a third
// party's measurement, so a switch: SOURCES.md, "Live feeds"). The research note (§6.1, §2) counted 229,256
// `price_change` frames in 10 minutes for the 8 tokens of 4 short crypto markets (the BTC 5-minute market in its window
// and the next 3): ≈ 48 frames/s per token averaged over those 8 tokens, ≈ 96 per market; it gives no per-token or
// per-market figure. The docs say a `price_change` goes out "when a new order is placed or an order is cancelled", and
// their example (market channel, the September 2025 format) shows one order as one frame whose `price_changes` carries
// both tokens of the market. What we assume (ours): every active market is as busy as those 4, one order or cancel
// per frame, so an active market sends 2 × `activeFramesPerS` frames a second, Poisson, each with both tokens' entries.
// Without the switch the simulator sends one `price_change` per market per second, and only when a top moves (ws.ts).
// - Which markets are active is ours (no source gives the share): a market is active when a seeded draw falls under
//   `activeMarketShare`.
// - The channel is level-2 data: an entry's `size` is the level's new total, "0" when the level is gone. Each active
//   market keeps a book of the five levels nearest the top a side (ours), on the first token; the second token's
//   entry is its mirror (a BUY at p on one token is a SELL at 1 − p on the other, as in the docs example and ws.ts's
//   books). An order adds to a level, a cancel (a third of the frames, ours) takes one resting order's size from it.
// - Only the quote-change pass (ws.ts) moves the top: a cancel never empties the best level (it takes half of it at
//   most, ours), so `best_bid`/`best_ask` stay the top the channel last announced and never sit on a level sent as
//   "0". When that top moves, the book is re-anchored on it (levels that crossed or fell out of the five dropped,
//   missing ones filled) without frames of its own.
// - The book and the frames are the market's, the same for every reader: drawn once a tick, sent to each reader that
//   subscribed either token, one message each, through the same delivery as every other message (faults, drops, and
//   the 1013 close of a reader whose send buffer passes SLOW_CONSUMER_BYTES).
import { decimalString } from "./prices";
import { poisson, rand } from "./random";
import type { World } from "./world";

/**
 * Research note §6.1: 229,256 `price_change` in 600 s for 8 tokens, ≈ 48 frames/s per token averaged over the 8 tokens
 * of 4 short crypto markets (the open one and the next 3).
 */
export const ACTIVE_PRICE_CHANGE_HZ = 48;
const SALT_ACTIVE = 970;
/** Levels on each side an order may land on (ours). */
export const ORDER_FLOW_LEVELS = 5;
/** Share of the frames that cancel an order (ours). */
const CANCEL_SHARE = 1 / 3;
/** Largest order (shares, ours). */
const MAX_ORDER = 5000;

/** Whether a market sends the active order flow (seeded, so every run picks the same markets). */
export function isActiveMarket(world: World, marketIndex: number, share: number): boolean {
  return share > 0 && rand(world.seed, SALT_ACTIVE, marketIndex) < share;
}

interface FlowClient {
  assets: Set<string>;
  /** Bumped on every subscribe and unsubscribe: the client's active list is rebuilt. */
  assetsVersion: number;
}

interface Top {
  bid: number;
  ask: number;
  tick: number;
}

/** One active market's book on its first token, prices in thousandths, each level's total size. */
interface Book {
  bid: number;
  ask: number;
  tick: number;
  bids: Map<number, number>;
  asks: Map<number, number>;
}

/** One market's orders of the current tick: 4 numbers each (price, size, flags, hash number), texts built per send. */
interface TickOrders {
  market: ActiveMarket;
  yes: string;
  no: string;
  stamp: string;
  orders: number[];
}

interface ActiveMarket {
  index: number;
  head: string;
  tokens: [string, string];
}

/**
 * Frames one market draws in one tick at most: a late tick (the event loop behind) does not snowball into a longer
 * one. 400 = two tokens × the 200 the per-token draw stopped at before frames carried both tokens (ours).
 */
const MAX_FRAMES_PER_TICK = 400;

/** Poisson, capped; past λ = 50 the normal approximation (inversion underflows for large λ). */
function poissonDraw(lambda: number): number {
  if (lambda <= 50) return Math.min(MAX_FRAMES_PER_TICK, poisson(lambda, Math.random()));
  const z = Math.sqrt(-2 * Math.log(1 - Math.random())) * Math.cos(2 * Math.PI * Math.random());
  return Math.min(MAX_FRAMES_PER_TICK, Math.max(0, Math.round(lambda + Math.sqrt(lambda) * z)));
}

const milli = (x: number) => Math.round(x * 1000);
/** Price strings by thousandths. */
const PRICES = Array.from({ length: 1001 }, (_, m) => decimalString(m / 1000, 3));
const hash = (n: number) => n.toString(16).padStart(40, "0");
const orderSize = () => 1 + Math.floor(Math.random() * MAX_ORDER);

export class OrderFlow {
  private readonly lists = new WeakMap<FlowClient, { version: number; second: number; markets: ActiveMarket[] }>();
  private readonly books = new Map<number, Book>();
  /**
   * The orders of the current tick per market, drawn for the first reader that needs them. Kept as numbers, not texts:
   * a tick's frames held as strings until the next tick cost the collector 40× the drawing at high rates.
   */
  private tickOrders = new Map<number, TickOrders | null>();
  private tickKey = "";
  private served = new WeakSet<FlowClient>();
  private sequence = 0;
  /** Frames sent (one per reader and frame). */
  frames = 0;

  constructor(private readonly world: World) {}

  /**
   * Sends one client the frames of its active markets due in the last `dtMs` (Poisson at 2 × `hz` per market). ws.ts
   * calls this for each reader once a tick with the same `nowMs` and `dtMs`: a new pair, or a reader seen again,
   * starts the next tick's draw.
   */
  emit(
    client: FlowClient,
    share: number,
    hz: number,
    dtMs: number,
    nowMs: number,
    top: (asset: string) => Top | null,
    send: (text: string) => void,
  ): void {
    const key = `${nowMs}|${dtMs}`;
    if (key !== this.tickKey || this.served.has(client)) {
      this.tickKey = key;
      this.served = new WeakSet();
      this.tickOrders = new Map();
    }
    this.served.add(client);
    for (const market of this.markets(client, share, nowMs)) {
      let drawn = this.tickOrders.get(market.index);
      if (drawn === undefined) {
        drawn = this.draw(market, (2 * hz * dtMs) / 1000, nowMs, top);
        this.tickOrders.set(market.index, drawn);
      }
      if (drawn) this.send(drawn, send);
    }
  }

  /** The total size this market's book holds at a level of its first token (tests). */
  levelSize(marketIndex: number, side: "BUY" | "SELL", p: number): number {
    const book = this.books.get(marketIndex);
    return (side === "BUY" ? book?.bids : book?.asks)?.get(milli(p)) ?? 0;
  }

  private draw(market: ActiveMarket, lambda: number, nowMs: number, top: (asset: string) => Top | null): TickOrders | null {
    const book = this.book(market, top);
    if (!book) return null;
    const n = poissonDraw(lambda);
    const orders: number[] = [];
    for (let i = 0; i < n; i++) {
      const buy = Math.random() < 0.5;
      let level = Math.floor(Math.random() * ORDER_FLOW_LEVELS);
      let p = buy ? book.bid - level * book.tick : book.ask + level * book.tick;
      // Near 0 or 1 there are fewer levels: the order lands on the top one (the rate per market stays the same).
      if (p <= 0 || p >= 1000) [p, level] = [buy ? book.bid : book.ask, 0];
      const levels = buy ? book.bids : book.asks;
      const held = levels.get(p) ?? 0;
      let size = held + orderSize();
      if (held > 0 && Math.random() < CANCEL_SHARE) {
        const taken = Math.min(orderSize(), level === 0 ? Math.floor(held / 2) : held);
        if (taken > 0) size = held - taken;
      }
      if (size > 0) levels.set(p, size);
      else levels.delete(p);
      // Which token's entry comes first (the order's own token: either one).
      const flags = (buy ? 1 : 0) | (Math.random() < 0.5 ? 2 : 0);
      this.sequence += 2;
      orders.push(p, size, flags, this.sequence);
    }
    return {
      market,
      yes: `","best_bid":"${PRICES[book.bid]}","best_ask":"${PRICES[book.ask]}"}`,
      no: `","best_bid":"${PRICES[1000 - book.ask]}","best_ask":"${PRICES[1000 - book.bid]}"}`,
      stamp: `],"timestamp":"${nowMs}","event_type":"price_change"}`,
      orders,
    };
  }

  /** One frame per order: the first token's entry and its mirror on the second, in the order drawn. */
  private send(t: TickOrders, send: (text: string) => void): void {
    const [yesId, noId] = t.market.tokens;
    const o = t.orders;
    for (let i = 0; i < o.length; i += 4) {
      const [p, size, flags, seq] = [o[i], o[i + 1], o[i + 2], o[i + 3]];
      const buy = (flags & 1) === 1;
      const yes = `{"asset_id":"${yesId}","price":"${PRICES[p]}","size":"${size}","side":"${buy ? "BUY" : "SELL"}","hash":"${hash(seq - 1)}${t.yes}`;
      const no = `{"asset_id":"${noId}","price":"${PRICES[1000 - p]}","size":"${size}","side":"${buy ? "SELL" : "BUY"}","hash":"${hash(seq)}${t.no}`;
      send(flags & 2 ? `${t.market.head}${no},${yes}${t.stamp}` : `${t.market.head}${yes},${no}${t.stamp}`);
      this.frames++;
    }
  }

  /** The market's book, re-anchored on the top the channel last announced (first token's terms). */
  private book(market: ActiveMarket, top: (asset: string) => Top | null): Book | null {
    let t = top(market.tokens[0]);
    if (!t) {
      const other = top(market.tokens[1]);
      if (other) t = { bid: 1 - other.ask, ask: 1 - other.bid, tick: other.tick };
    }
    if (!t) return null;
    const [bid, ask, tick] = [milli(t.bid), milli(t.ask), Math.max(1, milli(t.tick))];
    let book = this.books.get(market.index);
    if (book && book.bid === bid && book.ask === ask && book.tick === tick) return book;
    if (!book || book.tick !== tick) book = { bid, ask, tick, bids: new Map(), asks: new Map() };
    book.bid = bid;
    book.ask = ask;
    const lowest = bid - (ORDER_FLOW_LEVELS - 1) * tick;
    const highest = ask + (ORDER_FLOW_LEVELS - 1) * tick;
    for (const p of book.bids.keys()) if (p > bid || p < lowest) book.bids.delete(p);
    for (const p of book.asks.keys()) if (p < ask || p > highest) book.asks.delete(p);
    for (let k = 0; k < ORDER_FLOW_LEVELS; k++) {
      const b = bid - k * tick;
      const a = ask + k * tick;
      if (b > 0 && !book.bids.has(b)) book.bids.set(b, orderSize());
      if (a < 1000 && !book.asks.has(a)) book.asks.set(a, orderSize());
    }
    this.books.set(market.index, book);
    return book;
  }

  /** The client's active markets (once each, whichever of their tokens it subscribed), rebuilt once a second. */
  private markets(client: FlowClient, share: number, nowMs: number): ActiveMarket[] {
    const second = Math.floor(nowMs / 1000);
    const cached = this.lists.get(client);
    if (cached && cached.version === client.assetsVersion && cached.second === second) return cached.markets;
    const seen = new Set<number>();
    const markets: ActiveMarket[] = [];
    for (const asset of client.assets) {
      const code = this.world.tokenLookup.get(asset);
      if (code === undefined || seen.has(code >> 1) || !isActiveMarket(this.world, code >> 1, share)) continue;
      seen.add(code >> 1);
      const market = this.world.markets[code >> 1];
      markets.push({ index: market.index, head: `{"market":"${market.conditionId}","price_changes":[`, tokens: market.tokenIds });
    }
    this.lists.set(client, { version: client.assetsVersion, second, markets });
    return markets;
  }
}
