// Trade flow, holders and positions. Trades are generated per (market, minute) for the retail crowd and per
// (whale stake, hour) for whales, each from hashed randomness, so every trade is a pure function of the seed and its
// bucket: refetching returns the same trade, and any past window can be replayed. Every trader is a holder from the
// position book; holders and positions are that book plus the net of all trades since the world's anchor.
import type { PriceModel } from "./prices";
import { round, tickFor } from "./prices";
import { bisect } from "./world";
import type { SimMarket, World } from "./world";
import { makerFills } from "./makers";
import { gauss, hexWords, pareto, poisson, rand, randOpen } from "./random";

export interface Trade {
  /** Identity: retail (kind 0) = market a, minute b, k-th order c, fill; whale (kind 1) = stake a, hour b, c;
   *  burst (kind 2) = burst a, fill b of it. */
  kind: 0 | 1 | 2;
  a: number;
  b: number;
  c: number;
  fill: number;
  maker: boolean;
  market: number;
  outcome: number;
  wallet: number;
  position: number;
  side: "BUY" | "SELL";
  size: number;
  price: number;
  timestamp: number;
  /**
   * A taker order that swept several price levels: the levels it took (price, shares), best first. The taker's row is
   * one fill at the average price paid; each level is filled by at least one maker order of its own.
   */
  levels?: { price: number; size: number }[];
}

/** Stable identity string of a trade. */
export function tradeKey(t: Trade): string {
  return `${t.kind === 0 ? "r" : t.kind === 1 ? "w" : "b"}.${t.a}.${t.b}.${t.c}.${t.fill}${t.maker ? ".m" : ""}`;
}

/** Total order of the tape: newest first, then by identity. */
export function compareTrades(x: Trade, y: Trade): number {
  return (
    y.timestamp - x.timestamp ||
    x.kind - y.kind ||
    x.a - y.a ||
    x.b - y.b ||
    x.c - y.c ||
    x.fill - y.fill ||
    Number(x.maker) - Number(y.maker)
  );
}

/** Position in the tape's order as a tuple, for cursors. */
export type TradeAnchor = [number, number, number, number, number, number, number];
export function tradeAnchor(t: Trade): TradeAnchor {
  return [t.timestamp, t.kind, t.a, t.b, t.c, t.fill, Number(t.maker)];
}
function isAfter(t: Trade, anchor: TradeAnchor): boolean {
  const own = tradeAnchor(t);
  if (own[0] !== anchor[0]) return own[0] < anchor[0];
  for (let i = 1; i < own.length; i++) if (own[i] !== anchor[i]) return own[i] > anchor[i];
  return false;
}

const NO_TRADES: Trade[] = [];

/** Trades a query would filter out anyway; skipping them early only saves work, it never changes an answer. */
export interface SkipHint {
  minUsd?: number;
  takerWallet?: number;
  takerSide?: "BUY" | "SELL";
}

export interface TradeQuery {
  /** Market indexes to include; null = every market. */
  markets: number[] | null;
  wallet?: number;
  side?: "BUY" | "SELL";
  minCash?: number;
  minTokens?: number;
  takerOnly: boolean;
  /** Newest instant included (seconds). */
  until: number;
  /** Oldest instant scanned (seconds). */
  since: number;
  /** Stop after this many matching trades. */
  need: number;
  /** Skip trades ordered at or before this anchor (v2 cursor). */
  after?: TradeAnchor;
}

const SALT_COUNT = 200;
const SALT_TRADE = 210;
const SALT_TX = 240;
const SALT_WHALE_COUNT = 250;
const SALT_WHALE_TRADE = 260;
const SALT_WHALE_TX = 280;
const SALT_BURST = 290;
const SALT_BURST_TX = 295;

/** A tape burst (a test load): `count` taker fills spread over [atSec, atSec + spreadSec) in the busiest markets. */
export interface Burst {
  atSec: number;
  count: number;
  spreadSec: number;
  /** Every fill in this market (its index) instead of among the 50 busiest open ones. */
  market?: number;
  /** Every fill sweeps two levels of the book: the best one and the next tick (one taker row, two maker levels). */
  sweep?: boolean;
}

interface Accumulator {
  bought: number;
  buyCost: number;
  sold: number;
  sellProceeds: number;
}

export class TradeFlow {
  private readonly retailPick = new Map<number, { positions: Int32Array; cumulative: Float64Array }>();
  private readonly quoteCache = new Map<number, { bid: number; ask: number; tick: number }>();
  private readonly deltaCache = new Map<number, { uptoMinute: number; acc: Map<number, Accumulator> }>();
  private readonly entryCache = new Map<number, number>();
  private readonly anchorSec: number;
  private readonly bursts: Burst[] = [];
  private readonly burstByMinute = new Map<number, Trade[]>();
  /**
   * Share of maker rows (`taker_only=false`) on the other outcome (makers.ts `makerCrossShare`: reality
   * `makerCrossOutcome`). Set by the simulator from its reality; 0 = every maker the plain way.
   */
  makerCrossShare = 0;

  constructor(
    private readonly world: World,
    private readonly prices: PriceModel,
  ) {
    this.anchorSec = Math.floor(world.anchorMs / 1000);
  }

  /** Transaction hash, rendered only for trades that are served. Maker rows share their taker's. */
  txHash(t: Trade): string {
    const salt = t.kind === 0 ? SALT_TX : t.kind === 1 ? SALT_WHALE_TX : SALT_BURST_TX;
    return `0x${hexWords(8, this.world.seed, salt, t.a, t.b, t.c)}`;
  }

  /**
   * Adds a burst of taker fills to the tape (a load for tape-completeness tests and the bench): a market crash or a
   * news spike. Burst fills appear in every trade query like any other; they do not move holdings or prices.
   */
  /** How many bursts were added: a cache of a minute's trades is stale once this moves. */
  get burstCount(): number {
    return this.bursts.length;
  }

  addBurst(burst: Burst): void {
    const index = this.bursts.length;
    this.bursts.push(burst);
    const open = this.world.markets.filter((m) => m.startSec <= burst.atSec && m.closedSec > burst.atSec + burst.spreadSec);
    const busiest =
      burst.market === undefined ? [...open].sort((a, b) => b.tradeRate - a.tradeRate).slice(0, 50) : [this.world.markets[burst.market]];
    if (busiest.length === 0) return;
    for (let k = 0; k < burst.count; k++) {
      const market = busiest[Math.floor(rand(this.world.seed, SALT_BURST, index, k, 0) * busiest.length)];
      const positions = this.world.positionsOfMarket(market.index);
      const position = positions[Math.floor(rand(this.world.seed, SALT_BURST, index, k, 1) * positions.length)];
      const outcome = this.world.posOutcome[position];
      const timestamp = burst.atSec + Math.floor((k * burst.spreadSec) / burst.count);
      const side = rand(this.world.seed, SALT_BURST, index, k, 2) < 0.5 ? "BUY" : "SELL";
      let price = round(this.prices.displayPrice(market, outcome, timestamp), 4);
      let size = round(5 + 200 * rand(this.world.seed, SALT_BURST, index, k, 3), 2);
      let levels: { price: number; size: number }[] | undefined;
      if (burst.sweep) {
        const q = this.prices.quote(market, outcome, timestamp);
        const first = side === "BUY" ? q.ask : q.bid;
        const second = round(side === "BUY" ? Math.min(first + q.tick, 1 - q.tick) : Math.max(first - q.tick, q.tick), 3);
        levels = [
          { price: first, size: round(size / 2, 2) },
          { price: second, size: round(size - round(size / 2, 2), 2) },
        ];
        size = round(levels[0].size + levels[1].size, 2);
        price = (levels[0].size * first + levels[1].size * second) / size;
      }
      const trade: Trade = {
        kind: 2,
        a: index,
        b: k,
        c: 0,
        fill: 0,
        maker: false,
        market: market.index,
        outcome,
        wallet: this.world.posWallet[position],
        position,
        side,
        size,
        price: Math.min(0.999, Math.max(0.001, price)),
        timestamp,
      };
      if (levels) trade.levels = levels;
      const minute = Math.floor(timestamp / 60);
      const list = this.burstByMinute.get(minute) ?? [];
      list.push(trade);
      this.burstByMinute.set(minute, list);
    }
  }

  /** Burst fills with a timestamp in [sinceSec, untilSec] (the simulator's own count, for completeness tests). */
  burstFills(sinceSec: number, untilSec: number): number {
    let n = 0;
    for (const list of this.burstByMinute.values()) for (const t of list) if (t.timestamp >= sinceSec && t.timestamp <= untilSec) n++;
    return n;
  }

  /** Time-of-day activity factor (US evening busiest), shared by every market. */
  diurnal(minute: number): number {
    const phase = ((minute % 1440) / 1440) * 2 * Math.PI;
    return 0.65 + 0.7 * (0.5 + 0.5 * Math.sin(phase - 1.2));
  }

  private isTrading(market: SimMarket, t: number): boolean {
    return t >= market.startSec && t < market.closedSec;
  }

  private pickRetail(market: number, u: number): number {
    let entry = this.retailPick.get(market);
    if (!entry) {
      const all = this.world.positionsOfMarket(market);
      const retail = all.filter((p) => !this.world.isWhale(this.world.posWallet[p]));
      const cumulative = new Float64Array(retail.length);
      let total = 0;
      for (let i = 0; i < retail.length; i++) {
        total += 1 + Math.sqrt(this.world.posShares[retail[i]]);
        cumulative[i] = total;
      }
      entry = { positions: retail, cumulative };
      this.retailPick.set(market, entry);
    }
    if (entry.positions.length === 0) return -1;
    return entry.positions[bisect(entry.cumulative, u * entry.cumulative[entry.cumulative.length - 1])];
  }

  /** Yes-side top of book at the start of a minute (trades price off it). */
  private minuteQuote(market: SimMarket, minute: number): { bid: number; ask: number; tick: number } {
    const key = market.index * 100_000_000 + minute;
    let q = this.quoteCache.get(key);
    if (!q) {
      const yes = this.prices.quote(market, 0, minute * 60);
      q = { bid: yes.bid, ask: yes.ask, tick: yes.tick };
      if (this.quoteCache.size > 300_000) this.quoteCache.clear();
      this.quoteCache.set(key, q);
    }
    return q;
  }

  private executionPrice(market: SimMarket, outcome: number, side: "BUY" | "SELL", minute: number): { price: number; tick: number } {
    const q = this.minuteQuote(market, minute);
    const bid = outcome === 0 ? q.bid : round(1 - q.ask, 3);
    const ask = outcome === 0 ? q.ask : round(1 - q.bid, 3);
    return { price: side === "BUY" ? ask : bid, tick: q.tick };
  }

  /** Retail trades of market m in one minute bucket, oldest first. */
  retailTrades(market: SimMarket, minute: number, takerOnly = true, diurnal = this.diurnal(minute), skip?: SkipHint): Trade[] {
    const t0 = minute * 60;
    if (t0 + 59 < market.startSec || t0 + 59 >= market.closedSec) return NO_TRADES;
    const seed = this.world.seed;
    const m = market.index;
    const lambda = market.tradeRate * diurnal;
    const u = rand(seed, SALT_COUNT, m, minute);
    // e^-λ ≥ 1 - λ: most buckets of quiet markets are empty, decided without an exp().
    if (u <= 1 - lambda) return NO_TRADES;
    const count = poisson(lambda, u);
    if (count === 0) return NO_TRADES;
    const out: Trade[] = [];
    for (let k = 0; k < count; k++) {
      const timestamp = t0 + Math.floor(rand(seed, SALT_TRADE, m, minute, k) * 60);
      if (timestamp < market.startSec) continue;
      const side: "BUY" | "SELL" = rand(seed, SALT_TRADE + 2, m, minute, k) < 0.58 ? "BUY" : "SELL";
      if (skip?.takerSide !== undefined && side !== skip.takerSide) continue;
      // Mostly small tickets (median ≈ $14), with a Pareto tail of sharks well into five figures.
      const usd =
        rand(seed, SALT_TRADE + 3, m, minute, k) < 0.03
          ? Math.min(60_000, pareto(400, 1.3, randOpen(seed, SALT_TRADE + 4, m, minute, k)))
          : Math.min(20_000, Math.exp(Math.log(14) + 1.55 * gauss(seed, SALT_TRADE + 5, m, minute, k)));
      // size × price ≤ 2 × usd + half a share (a sweep's second level costs at most one tick more a share, and a tick
      // is at most the price; integer rounding), so cheaper tickets can be dropped before pricing.
      if (skip?.minUsd !== undefined && 2 * usd + 0.5 < skip.minUsd) continue;
      const position = this.pickRetail(m, rand(seed, SALT_TRADE + 1, m, minute, k));
      if (position < 0) continue;
      if (skip?.takerWallet !== undefined && this.world.posWallet[position] !== skip.takerWallet) continue;
      const outcome = this.world.posOutcome[position];
      const { price: basePrice, tick } = this.executionPrice(market, outcome, side, minute);
      let size = usd / basePrice;
      if (side === "SELL") size = Math.min(size, Math.max(1, this.world.posShares[position] * 0.5));
      size = rand(seed, SALT_TRADE + 7, m, minute, k) < 0.35 ? Math.max(1, Math.round(size)) : round(Math.max(size, 0.01), 6);
      const wallet = this.world.posWallet[position];
      // Float tails like 0.709999959 appear in real prices.
      const price =
        rand(seed, SALT_TRADE + 5, m, minute, k) < 0.12
          ? round(basePrice - 1e-9 * (1 + Math.floor(rand(seed, SALT_TRADE + 6, m, minute, k) * 80)), 9)
          : basePrice;
      // A taker order sweeping two levels is one transaction with one taker fill, at the average price paid (its
      // pUSD over its shares), and maker fills at each level (makers.ts): the exchange settles the taker order once
      // against all the maker orders (research note §3.4: `taker_only=true` rows = the taker's `OrderFilled`, one per
      // transaction; §4.2: one `OrderFilled` per maker order, then the taker's; SOURCES.md, "Live feeds").
      let levels: { price: number; size: number }[] | undefined;
      let takerPrice = price;
      if (rand(seed, SALT_TRADE + 8, m, minute, k) < 0.08 && size > 2) {
        const secondPrice = round(side === "BUY" ? Math.min(basePrice + tick, 1 - tick) : Math.max(basePrice - tick, tick), 3);
        if (secondPrice !== basePrice) {
          const secondSize = round(size * (0.2 + 0.5 * rand(seed, SALT_TRADE + 9, m, minute, k)), 6);
          const firstSize = round(size - secondSize, 6);
          levels = [
            { price, size: firstSize },
            { price: secondPrice, size: secondSize },
          ];
          size = round(firstSize + secondSize, 6);
          takerPrice = (firstSize * price + secondSize * secondPrice) / size;
        }
      }
      const trade: Trade = {
        kind: 0,
        a: m,
        b: minute,
        c: k,
        fill: 0,
        maker: false,
        market: m,
        outcome,
        wallet,
        position,
        side,
        size,
        price: takerPrice,
        timestamp,
      };
      if (levels) trade.levels = levels;
      out.push(trade);
      if (!takerOnly) for (const maker of makerFills(this.world, trade, this.makerCrossShare)) out.push(maker);
    }
    return out;
  }

  /** Whale stake's trades in one hour bucket, oldest first. */
  whaleTrades(position: number, hour: number): Trade[] {
    const market = this.world.markets[this.world.posMarket[position]];
    const t0 = hour * 3600;
    if (t0 + 3599 < market.startSec || t0 >= market.closedSec) return [];
    const seed = this.world.seed;
    const count = poisson(this.world.posWhaleRate[position], rand(seed, SALT_WHALE_COUNT, position, hour));
    const out: Trade[] = [];
    for (let k = 0; k < count; k++) {
      const r = (f: number) => rand(seed, SALT_WHALE_TRADE + f, position, hour, k);
      const timestamp = t0 + Math.floor(r(0) * 3600);
      if (!this.isTrading(market, timestamp)) continue;
      const outcome = this.world.posOutcome[position];
      const side: "BUY" | "SELL" = r(1) < 0.75 ? "BUY" : "SELL";
      const usd = Math.min(1_500_000, pareto(4000, 1.25, randOpen(seed, SALT_WHALE_TRADE + 2, position, hour, k)));
      const { price } = this.executionPrice(market, outcome, side, Math.floor(timestamp / 60));
      let size = usd / price;
      if (side === "SELL") size = Math.min(size, this.whaleBaseShares(position) * 0.2);
      size = r(3) < 0.5 ? Math.max(1, Math.round(size)) : round(size, 6);
      out.push({
        kind: 1,
        a: position,
        b: hour,
        c: k,
        fill: 0,
        maker: false,
        market: market.index,
        outcome,
        wallet: this.world.posWallet[position],
        position,
        side,
        size,
        price,
        timestamp,
      });
    }
    return out.sort((a, b) => a.timestamp - b.timestamp);
  }

  // ---------------------------------------------------------------------------------------------------- queries

  /** Matching trades, newest first (ties by key), scanning back minute by minute from `until` to `since`. */
  query(q: TradeQuery): Trade[] {
    const world = this.world;
    const out: Trade[] = [];
    // A wallet's maker rows can sit on any taker fill of a market it holds (makers.ts picks makers among the market's
    // positions), whale or retail, so with makers every such market is scanned whole.
    const walletMakers = q.wallet !== undefined && !q.takerOnly;
    const whaleOnly = q.wallet !== undefined && world.isWhale(q.wallet) && !walletMakers;
    let markets: number[];
    if (q.markets) markets = q.markets;
    else markets = world.markets.filter((m) => m.closedSec > q.since && m.startSec <= q.until).map((m) => m.index);
    const walletMarkets =
      q.wallet === undefined
        ? []
        : [...new Set(Array.from(world.positionsOfWallet(q.wallet), (p) => world.posMarket[p]))].filter(
            (m) => !q.markets || q.markets.includes(m),
          );
    const whaleStakes: number[] = [];
    if (walletMakers) {
      for (const m of walletMarkets) whaleStakes.push(...(world.marketWhalePositions.get(m) ?? []));
    } else if (q.wallet !== undefined) {
      if (whaleOnly) for (const p of world.positionsOfWallet(q.wallet)) whaleStakes.push(p);
    } else if (q.markets) {
      for (const m of q.markets) whaleStakes.push(...(world.marketWhalePositions.get(m) ?? []));
    } else {
      whaleStakes.push(...world.whalePositionIndexes);
    }
    const retailMarkets = whaleOnly ? [] : q.wallet !== undefined ? walletMarkets : markets;
    const marketFilter = q.markets ? new Set(q.markets) : null;

    const matches = (t: Trade) =>
      t.timestamp <= q.until &&
      t.timestamp >= q.since &&
      (q.wallet === undefined || t.wallet === q.wallet) &&
      (!q.side || t.side === q.side) &&
      (q.minCash === undefined || t.size * t.price >= q.minCash) &&
      (q.minTokens === undefined || t.size >= q.minTokens) &&
      (!marketFilter || marketFilter.has(t.market)) &&
      (!q.after || isAfter(t, q.after));

    // Only taker rows can be skipped by their ticket: a crossing maker's complementary price can make its row worth far
    // more than the taker's.
    const skip: SkipHint = {};
    if (q.takerOnly) {
      skip.minUsd = q.minCash;
      skip.takerWallet = q.wallet;
      skip.takerSide = q.side;
    }
    let whaleByMinute = new Map<number, Trade[]>();
    let currentHour = Number.NaN;
    const startMinute = Math.floor((q.after ? Math.min(q.until, q.after[0]) : q.until) / 60);
    const endMinute = Math.floor(q.since / 60);
    for (let minute = startMinute; minute >= endMinute && out.length < q.need; minute--) {
      const hour = Math.floor(minute / 60);
      if (hour !== currentHour) {
        currentHour = hour;
        whaleByMinute = new Map();
        for (const stake of whaleStakes) {
          for (const t of this.whaleTrades(stake, hour)) {
            const m = Math.floor(t.timestamp / 60);
            const list = whaleByMinute.get(m) ?? [];
            list.push(t);
            whaleByMinute.set(m, list);
          }
        }
      }
      const bucket: Trade[] = [];
      const diurnal = this.diurnal(minute);
      for (const m of retailMarkets) {
        for (const t of this.retailTrades(world.markets[m], minute, q.takerOnly, diurnal, skip)) if (matches(t)) bucket.push(t);
      }
      // Whale and burst fills carry their makers too, the same rows RTDS `trades` sends (makers.ts).
      for (const t of [...(whaleByMinute.get(minute) ?? []), ...(this.burstByMinute.get(minute) ?? [])]) {
        if (matches(t)) bucket.push(t);
        if (!q.takerOnly) for (const maker of makerFills(world, t, this.makerCrossShare)) if (matches(maker)) bucket.push(maker);
      }
      if (bucket.length === 0) continue;
      bucket.sort(compareTrades);
      for (const t of bucket) out.push(t);
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------------------- holdings

  /** Shares of a whale stake as of the anchor: its USD stake at its entry price. */
  whaleBaseShares(position: number): number {
    let shares = this.world.posShares[position];
    if (Number.isNaN(shares)) {
      shares = Math.min(5_000_000, round(this.world.posWhaleUsd[position] / Math.max(0.02, this.entryPrice(position)), 6));
      this.world.posShares[position] = shares;
    }
    return shares;
  }

  baseShares(position: number): number {
    return this.world.isWhale(this.world.posWallet[position]) ? this.whaleBaseShares(position) : this.world.posShares[position];
  }

  /** Average entry price of the book position (price when it was opened, a little worse than mid). */
  entryPrice(position: number): number {
    let entry = this.entryCache.get(position);
    if (entry === undefined) {
      const market = this.world.markets[this.world.posMarket[position]];
      const p = this.prices.probability(market, this.world.posOutcome[position], this.world.posOpenedSec[position]);
      const tick = tickFor(p);
      entry = round(Math.min(1 - tick, Math.max(tick, p * (1 + 0.04 * (rand(this.world.seed, 300, position) - 0.3)))), 4);
      this.entryCache.set(position, entry);
    }
    return entry;
  }

  /** Net trading of each position of market m since the anchor, up to `now` (seconds). */
  deltas(marketIndex: number, now: number): Map<number, Accumulator> {
    const market = this.world.markets[marketIndex];
    const anchorMinute = Math.floor(this.anchorSec / 60);
    const nowMinute = Math.floor(now / 60);
    let cached = this.deltaCache.get(marketIndex);
    if (!cached) {
      cached = { uptoMinute: anchorMinute, acc: new Map() };
      this.deltaCache.set(marketIndex, cached);
    }
    const add = (acc: Map<number, Accumulator>, t: Trade) => {
      let a = acc.get(t.position);
      if (!a) {
        a = { bought: 0, buyCost: 0, sold: 0, sellProceeds: 0 };
        acc.set(t.position, a);
      }
      if (t.side === "BUY") {
        a.bought += t.size;
        a.buyCost += t.size * t.price;
      } else {
        a.sold += t.size;
        a.sellProceeds += t.size * t.price;
      }
    };
    // Complete minutes are folded into the cache once; the current minute is added on top per call.
    for (let minute = cached.uptoMinute; minute < nowMinute; minute++) {
      for (const t of this.retailTrades(market, minute)) add(cached.acc, t);
    }
    cached.uptoMinute = Math.max(cached.uptoMinute, nowMinute);
    const result = new Map<number, Accumulator>();
    for (const [k, v] of cached.acc) result.set(k, { ...v });
    for (const t of this.retailTrades(market, nowMinute)) if (t.timestamp <= now) add(result, t);
    const stakes = this.world.marketWhalePositions.get(marketIndex) ?? [];
    for (const stake of stakes) {
      for (let hour = Math.floor(this.anchorSec / 3600); hour <= Math.floor(now / 3600); hour++) {
        for (const t of this.whaleTrades(stake, hour)) if (t.timestamp >= this.anchorSec && t.timestamp <= now) add(result, t);
      }
    }
    return result;
  }

  /** Current holding of a position: book shares plus net trades since the anchor (never below zero). */
  holding(
    position: number,
    delta: Accumulator | undefined,
  ): { shares: number; avgPrice: number; totalBought: number; realizedPnl: number } {
    const base = this.baseShares(position);
    const entry = this.entryPrice(position);
    const bought = delta?.bought ?? 0;
    const buyCost = delta?.buyCost ?? 0;
    const sold = delta?.sold ?? 0;
    const avgPrice = (base * entry + buyCost) / Math.max(1e-9, base + bought);
    const realizedPnl = (delta?.sellProceeds ?? 0) - sold * avgPrice;
    return { shares: Math.max(0, base + bought - sold), avgPrice, totalBought: base + bought, realizedPnl };
  }
}
