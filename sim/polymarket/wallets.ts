// Ledger wallets: a handful of wallets with a full, scripted activity history of every Data API activity type
// (TRADE, SPLIT, MERGE, REDEEM, REWARD, CONVERSION, MAKER_REBATE), and the per-user Data API routes served from it:
// `/activity`, `/positions`, `/closed-positions`, `/value`, `/traded`, `/trades?user=` and `/v1/leaderboard`.
// Every figure Polymarket publishes about them is derived from the same ledger, so the service's reconciliation can
// be checked against a known truth: `truthPnl` = cash received − cash paid + open shares × current price.
// Sources of every shape, cap and error: SOURCES.md ("Wallets").
import { historyPriceAt } from "./clob";
import { restUserVisibleUntil } from "./data-api";
import { firstParam, isoDate, json, listParam, type SimContext, type SimRequest, type SimResponse } from "./http-types";
import type { PriceModel } from "./prices";
import { hexWords, rand } from "./random";
import type { SimMarket, World } from "./world";

export const ACTIVITY_TYPES = ["TRADE", "SPLIT", "MERGE", "REDEEM", "REWARD", "CONVERSION", "MAKER_REBATE"] as const;
/** Types the docs list that these wallets never have (accepted as filters, never returned). */
const OTHER_DOCUMENTED_TYPES = ["DEPOSIT", "WITHDRAWAL", "YIELD", "TAKER_REBATE", "REFERRAL_REWARD"];
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** docs get-user-activity: `limit` 0..500 (above: clamped), `offset` 0..5000 (above: 400, never clamped). */
export const ACTIVITY_LIMIT_MAX = 500;
export const ACTIVITY_OFFSET_MAX = 5000;
/** docs get-current-positions: `limit` ≤ 500, `offset` ≤ 10000. */
const POSITIONS_LIMIT_MAX = 500;
const POSITIONS_OFFSET_MAX = 10_000;
/** docs get-closed-positions: `limit` ≤ 50. */
const CLOSED_LIMIT_MAX = 50;
/** docs get-trader-leaderboard (v1): `limit` 1..50, `offset` ≤ 1000. */
const LEADERBOARD_LIMIT_MAX = 50;
const LEADERBOARD_OFFSET_MAX = 1000;

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const CONDITION = /^0x[0-9a-fA-F]{62,64}$/;
const SALT_LEDGER = 71;
const DAY_S = 86_400;

export type WalletKind = "redeemer" | "splitter" | "converter" | "market_maker" | "fresh" | "heavy" | "unredeemed";

export interface LedgerEvent {
  type: ActivityType;
  at: number;
  /** World market index; null for a rebate not tied to a market. */
  market: number | null;
  /** Outcome index for trades and conversion legs; null otherwise. */
  outcome: number | null;
  side: "BUY" | "SELL" | "";
  size: number;
  price: number;
  usdc: number;
  tx: string;
  /** Trades: the wallet's order was resting (maker) rather than taking. */
  maker: boolean;
  seq: number;
}

export interface LedgerWallet {
  index: number;
  kind: WalletKind;
  address: string;
  name: string;
  pseudonym: string;
  /** Ascending by time (then seq). */
  events: LedgerEvent[];
}

interface Holding {
  market: number;
  outcome: number;
  shares: number;
  cost: number;
  bought: number;
  boughtUsd: number;
  realized: number;
  redeemed: boolean;
  lastAt: number;
}

const r2 = (x: number) => Math.round(x * 100) / 100;
const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

class Builder {
  readonly events: LedgerEvent[] = [];
  private seq = 0;
  constructor(
    private readonly world: World,
    private readonly prices: PriceModel,
    private readonly walletIndex: number,
  ) {}

  tx(): string {
    return `0x${hexWords(8, this.world.seed, SALT_LEDGER, this.walletIndex, this.seq)}`;
  }

  /** The market's price at `t`, on the 0.01 tick, inside (0, 1). */
  price(market: SimMarket, outcome: number, t: number): number {
    const p = this.prices.displayPrice(market, outcome, t);
    return Math.min(0.99, Math.max(0.01, Math.round(p * 100) / 100));
  }

  push(e: Omit<LedgerEvent, "seq" | "tx"> & { tx?: string }): LedgerEvent {
    const event = { ...e, tx: e.tx ?? this.tx(), seq: this.seq++ };
    this.events.push(event);
    return event;
  }

  trade(at: number, market: SimMarket, outcome: number, side: "BUY" | "SELL", size: number, maker = false, price?: number): void {
    const p = price ?? this.price(market, outcome, at);
    this.push({ type: "TRADE", at, market: market.index, outcome, side, size, price: p, usdc: r6(size * p), maker });
  }

  other(
    type: ActivityType,
    at: number,
    market: SimMarket | null,
    size: number,
    usdc: number,
    outcome: number | null = null,
    tx?: string,
  ): void {
    this.push({ type, at, market: market ? market.index : null, outcome, side: "", size, price: 0, usdc, maker: false, tx });
  }
}

/** The wallets' addresses: a fixed prefix no generated world wallet has (world wallets are 40 random hex). */
export function ledgerWalletAddress(index: number): string {
  return `0x11ed6e70${index.toString(16).padStart(2, "0")}${"0".repeat(29)}1`;
}

const KINDS: WalletKind[] = ["redeemer", "splitter", "converter", "market_maker", "fresh", "heavy", "unredeemed"];
const NAMES: Record<WalletKind, string> = {
  redeemer: "ResolvedWinner",
  splitter: "SplitMergeDesk",
  converter: "NegRiskConverter",
  market_maker: "TwoSidedQuotes",
  fresh: "",
  heavy: "TapeGrinder",
  unredeemed: "SlowRedeemer",
};

export class SimWallets {
  readonly wallets: LedgerWallet[] = [];
  readonly byAddress = new Map<string, LedgerWallet>();

  constructor(
    private readonly world: World,
    private readonly prices: PriceModel,
  ) {
    const anchor = Math.floor(world.anchorMs / 1000);
    const eligible = (m: SimMarket, from: number) => m.startSec <= from && !world.events[m.eventIndex].negRisk;
    const closed = world.markets.filter(
      (m) => m.closed && m.winner !== null && m.closedSec < anchor - 3600 && eligible(m, m.closedSec - 10 * DAY_S),
    );
    const open = world.markets.filter((m) => world.isOpen(world.events[m.eventIndex]) && !m.closed && eligible(m, anchor - 40 * DAY_S));
    const negRiskEvent = world.events.find(
      (e) => e.negRisk && world.isOpen(e) && e.markets.length >= 4 && world.markets[e.markets[0]].startSec < anchor - 20 * DAY_S,
    );
    if (closed.length < 8 || open.length < 30 || !negRiskEvent) throw new Error("world too small for the ledger wallets");
    KINDS.forEach((kind, index) => {
      const b = new Builder(world, prices, index);
      const pick = <T>(list: T[], k: number) => list[Math.floor(rand(world.seed, SALT_LEDGER, index, k) * list.length)];
      const u = (k: number) => rand(world.seed, SALT_LEDGER + 1, index, k);
      switch (kind) {
        case "redeemer": {
          // Winners and losers in six resolved markets, all redeemed (gone from /positions); two open positions.
          closed.slice(0, 6).forEach((m, i) => {
            const at = m.closedSec - (3 + i) * DAY_S;
            const shares = 500 + Math.round(u(i) * 1500);
            b.trade(at, m, m.winner!, "BUY", shares);
            if (i % 2 === 0) b.trade(at + 600, m, 1 - m.winner!, "BUY", Math.round(shares / 4));
            if (i % 3 === 0) b.trade(at + DAY_S, m, m.winner!, "SELL", Math.round(shares / 5));
            const winners = shares - (i % 3 === 0 ? Math.round(shares / 5) : 0);
            const losers = i % 2 === 0 ? Math.round(shares / 4) : 0;
            b.other("REDEEM", m.closedSec + 3600 * (i + 1), m, winners + losers, winners);
          });
          open.slice(0, 2).forEach((m, i) => b.trade(anchor - (5 + i) * DAY_S, m, 0, "BUY", 300 + i * 100));
          break;
        }
        case "splitter": {
          open.slice(2, 5).forEach((m, i) => {
            const at = anchor - (20 - i) * DAY_S;
            b.other("SPLIT", at, m, 1000, 1000);
            b.trade(at + 3600, m, 1, "SELL", 600);
            b.other("MERGE", at + 2 * DAY_S, m, 300, 300);
            if (i === 1) b.trade(at + 3 * DAY_S, m, 0, "BUY", 250);
          });
          const m = closed[6];
          b.other("SPLIT", m.closedSec - 6 * DAY_S, m, 800, 800);
          b.trade(m.closedSec - 5 * DAY_S, m, 1 - m.winner!, "SELL", 800);
          b.other("REDEEM", m.closedSec + 7200, m, 800, 800);
          break;
        }
        case "converter": {
          const markets = negRiskEvent.markets.map((i) => world.markets[i]);
          const at = anchor - 10 * DAY_S;
          b.trade(at, markets[0], 1, "BUY", 400);
          b.trade(at + 600, markets[1], 1, "BUY", 400);
          b.trade(at + 900, markets[2], 1, "BUY", 150);
          // Convert 300 No of markets 0 and 1 → 300 Yes of every other market + (2 − 1) × 300 USD (NegRiskAdapter.convertPositions).
          const tx = b.tx();
          const when = at + 2 * DAY_S;
          b.other("CONVERSION", when, markets[0], 300, 300, 1, tx);
          b.other("CONVERSION", when, markets[1], 300, 0, 1, tx);
          for (const m of markets.slice(2)) b.other("CONVERSION", when, m, 300, 0, 0, tx);
          b.trade(when + DAY_S, markets[2], 0, "SELL", 100);
          b.trade(when + DAY_S + 60, markets[3], 0, "SELL", 120);
          break;
        }
        case "market_maker": {
          // Quotes both sides of four markets; most fills are its resting orders (maker). Daily rebates and rewards.
          const markets = open.slice(5, 9);
          const held = new Map<number, number>();
          for (let i = 0; i < 480; i++) {
            const m = markets[i % 4];
            const at = anchor - 12 * DAY_S + i * 2100;
            const mid = b.price(m, 0, at);
            const have = held.get(m.index) ?? 0;
            const side = have >= 100 && u(100 + i) < 0.5 ? "SELL" : "BUY";
            const size = 50 + Math.round(u(1000 + i) * 50);
            const sz = side === "SELL" ? Math.min(size, have) : size;
            const price = Math.min(0.99, Math.max(0.01, r2(side === "BUY" ? mid - 0.01 : mid + 0.01)));
            b.trade(at, m, 0, side, sz, u(2000 + i) < 0.85, price);
            held.set(m.index, have + (side === "BUY" ? sz : -sz));
          }
          for (let d = 12; d >= 1; d--) {
            b.other("MAKER_REBATE", anchor - d * DAY_S + 3600, null, r2(2 + u(3000 + d) * 8), r2(2 + u(3000 + d) * 8));
            b.other("REWARD", anchor - d * DAY_S + 7200, markets[d % 4], r2(1 + u(4000 + d) * 5), r2(1 + u(4000 + d) * 5));
          }
          break;
        }
        case "fresh": {
          const m = pick(open.slice(10, 20), 1);
          b.trade(anchor - 2 * DAY_S, m, 0, "BUY", 40_000);
          break;
        }
        case "heavy": {
          // > 10,000 rows over 30 days across 20 markets, long only (a sale never exceeds what is held).
          const markets = open.slice(10, 30);
          const held = new Map<number, number>();
          const n = 12_345;
          const span = 30 * DAY_S;
          for (let i = 0; i < n; i++) {
            const m = markets[i % markets.length];
            // Several fills share a second now and then (one order, several fills).
            const at = anchor - span + Math.floor((i * span) / n / 3) * 3;
            const have = held.get(m.index) ?? 0;
            const size = 5 + Math.round(u(i) * 45);
            const sell = i % 7 !== 0 && have > 200 && u(50_000 + i) < 0.45;
            const sz = sell ? Math.min(size, have) : size;
            b.trade(at, m, i % 7 === 0 ? 1 : 0, sell ? "SELL" : "BUY", sz, u(90_000 + i) < 0.2);
            if (i % 7 !== 0) held.set(m.index, have + (sell ? -sz : sz));
          }
          break;
        }
        case "unredeemed": {
          const [win, lose] = [closed[7], closed[5]];
          b.trade(win.closedSec - 4 * DAY_S, win, win.winner!, "BUY", 1200);
          b.trade(lose.closedSec - 4 * DAY_S, lose, 1 - lose.winner!, "BUY", 700);
          b.trade(anchor - 3 * DAY_S, open[30 % open.length], 1, "BUY", 500);
          break;
        }
      }
      const events = b.events.sort((x, y) => x.at - y.at || x.seq - y.seq);
      const wallet: LedgerWallet = {
        index,
        kind,
        address: ledgerWalletAddress(index),
        name: NAMES[kind],
        pseudonym: kind === "fresh" ? "" : `Ledger-${kind}`,
        events,
      };
      this.wallets.push(wallet);
      this.byAddress.set(wallet.address, wallet);
    });
  }

  /** Holdings after every event up to `until` (inclusive), with Polymarket-style figures (avg buy price, realized on sales). */
  holdings(wallet: LedgerWallet, until: number): Map<string, Holding> {
    const out = new Map<string, Holding>();
    const get = (market: number, outcome: number, at: number) => {
      const k = `${market}:${outcome}`;
      let h = out.get(k);
      if (!h) out.set(k, (h = { market, outcome, shares: 0, cost: 0, bought: 0, boughtUsd: 0, realized: 0, redeemed: false, lastAt: at }));
      h.lastAt = at;
      return h;
    };
    const take = (h: Holding, shares: number, proceeds: number) => {
      const removed = h.shares > 0 ? (h.cost * Math.min(shares, h.shares)) / h.shares : 0;
      h.shares = Math.max(0, h.shares - shares);
      h.cost = h.shares > 1e-9 ? h.cost - removed : 0;
      h.realized += proceeds - removed;
      return removed;
    };
    const conversions = new Map<string, LedgerEvent[]>();
    for (const e of wallet.events) if (e.type === "CONVERSION") conversions.set(e.tx, [...(conversions.get(e.tx) ?? []), e]);
    for (const e of wallet.events) {
      if (e.at > until) break;
      if (e.market === null) continue;
      if (e.type === "TRADE") {
        const h = get(e.market, e.outcome!, e.at);
        if (e.side === "BUY") {
          h.shares += e.size;
          h.cost += e.usdc;
          h.bought += e.size;
          h.boughtUsd += e.usdc;
        } else take(h, e.size, e.usdc);
      } else if (e.type === "SPLIT") {
        for (const o of [0, 1]) {
          const h = get(e.market, o, e.at);
          h.shares += e.size;
          h.cost += e.usdc / 2;
          h.bought += e.size;
          h.boughtUsd += e.usdc / 2;
        }
      } else if (e.type === "MERGE") for (const o of [0, 1]) take(get(e.market, o, e.at), e.size, e.usdc / 2);
      else if (e.type === "REDEEM") {
        const winner = this.world.markets[e.market].winner;
        for (const o of [0, 1]) {
          const h = out.get(`${e.market}:${o}`);
          if (!h || h.shares <= 0) continue;
          take(h, h.shares, o === winner ? h.shares : 0);
          h.redeemed = true;
        }
      } else if (e.type === "CONVERSION") {
        const legs = conversions.get(e.tx)!;
        if (legs[0] !== e) continue;
        const usdc = legs.reduce((s, l) => s + l.usdc, 0);
        const burns = legs.filter((x) => x.outcome === 1);
        const mints = legs.filter((x) => x.outcome === 0);
        let burnt = 0;
        for (const l of burns) {
          const h = get(l.market!, 1, l.at);
          burnt += h.shares > 0 ? (h.cost * Math.min(l.size, h.shares)) / h.shares : 0;
        }
        // The burnt cost goes against the USD first; what is left is the cost of the Yes shares received.
        const carried = mints.length ? Math.max(0, burnt - usdc) : 0;
        for (const l of burns) take(get(l.market!, 1, l.at), l.size, (usdc + carried) / burns.length);
        for (const l of mints) {
          const h = get(l.market!, 0, l.at);
          h.shares += l.size;
          h.cost += carried / mints.length;
          h.bought += l.size;
          h.boughtUsd += carried / mints.length;
        }
      }
    }
    return out;
  }

  /** Current price of an outcome (1/0 once resolved). */
  priceAt(market: number, outcome: number, t: number): number {
    return this.prices.displayPrice(this.world.markets[market], outcome, t);
  }

  /** The truth: cash received − cash paid + open shares at the current price. */
  truthPnl(wallet: LedgerWallet, now: number): number {
    let cash = 0;
    for (const e of wallet.events) {
      if (e.at > now) break;
      const paid = (e.type === "TRADE" && e.side === "BUY") || e.type === "SPLIT";
      cash += paid ? -e.usdc : e.usdc;
    }
    return cash + this.value(wallet, now);
  }

  value(wallet: LedgerWallet, at: number): number {
    let value = 0;
    for (const h of this.holdings(wallet, at).values()) if (h.shares > 1e-9) value += h.shares * this.priceAt(h.market, h.outcome, at);
    return value;
  }

  /**
   * The open shares at `at` marked at the point of the price history in force then (clob.ts `historyPriceAt`: what a
   * client reading `/prices-history` sees for that instant), not at the continuous price between two points.
   */
  historyValue(wallet: LedgerWallet, at: number): number {
    let value = 0;
    for (const h of this.holdings(wallet, at).values()) {
      if (h.shares <= 1e-9) continue;
      const market = this.world.markets[h.market];
      const price = historyPriceAt(this.prices, market, h.outcome, at);
      if (price === null) throw new Error(`ledger wallet ${wallet.kind} holds ${market.id} before its first price point`);
      value += h.shares * price;
    }
    return value;
  }

  private readonly newestFirst = new Map<LedgerWallet, LedgerEvent[]>();

  /** Every row, newest first (cached). */
  descending(wallet: LedgerWallet): LedgerEvent[] {
    let list = this.newestFirst.get(wallet);
    if (!list) this.newestFirst.set(wallet, (list = [...wallet.events].reverse()));
    return list;
  }

  /** Rows in [from, to], newest first, by binary search over the cached list. */
  between(wallet: LedgerWallet, from: number, to: number): LedgerEvent[] {
    const list = this.descending(wallet);
    const firstAtOrBelow = (t: number) => {
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (list[mid].at > t) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    return list.slice(firstAtOrBelow(to), firstAtOrBelow(from - 1));
  }

  /** Rows visible at `now` (nothing from the future), newest first. */
  visible(wallet: LedgerWallet, now: number): LedgerEvent[] {
    const out: LedgerEvent[] = [];
    for (let i = wallet.events.length - 1; i >= 0; i--) if (wallet.events[i].at <= now) out.push(wallet.events[i]);
    return out;
  }
}

const cache = new WeakMap<World, SimWallets>();

/** The ledger wallets of a world (built once per world, deterministic from its seed). */
export function simWallets(world: World, prices: PriceModel): SimWallets {
  let wallets = cache.get(world);
  if (!wallets) cache.set(world, (wallets = new SimWallets(world, prices)));
  return wallets;
}

// ---------------------------------------------------------------------------------------------------------- routes

class BadRequest extends Error {}

function v1Error(message: string, status = 400): SimResponse {
  return json({ error: message }, status);
}

function intParam(q: URLSearchParams, name: string, fallback: number, max: number, clamp: boolean, min = 0): number {
  const raw = q.get(name);
  if (raw === null || raw === "") return fallback;
  if (!/^-?\d+$/.test(raw)) throw new BadRequest(`invalid ${name}: ${raw}`);
  const value = Number(raw);
  if (value < min) throw new BadRequest(`${name} must be >= ${min}`);
  if (value > max) {
    if (clamp) return max;
    throw new BadRequest(`${name} must be <= ${max}`);
  }
  return value;
}

function userParam(q: URLSearchParams, required: boolean): string | null {
  const user = q.get("user");
  if (user === null || user === "") {
    if (required) throw new BadRequest("required query param 'user' not provided");
    return null;
  }
  if (!ADDRESS.test(user)) throw new BadRequest(`invalid user: ${user}`);
  return user.toLowerCase();
}

function marketMeta(ctx: SimContext, index: number) {
  const market = ctx.world.markets[index];
  const event = ctx.world.events[market.eventIndex];
  return { market, event };
}

function activityRow(ctx: SimContext, wallet: LedgerWallet, e: LedgerEvent): Record<string, unknown> {
  const meta = e.market === null ? null : marketMeta(ctx, e.market);
  const outcome = e.outcome;
  return {
    proxyWallet: wallet.address,
    timestamp: e.at,
    conditionId: meta ? meta.market.conditionId : "",
    type: e.type,
    size: e.size,
    usdcSize: e.usdc,
    transactionHash: e.tx,
    price: e.price,
    asset: meta && outcome !== null ? meta.market.tokenIds[outcome] : "",
    side: e.side,
    outcomeIndex: outcome ?? 999,
    title: meta ? meta.market.question : "",
    slug: meta ? meta.market.slug : "",
    icon: meta ? meta.market.icon : "",
    eventSlug: meta ? meta.event.slug : "",
    outcome: meta && outcome !== null ? meta.market.outcomes[outcome] : "",
    name: wallet.name,
    pseudonym: wallet.pseudonym,
    bio: "",
    profileImage: "",
    profileImageOptimized: "",
  };
}

function activity(ctx: SimContext, wallets: SimWallets, q: URLSearchParams): SimResponse {
  const user = userParam(q, true)!;
  const limit = intParam(q, "limit", 100, ACTIVITY_LIMIT_MAX, true);
  const offset = intParam(q, "offset", 0, ACTIVITY_OFFSET_MAX, false);
  const types = listParam(q, "type").map((t) => t.toUpperCase());
  for (const t of types)
    if (!(ACTIVITY_TYPES as readonly string[]).includes(t) && !OTHER_DOCUMENTED_TYPES.includes(t))
      throw new BadRequest(`invalid type: ${t}`);
  const markets = listParam(q, "market");
  for (const m of markets) if (!CONDITION.test(m)) throw new BadRequest(`invalid market: ${m}`);
  const now = Math.floor(ctx.nowMs / 1000);
  // start: omitted or 0 → the default window (about 3 years); end: omitted → now.
  const start = intParam(q, "start", 0, Number.MAX_SAFE_INTEGER, false);
  const end = Math.min(intParam(q, "end", now, Number.MAX_SAFE_INTEGER, false), restUserVisibleUntil(ctx));
  const from = start === 0 ? now - 3 * 365 * DAY_S : start;
  const sortBy = (q.get("sortBy") ?? "TIMESTAMP").toUpperCase();
  if (!["TIMESTAMP", "TOKENS", "CASH"].includes(sortBy)) throw new BadRequest(`invalid sortBy: ${sortBy}`);
  const direction = (q.get("sortDirection") ?? "DESC").toUpperCase();
  if (direction !== "ASC" && direction !== "DESC") throw new BadRequest(`invalid sortDirection: ${direction}`);
  const side = q.get("side");
  if (side !== null && side !== "BUY" && side !== "SELL") throw new BadRequest(`invalid side: ${side}`);
  const wallet = wallets.byAddress.get(user);
  if (!wallet) return json([]);
  const marketSet = markets.length ? new Set(markets.map((m) => m.toLowerCase())) : null;
  const plain = !types.length && !side && !marketSet && sortBy === "TIMESTAMP" && direction === "DESC";
  if (plain)
    return json(
      wallets
        .between(wallet, from, Math.min(now, end))
        .slice(offset, offset + limit)
        .map((e) => activityRow(ctx, wallet, e)),
    );
  let rows = wallets
    .between(wallet, from, Math.min(now, end))
    .filter((e) => (types.length ? types.includes(e.type) : true))
    .filter((e) => (side ? e.side === side : true))
    .filter((e) => (marketSet ? e.market !== null && marketSet.has(ctx.world.markets[e.market].conditionId.toLowerCase()) : true));
  const key = sortBy === "TOKENS" ? (e: LedgerEvent) => e.size : sortBy === "CASH" ? (e: LedgerEvent) => e.usdc : (e: LedgerEvent) => e.at;
  const sign = direction === "ASC" ? 1 : -1;
  rows = rows.sort((a, b) => sign * (key(a) - key(b)) || sign * (a.seq - b.seq));
  return json(rows.slice(offset, offset + limit).map((e) => activityRow(ctx, wallet, e)));
}

function positionRow(ctx: SimContext, wallet: LedgerWallet, h: Holding, now: number, wallets: SimWallets): Record<string, unknown> {
  const { market, event } = marketMeta(ctx, h.market);
  const curPrice = wallets.priceAt(h.market, h.outcome, now);
  const size = r6(h.shares);
  const avgPrice = h.shares > 0 ? h.cost / h.shares : 0;
  const initialValue = size * avgPrice;
  const currentValue = size * curPrice;
  const resolved = market.closed && now >= market.closedSec;
  return {
    proxyWallet: wallet.address,
    asset: market.tokenIds[h.outcome],
    conditionId: market.conditionId,
    size,
    avgPrice: r6(avgPrice),
    initialValue,
    currentValue,
    cashPnl: currentValue - initialValue,
    percentPnl: initialValue > 0 ? ((currentValue - initialValue) / initialValue) * 100 : 0,
    totalBought: r6(h.bought),
    realizedPnl: h.realized,
    percentRealizedPnl: initialValue > 0 ? (h.realized / initialValue) * 100 : 0,
    curPrice,
    redeemable: resolved,
    mergeable: false,
    title: market.question,
    slug: market.slug,
    icon: market.icon,
    eventId: event.id,
    eventSlug: event.slug,
    outcome: market.outcomes[h.outcome],
    outcomeIndex: h.outcome,
    oppositeOutcome: market.outcomes[1 - h.outcome],
    oppositeAsset: market.tokenIds[1 - h.outcome],
    endDate: isoDate(market.endMs),
    negativeRisk: event.negRisk,
  };
}

function positions(ctx: SimContext, wallets: SimWallets, wallet: LedgerWallet, q: URLSearchParams): SimResponse {
  const limit = intParam(q, "limit", 100, POSITIONS_LIMIT_MAX, true);
  const offset = intParam(q, "offset", 0, POSITIONS_OFFSET_MAX, false);
  const thresholdRaw = q.get("sizeThreshold");
  const threshold = thresholdRaw === null ? 1 : Number(thresholdRaw);
  if (!Number.isFinite(threshold)) throw new BadRequest(`invalid sizeThreshold: ${thresholdRaw}`);
  const now = Math.floor(ctx.nowMs / 1000);
  const rows = [...wallets.holdings(wallet, now).values()]
    .filter((h) => h.shares > 1e-9 && h.shares >= threshold)
    .map((h) => positionRow(ctx, wallet, h, now, wallets))
    .sort((a, b) => (b.size as number) - (a.size as number) || String(a.asset).localeCompare(String(b.asset)));
  return json(rows.slice(offset, offset + limit));
}

function closedPositions(ctx: SimContext, wallets: SimWallets, q: URLSearchParams): SimResponse {
  const user = userParam(q, true)!;
  const limit = intParam(q, "limit", 10, CLOSED_LIMIT_MAX, true);
  const offset = intParam(q, "offset", 0, POSITIONS_OFFSET_MAX, false);
  const wallet = wallets.byAddress.get(user);
  if (!wallet) return json([]);
  const now = Math.floor(ctx.nowMs / 1000);
  const rows = [...wallets.holdings(wallet, now).values()]
    .filter((h) => h.shares <= 1e-9)
    .sort((a, b) => b.realized - a.realized)
    .map((h) => {
      const { market, event } = marketMeta(ctx, h.market);
      return {
        proxyWallet: wallet.address,
        asset: market.tokenIds[h.outcome],
        conditionId: market.conditionId,
        avgPrice: h.bought > 0 ? r6(h.boughtUsd / h.bought) : 0,
        totalBought: r6(h.bought),
        realizedPnl: h.realized,
        curPrice: wallets.priceAt(h.market, h.outcome, now),
        timestamp: h.lastAt,
        title: market.question,
        slug: market.slug,
        icon: market.icon,
        eventSlug: event.slug,
        outcome: market.outcomes[h.outcome],
        outcomeIndex: h.outcome,
        oppositeOutcome: market.outcomes[1 - h.outcome],
        oppositeAsset: market.tokenIds[1 - h.outcome],
        endDate: isoDate(market.endMs),
      };
    });
  return json(rows.slice(offset, offset + limit));
}

function userTrades(ctx: SimContext, wallet: LedgerWallet, q: URLSearchParams, wallets: SimWallets): SimResponse {
  const limit = intParam(q, "limit", 100, 10_000, true);
  const offset = intParam(q, "offset", 0, 10_000, false);
  const takerOnlyRaw = q.get("takerOnly");
  if (takerOnlyRaw !== null && takerOnlyRaw !== "true" && takerOnlyRaw !== "false")
    throw new BadRequest(`invalid takerOnly: ${takerOnlyRaw}`);
  const takerOnly = takerOnlyRaw !== "false";
  const side = q.get("side");
  // The user form lags the block like every user read (reality `restLag`; data-api.ts restUserVisibleUntil).
  const rows = wallets
    .visible(wallet, restUserVisibleUntil(ctx))
    .filter((e) => e.type === "TRADE" && (!takerOnly || !e.maker) && (side ? e.side === side : true))
    .slice(offset, offset + limit)
    .map((e) => {
      const { market, event } = marketMeta(ctx, e.market!);
      return {
        proxyWallet: wallet.address,
        side: e.side,
        asset: market.tokenIds[e.outcome!],
        conditionId: market.conditionId,
        size: e.size,
        price: e.price,
        timestamp: e.at,
        title: market.question,
        slug: market.slug,
        icon: market.icon,
        eventSlug: event.slug,
        outcome: market.outcomes[e.outcome!],
        outcomeIndex: e.outcome,
        name: wallet.name,
        pseudonym: wallet.pseudonym,
        bio: "",
        profileImage: "",
        profileImageOptimized: "",
        transactionHash: e.tx,
      };
    });
  return json(rows);
}

const PERIODS: Record<string, number | null> = { DAY: DAY_S, WEEK: 7 * DAY_S, MONTH: 30 * DAY_S, ALL: null };

/**
 * The board's figures for one wallet. Known (docs, v2 leaderboard page): finite windows are the marked equity change
 * net of flows, `all` is realized-only, volume is in shares. The simulator computes exactly that from the ledger: a
 * finite window (the last `span` seconds up to now) is the cash flows inside it + the open shares at the current
 * price − the open shares at its start marked at the price history's point in force then (`historyValue`; how
 * Polymarket marks a window's start is not documented). SOURCES.md "Wallets".
 */
export function boardFigures(
  wallets: SimWallets,
  wallet: LedgerWallet,
  period: keyof typeof PERIODS,
  now: number,
): { pnl: number; vol: number } {
  const span = PERIODS[period];
  const since = span === null ? -Infinity : now - span;
  let vol = 0;
  let flows = 0;
  for (const e of wallet.events) {
    if (e.at > now || e.at <= since) continue;
    if (e.type === "TRADE") vol += e.size;
    const paid = (e.type === "TRADE" && e.side === "BUY") || e.type === "SPLIT";
    flows += paid ? -e.usdc : e.usdc;
  }
  if (span === null) {
    let realized = 0;
    for (const h of wallets.holdings(wallet, now).values()) realized += h.realized;
    for (const e of wallet.events) if (e.at <= now && (e.type === "REWARD" || e.type === "MAKER_REBATE")) realized += e.usdc;
    return { pnl: r6(realized), vol: r6(vol) };
  }
  return { pnl: r6(flows + wallets.value(wallet, now) - wallets.historyValue(wallet, since)), vol: r6(vol) };
}

function leaderboard(ctx: SimContext, wallets: SimWallets, q: URLSearchParams): SimResponse {
  const period = (q.get("timePeriod") ?? "DAY").toUpperCase();
  if (!(period in PERIODS)) throw new BadRequest(`invalid timePeriod: ${q.get("timePeriod")}`);
  const orderBy = (q.get("orderBy") ?? "PNL").toUpperCase();
  if (orderBy !== "PNL" && orderBy !== "VOL") throw new BadRequest(`invalid orderBy: ${q.get("orderBy")}`);
  const category = (q.get("category") ?? "OVERALL").toUpperCase();
  const limit = intParam(q, "limit", 25, LEADERBOARD_LIMIT_MAX, false, 1);
  const offset = intParam(q, "offset", 0, LEADERBOARD_OFFSET_MAX, false);
  const user = userParam(q, false);
  if (category !== "OVERALL") return json([]); // the ledger wallets are not classified by category
  const now = Math.floor(ctx.nowMs / 1000);
  const ranked = wallets.wallets
    .map((w) => ({ w, ...boardFigures(wallets, w, period, now) }))
    .filter((r) => r.vol > 0 || r.pnl !== 0)
    .sort((a, b) => (orderBy === "PNL" ? b.pnl - a.pnl : b.vol - a.vol) || a.w.index - b.w.index)
    .map((r, i) => ({
      rank: String(i + 1),
      proxyWallet: r.w.address,
      userName: r.w.name,
      xUsername: "",
      verifiedBadge: false,
      vol: r.vol,
      pnl: r.pnl,
      profileImage: "",
    }));
  if (user) return json(ranked.filter((r) => r.proxyWallet === user));
  return json(ranked.slice(offset, offset + limit));
}

/**
 * The per-user Data API routes. Returns null when the request is not theirs (`/positions` and `/trades` of other
 * wallets stay with data-api.ts), so it is registered in front of handleData.
 */
export function handleWalletData(ctx: SimContext, req: SimRequest): SimResponse | null {
  if (req.method !== "GET") return null;
  const path = req.path.replace(/\/+$/, "") || "/";
  const q = req.query;
  const mine = ["/activity", "/closed-positions", "/value", "/traded", "/v1/leaderboard"].includes(path);
  if (!mine && path !== "/positions" && path !== "/trades") return null;
  const wallets = simWallets(ctx.world, ctx.prices);
  try {
    if (path === "/activity") return activity(ctx, wallets, q);
    if (path === "/closed-positions") return closedPositions(ctx, wallets, q);
    if (path === "/v1/leaderboard") return leaderboard(ctx, wallets, q);
    if (path === "/value") {
      const user = userParam(q, true)!;
      const wallet = wallets.byAddress.get(user);
      return json([{ user, value: wallet ? r6(wallets.value(wallet, Math.floor(ctx.nowMs / 1000))) : 0 }]);
    }
    if (path === "/traded") {
      const user = userParam(q, true)!;
      const wallet = wallets.byAddress.get(user);
      const now = Math.floor(ctx.nowMs / 1000);
      const traded = wallet ? new Set(wallet.events.filter((e) => e.at <= now && e.type === "TRADE").map((e) => e.market)).size : 0;
      return json({ user, traded });
    }
    const user = firstParam(q, "user")?.toLowerCase();
    const wallet = user ? wallets.byAddress.get(user) : undefined;
    if (!wallet) return null;
    if (path === "/positions") return positions(ctx, wallets, wallet, q);
    return userTrades(ctx, wallet, q, wallets);
  } catch (error) {
    if (error instanceof BadRequest) return v1Error(error.message);
    throw error;
  }
}
