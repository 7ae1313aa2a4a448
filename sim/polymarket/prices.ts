// Price model. Each market has a latent logit that wanders on several time scales (value noise, a fractal stand-in
// for a random walk that can be evaluated at any instant without history) plus occasional regime jumps. Binary
// events map it through a sigmoid (Yes + No = 1); negRisk multi-market events through a softmax, so the Yes
// prices of an event's markets sum to 1. Closed markets converge to their winner before the close and stay there.
import { gauss, rand } from "./random";
import type { SimMarket, World } from "./world";

const OCTAVE_SECONDS = [300, 1800, 10_800, 43_200, 172_800, 604_800, 2_592_000];
const OCTAVE_AMPLITUDE = [0.015, 0.035, 0.07, 0.12, 0.22, 0.35, 0.5];
const SALT_OCTAVE = 100;
const SALT_OCTAVE_PHASE = 110;
const SALT_REGIME = 120;
const SALT_REGIME_AT = 121;
const SALT_REGIME_LEVEL = 122;
const SALT_REGIME_BIG = 123;
const REGIME_LOOKBACK_DAYS = 45;
const CONVERGE_SECONDS = 2 * 86_400;

export interface Quote {
  bid: number;
  ask: number;
  mid: number;
  tick: number;
  spread: number;
}

export class PriceModel {
  private readonly regimeCache = new Map<number, number>();
  private readonly eventCache = new Map<number, Map<number, Float64Array>>();
  private eventCacheSize = 0;
  /**
   * Value noise is flat at each knot of its grid. With one grid for every market, all markets stood still together
   * around each multiple of 5 minutes (and longer still where the octaves' knots meet, on the half hour): a market-wide
   * lull no real book shows. Each market's octaves are shifted by their own fraction of a period, drawn once here
   * (the world has all its markets when it is built), `OCTAVE_SECONDS.length` a market by index.
   */
  private readonly phases: Float64Array;

  constructor(private readonly world: World) {
    const octaves = OCTAVE_SECONDS.length;
    this.phases = new Float64Array(world.markets.length * octaves);
    for (let m = 0; m < world.markets.length; m++) {
      for (let k = 0; k < octaves; k++) this.phases[m * octaves + k] = rand(world.seed, SALT_OCTAVE_PHASE + k, m, 0);
    }
  }

  /** Latent logit of market m at time t (seconds). */
  logit(market: SimMarket, t: number): number {
    const seed = this.world.seed;
    let x = market.mu;
    const phase = market.index * OCTAVE_SECONDS.length;
    for (let k = 0; k < OCTAVE_SECONDS.length; k++) {
      const pos = t / OCTAVE_SECONDS[k] + this.phases[phase + k];
      const i = Math.floor(pos);
      const f = pos - i;
      const a = rand(seed, SALT_OCTAVE + k, market.index, i) * 2 - 1;
      const b = rand(seed, SALT_OCTAVE + k, market.index, i + 1) * 2 - 1;
      const s = f * f * (3 - 2 * f);
      x += OCTAVE_AMPLITUDE[k] * market.noiseScale * (a + (b - a) * s);
    }
    return x + this.regimeLevel(market, t);
  }

  /** Level of the regime in force at t: piecewise constant, switching at random instants (the "jumps"). */
  private regimeLevel(market: SimMarket, t: number): number {
    const seed = this.world.seed;
    const day = Math.floor(t / 86_400);
    const changeAt = (d: number) =>
      rand(seed, SALT_REGIME, market.index, d) < market.regimeChance
        ? d * 86_400 + Math.floor(rand(seed, SALT_REGIME_AT, market.index, d) * 86_400)
        : -1;
    const level = (d: number) =>
      market.jumpScale * gauss(seed, SALT_REGIME_LEVEL, market.index, d) * (rand(seed, SALT_REGIME_BIG, market.index, d) < 0.12 ? 2.5 : 1);
    const today = changeAt(day);
    if (today >= 0 && t >= today) return level(day);
    // Level in force at the start of `day`, memoised per (market, day).
    const key = market.index * 1_000_003 + day;
    const cached = this.regimeCache.get(key);
    if (cached !== undefined) return cached;
    let result = level(-1 - Math.floor(day / REGIME_LOOKBACK_DAYS));
    for (let d = day - 1; d > day - REGIME_LOOKBACK_DAYS; d--) {
      if (changeAt(d) >= 0) {
        result = level(d);
        break;
      }
    }
    if (this.regimeCache.size > 400_000) this.regimeCache.clear();
    this.regimeCache.set(key, result);
    return result;
  }

  private closingPull(market: SimMarket, t: number): number {
    if (market.winner === null || t < market.closedSec - CONVERGE_SECONDS) return 0;
    const progress = Math.min(1, (t - (market.closedSec - CONVERGE_SECONDS)) / CONVERGE_SECONDS);
    return (market.winner === 0 ? 1 : -1) * 7 * progress * progress;
  }

  /** Continuous Yes probability of market m at t (seconds). */
  yesProbability(market: SimMarket, t: number): number {
    if (market.winner !== null && t >= market.closedSec) return market.winner === 0 ? 1 : 0;
    const event = this.world.events[market.eventIndex];
    if (!event.negRisk) return sigmoid(this.logit(market, t) + this.closingPull(market, t));
    return this.eventProbabilities(event.index, t)[market.slot];
  }

  /** Softmax over a negRisk event's markets at t, memoised (multi-market pages ask for every sibling). */
  eventProbabilities(eventIndex: number, t: number): Float64Array {
    let perEvent = this.eventCache.get(eventIndex);
    const hit = perEvent?.get(t);
    if (hit) return hit;
    const event = this.world.events[eventIndex];
    const xs = new Float64Array(event.markets.length);
    let max = -Infinity;
    event.markets.forEach((m, i) => {
      const market = this.world.markets[m];
      xs[i] = this.logit(market, t) + this.closingPull(market, t);
      if (xs[i] > max) max = xs[i];
    });
    let sum = 0;
    for (let i = 0; i < xs.length; i++) {
      xs[i] = Math.exp(xs[i] - max);
      sum += xs[i];
    }
    for (let i = 0; i < xs.length; i++) xs[i] /= sum;
    if (this.eventCacheSize > 50_000) {
      this.eventCache.clear();
      this.eventCacheSize = 0;
    }
    if (!perEvent) {
      perEvent = new Map();
      this.eventCache.set(eventIndex, perEvent);
    }
    perEvent.set(t, xs);
    this.eventCacheSize++;
    return xs;
  }

  /** Probability of one outcome (0 = first/Yes, 1 = second/No). */
  probability(market: SimMarket, outcome: number, t: number): number {
    const p = this.yesProbability(market, t);
    return outcome === 0 ? p : 1 - p;
  }

  /** Top of book for an outcome token at t: tick-aligned bid/ask around the latent price. */
  quote(market: SimMarket, outcome: number, t: number): Quote {
    const yes = yesQuote(this.yesProbability(market, t), market.spreadTicks);
    if (outcome === 0) return yes;
    return { bid: round(1 - yes.ask, 3), ask: round(1 - yes.bid, 3), mid: round(1 - yes.mid, 4), tick: yes.tick, spread: yes.spread };
  }

  /** The displayed price (Gamma outcomePrices, prices-history `p`): the book midpoint. */
  displayPrice(market: SimMarket, outcome: number, t: number): number {
    if (market.winner !== null && t >= market.closedSec) return market.winner === outcome ? 1 : 0;
    return this.quote(market, outcome, t).mid;
  }
}

export function tickFor(p: number): number {
  return p < 0.04 || p > 0.96 ? 0.001 : 0.01;
}

function yesQuote(p: number, spreadTicks: number): Quote {
  const tick = tickFor(p);
  const width = spreadTicks * tick;
  let bid = Math.floor((p - width / 2) / tick + 1e-9) * tick;
  bid = Math.min(Math.max(bid, tick), 1 - tick - width);
  const ask = bid + width;
  const b = round(bid, 3);
  const a = round(ask, 3);
  return { bid: b, ask: a, mid: round((b + a) / 2, 4), tick, spread: round(a - b, 3) };
}

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

export function round(x: number, digits: number): number {
  const f = Math.pow(10, digits);
  return Math.round(x * f) / f;
}

/** Decimal string without float noise ("0.0105", "0.99", "1"). */
export function decimalString(x: number, digits = 4): string {
  return String(round(x, digits));
}
