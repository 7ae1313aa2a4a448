// The maker rows of one transaction, drawn once for both feeds that show them: the Data API's `taker_only=false`
// (flow.ts) and RTDS `trades` (ws.ts). Both are the exchange's per-order `OrderFilled` rows (research note §3.4: 1,491
// maker rows for 790 taker rows; §6.2: RTDS `trades` carries the taker plus the makers "comme taker_only=false";
// SOURCES.md, "Live feeds"), so one transaction shows the same makers on both. Every draw hangs off the taker fill's
// identity, so the rows are a pure function of the seed and that fill.
import type { Trade } from "./flow";
import { round } from "./prices";
import { rand } from "./random";
import type { Reality } from "./reality";
import type { World } from "./world";

const SALT_MAKERS = 961;

/** The research note's 1,162 of 1,491 maker rows on the other outcome (§3.4), rounded as the issue gives it (78 %). */
export const MAKER_CROSS_SHARE = 0.78;

/**
 * The share of maker rows on the other outcome under a reality: the measured 78 % with `makerCrossOutcome`, else 0
 * (every maker the plain way: the taker's outcome, opposite side, same price). Both feeds take it from here.
 */
export function makerCrossShare(reality: Reality): number {
  return reality.makerCrossOutcome ? MAKER_CROSS_SHARE : 0;
}

/**
 * How many maker orders one taker fill consumed (SOURCES.md, "Live feeds"): rows per transaction, taker included, are
 * 2 at the median, 5 at p90 and up to 30 (research note §3.4), 1.9 maker rows per taker row on average (§6.2: 1,584
 * for 833). Drawn from one uniform number.
 */
export function makerCount(u: number): number {
  if (u < 0.6) return 1;
  if (u < 0.82) return 2;
  if (u < 0.89) return 3;
  if (u < 0.95) return 4;
  if (u < 0.99) return 5 + Math.floor(((u - 0.95) / 0.04) * 4); // 5–8
  return 9 + Math.floor(((u - 0.99) / 0.01) * 21); // 9–29
}

/**
 * The maker fills a taker fill consumed: one row per maker order, each its own wallet (never the taker's), picked
 * among the market's positions; `position` is that pick, so a maker is always one of the market's holders (holdings
 * still follow taker rows only: flow.ts `deltas`). A `crossShare` of them are on the other outcome with the taker's
 * side at the complementary price (a taker BUY Yes 0.64 filled by a maker BUY No 0.36: measured, 78 %); the rest on
 * the taker's outcome, the opposite side, the same price, which is our inference from how the exchange matches (the
 * note measures only the crossing share). A sweep's levels each get at least one maker, at the level's price.
 */
export function makerFills(world: World, t: Trade, crossShare: number): Trade[] {
  const seed = world.seed;
  const levels = t.levels ?? [{ price: t.price, size: t.size }];
  const count = Math.max(levels.length, makerCount(rand(seed, SALT_MAKERS, t.kind, t.a, t.b, t.c * 16 + t.fill)));
  const positions = world.positionsOfMarket(t.market);
  const used = new Set([t.wallet]);
  const out: Trade[] = [];
  const { levels: _levels, ...taker } = t;
  let i = 0;
  for (let level = 0; level < levels.length; level++) {
    // The first level takes every maker the other levels do not (one each).
    const makers = level === 0 ? count - (levels.length - 1) : 1;
    let left = levels[level].size;
    for (let j = 0; j < makers && positions.length; j++, i++) {
      const r = (k: number) => rand(seed, SALT_MAKERS + 1 + k, t.kind * 1_000_003 + t.a, t.b, t.c * 16 + t.fill, i);
      let position = -1;
      for (let tries = 0; tries < 8 && position < 0; tries++) {
        const candidate = positions[Math.floor(r(10 + tries) * positions.length)];
        if (!used.has(world.posWallet[candidate])) position = candidate;
      }
      if (position < 0) break;
      const wallet = world.posWallet[position];
      used.add(wallet);
      const size = j === makers - 1 ? round(left, 6) : round(left * (0.3 + 0.4 * r(1)), 6);
      left = round(left - size, 6);
      const crossing = r(2) < crossShare;
      const price = levels[level].price;
      out.push({
        ...taker,
        maker: true,
        fill: t.fill * 64 + i + 1,
        wallet,
        position,
        outcome: crossing ? 1 - t.outcome : t.outcome,
        side: crossing ? t.side : t.side === "BUY" ? "SELL" : "BUY",
        price: crossing ? round(1 - price, 6) : price,
        size,
      });
      if (left <= 0) break;
    }
  }
  return out;
}
