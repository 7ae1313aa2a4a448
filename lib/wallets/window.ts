// A wallet's PnL over a finite window (docs/wallets.md "Leaderboard"): PnL(end) − PnL(start), where PnL(t) is the
// ledger up to t (cash received − cash paid) plus the shares held at t marked at the price in force at t. The end is
// the wallet's last computed PnL (`wallet_sync.pnl_usd` at `pnl_at`); the start is recomputed here from the ledger
// and the price history. A held outcome with no known price at the start makes the figure null, with the reason:
// never a figure with a guessed mark.
import { type Mark, walletPnl } from "@/lib/analytics/pnl";
import { processCache } from "@/lib/cache/lru";
import { getDb } from "@/lib/db/client";
import { RAW_RESOLUTION_S, STORAGE_TIERS } from "@/lib/sampled/tiers";
import { clob, gamma } from "@/lib/upstream";
import type { StoredRow } from "./ledger";

/** The leaderboard's finite windows, in seconds (Polymarket's DAY, WEEK, MONTH). */
export const WINDOW_SECONDS = { "1d": 86_400, "7d": 7 * 86_400, "30d": 30 * 86_400 } as const;

/** The CLOB's 1-minute history is asked for this far back from the instant; the last point at or before it holds. */
const MINUTE_LOOKBACK_S = 3600;
/** Resolved markets: the CLOB serves their history only at 12-hour fidelity or coarser (lib/upstream/clob.ts). */
const RESOLVED_FIDELITY_MIN = 720;
const RAW_HEARTBEAT_S = STORAGE_TIERS.find((t) => t.resolutionS === RAW_RESOLUTION_S)!.heartbeatS;

type PriceSource = "sampled" | "clob" | "clob_resolved";

interface KnownPrice {
  price: number | null;
  source: PriceSource | null;
  /** The upstream failed: not cached, the figure says so. */
  failed?: boolean;
}

interface WindowPnl {
  pnl_usd: number | null;
  /** Why `pnl_usd` is null (null when it is not). */
  note: string | null;
  start_s: number;
  end_s: number;
}

const prices = processCache<KnownPrice>("wallet-window-prices", { max: 20_000 });
const results = processCache<WindowPnl>("wallet-window-pnl", { max: 2_000 });

const iso = (s: number) => new Date(s * 1000).toISOString();
const holdingKey = (condition: string, outcome: number) => `${condition}:${outcome}`;

/** Token ids of held outcomes: the ledger's own rows, then our stored markets, then Gamma. */
async function tokensFor(rows: readonly StoredRow[], wanted: { condition: string; outcome: number }[]): Promise<Map<string, string>> {
  const tokens = new Map<string, string>();
  for (const r of rows)
    if (r.token_id && r.condition_id && r.outcome_index !== null) tokens.set(holdingKey(r.condition_id, r.outcome_index), r.token_id);
  const missing = () => [...new Set(wanted.filter((w) => !tokens.has(holdingKey(w.condition, w.outcome))).map((w) => w.condition))];
  if (missing().length) {
    const db = await getDb();
    const markets = await db.market.findMany({ where: { conditionId: { in: missing() } }, select: { id: true, conditionId: true } });
    const outcomes = await db.outcome.findMany({
      where: { marketId: { in: markets.map((m) => m.id) } },
      select: { marketId: true, index: true, tokenId: true },
    });
    const conditionOf = new Map(markets.map((m) => [m.id, m.conditionId.toLowerCase()]));
    for (const o of outcomes) tokens.set(holdingKey(conditionOf.get(o.marketId)!, o.index), o.tokenId);
  }
  if (missing().length) {
    try {
      for (const m of await gamma.getMarketsByConditionIds(missing()))
        for (const o of m.outcomes)
          if (m.condition_id && o.token_id) tokens.set(holdingKey(m.condition_id.toLowerCase(), o.index), o.token_id);
    } catch {
      // an outcome left without a token has no known price: the figure says so
    }
  }
  return tokens;
}

/** Our own 1-minute sample in force at `t`, when the sampler stored one within its heartbeat before it. */
async function storedPriceAt(tokenId: string, t: number): Promise<number | null> {
  const db = await getDb();
  const outcome = await db.outcome.findUnique({ where: { tokenId }, select: { id: true } });
  if (!outcome) return null;
  const row = await db.priceSample.findFirst({
    where: { outcomeId: outcome.id, resolutionS: RAW_RESOLUTION_S, t: { lte: new Date(t * 1000) } },
    orderBy: { t: "desc" },
  });
  return row && t - row.t.getTime() / 1000 <= RAW_HEARTBEAT_S ? row.price : null;
}

const lastAtOrBefore = (points: { t: number; p: number }[], t: number) =>
  points.filter((x) => x.t <= t).reduce<{ t: number; p: number } | null>((best, x) => (!best || x.t >= best.t ? x : best), null);

/**
 * The price of an outcome in force at `t`: our stored 1-minute samples; else the CLOB's 1-minute history's last point
 * at or before `t` (within MINUTE_LOOKBACK_S); else, for a market that had resolved by then, the final 0 or 1 of its
 * 12-hour history since the holding began. Anything else is unknown (null).
 */
async function priceAt(tokenId: string, t: number, heldSinceS: number): Promise<KnownPrice> {
  const key = `${tokenId}:${t}`;
  const hit = prices.get(key);
  if (hit) return hit;
  let known: KnownPrice;
  try {
    const stored = await storedPriceAt(tokenId, t);
    if (stored !== null) known = { price: stored, source: "sampled" };
    else {
      const minute = lastAtOrBefore(await clob.getPricesHistory(tokenId, { startTs: t - MINUTE_LOOKBACK_S, endTs: t, fidelity: 1 }), t);
      if (minute) known = { price: minute.p, source: "clob" };
      else {
        const from = Math.min(heldSinceS, t - MINUTE_LOOKBACK_S);
        const coarse = lastAtOrBefore(
          await clob.getPricesHistory(tokenId, { startTs: from, endTs: t, fidelity: RESOLVED_FIDELITY_MIN }),
          t,
        );
        known = coarse && (coarse.p === 0 || coarse.p === 1) ? { price: coarse.p, source: "clob_resolved" } : { price: null, source: null };
      }
    }
  } catch {
    return { price: null, source: null, failed: true };
  }
  prices.set(key, known);
  return known;
}

/**
 * PnL over the window of `spanS` seconds that ends at `endS`, given the wallet's PnL at `endS` and its complete
 * ledger. `cacheKey` names the ledger version and end (a result is reused until either moves).
 */
export async function windowPnl(
  rows: readonly StoredRow[],
  end: { pnl_usd: number; at_s: number },
  spanS: number,
  cacheKey: string,
): Promise<WindowPnl> {
  const key = `${cacheKey}:${end.at_s}:${spanS}`;
  const hit = results.get(key);
  if (hit) return hit;
  const startS = end.at_s - spanS;
  const before = rows.filter((r) => r.at_s <= startS);
  const held = walletPnl(before).positions.filter((p) => p.size > 0);
  const tokens = await tokensFor(
    rows,
    held.map((p) => ({ condition: p.condition_id, outcome: p.outcome_index })),
  );
  const marks = new Map<string, Mark>();
  const unknown: string[] = [];
  let failed = false;
  await Promise.all(
    held.map(async (p) => {
      const k = holdingKey(p.condition_id, p.outcome_index);
      const token = tokens.get(k);
      const known = token ? await priceAt(token, startS, p.first_at_s) : { price: null, source: null };
      if (known.price === null) {
        failed ||= "failed" in known && known.failed === true;
        const title = rows.find((r) => r.condition_id === p.condition_id && r.title)?.title ?? p.condition_id;
        const outcome = rows.find((r) => r.condition_id === p.condition_id && r.outcome_index === p.outcome_index)?.outcome;
        unknown.push(`${title} (${outcome ?? `outcome ${p.outcome_index}`})`);
      } else marks.set(k, { price: known.price, resolved: known.price === 0 || known.price === 1 });
    }),
  );
  let result: WindowPnl;
  if (unknown.length) {
    const what = `${unknown.length} outcome${unknown.length === 1 ? "" : "s"} held then, e.g. ${unknown.sort()[0]}`;
    result = {
      pnl_usd: null,
      note: failed
        ? `the price history could not be read for the window's start (${iso(startS)}): ${what}`
        : `no price is known at the window's start (${iso(startS)}) for ${what}`,
      start_s: startS,
      end_s: end.at_s,
    };
  } else {
    result = { pnl_usd: end.pnl_usd - walletPnl(before, marks).pnl_usd, note: null, start_s: startS, end_s: end.at_s };
  }
  if (!failed) results.set(key, result);
  return result;
}
