// Wallet answers: the summary (our figures from the ledger beside Polymarket's own), positions and activity
// (docs/wallets.md; the leaderboard is leaderboard.ts). Every upstream figure that fails is null and named in
// `meta.degraded`; the ledger's own completeness is `meta.complete` / `meta.rows_read`.
import { type Mark, type PositionPnl, realizedSeries, walletPnl } from "@/lib/analytics/pnl";
import { roundUsd } from "@/lib/analytics/money";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { data, wallets as upstreamWallets } from "@/lib/upstream";
import type { NormalizedPosition } from "@/lib/upstream";
import { type LedgerState, ledgerRows, refreshLedger, type StoredRow } from "./ledger";
import { walletLabels } from "./labels";

/** `/positions` pages of 500 up to its documented offset cap (10,000). */
const POSITIONS_PAGE = 500;
const POSITIONS_OFFSET_CAP = 10_000;
/** Fills sampled from `/trades?user=` for the maker share. */
const MAKER_SAMPLE = 500;
const SERIES_POINTS = 200;

const iso = (s: number | null) => (s === null ? null : new Date(s * 1000).toISOString());
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

interface WalletOptions {
  pageBudget?: number;
  now?: () => number;
}

async function allPositions(address: string): Promise<NormalizedPosition[]> {
  const out: NormalizedPosition[] = [];
  for (let offset = 0; offset <= POSITIONS_OFFSET_CAP; offset += POSITIONS_PAGE) {
    const page = await data.getPositions(address, { limit: POSITIONS_PAGE, offset, sizeThreshold: 0 });
    out.push(...page);
    if (page.length < POSITIONS_PAGE) break;
  }
  return out;
}

/** Maker share over the latest fills: 1 − taker fills / all fills, over the span the all-fills page covers. */
async function makerShare(address: string): Promise<number | null> {
  const [all, taker] = await Promise.all([
    data.listTrades({ user: address, takerOnly: false, limit: MAKER_SAMPLE }),
    data.listTrades({ user: address, takerOnly: true, limit: MAKER_SAMPLE }),
  ]);
  if (all.trades.length === 0) return null;
  const oldest = all.trades.reduce((m, t) => Math.min(m, t.timestamp_s), Infinity);
  const takerCount = taker.trades.filter((t) => all.trades.length < MAKER_SAMPLE || t.timestamp_s >= oldest).length;
  return Math.max(0, Math.min(1, 1 - takerCount / all.trades.length));
}

async function settle<T>(name: string, degraded: string[], work: () => Promise<T>): Promise<T | null> {
  try {
    return await work();
  } catch {
    degraded.push(name);
    return null;
  }
}

/** Prices of held outcomes: `/positions` first, then our sampled prices by token id. */
async function marksFor(rows: StoredRow[], positions: NormalizedPosition[] | null): Promise<Map<string, Mark>> {
  const marks = new Map<string, Mark>();
  for (const p of positions ?? []) {
    if (p.current_price === null || p.outcome_index === null) continue;
    marks.set(`${p.condition_id.toLowerCase()}:${p.outcome_index}`, { price: p.current_price, resolved: p.redeemable === true });
  }
  const tokens = new Map<string, string>();
  for (const r of rows) {
    if (r.token_id && r.condition_id && r.outcome_index !== null) {
      const k = `${r.condition_id}:${r.outcome_index}`;
      if (!marks.has(k)) tokens.set(r.token_id, k);
    }
  }
  if (tokens.size) {
    const db = await getDb();
    const outcomes = await db.outcome.findMany({
      where: { tokenId: { in: [...tokens.keys()] } },
      select: { tokenId: true, price: true, marketId: true },
    });
    const closed = new Set(
      (await db.market.findMany({ where: { id: { in: outcomes.map((o) => o.marketId) }, closed: true }, select: { id: true } })).map(
        (m) => m.id,
      ),
    );
    for (const o of outcomes) {
      if (o.price === null) continue;
      marks.set(tokens.get(o.tokenId)!, { price: o.price, resolved: closed.has(o.marketId) && (o.price === 0 || o.price === 1) });
    }
  }
  return marks;
}

async function marketIds(conditions: string[]): Promise<Map<string, string>> {
  if (conditions.length === 0) return new Map();
  const db = await getDb();
  const markets = await db.market.findMany({ where: { conditionId: { in: conditions } }, select: { id: true, conditionId: true } });
  return new Map(markets.map((m) => [m.conditionId.toLowerCase(), m.id]));
}

interface Computed {
  state: LedgerState;
  rows: StoredRow[];
  pnl: ReturnType<typeof walletPnl>;
  positions: NormalizedPosition[] | null;
  degraded: string[];
}

/** Brings the ledger up to date (within the page budget), prices it and stores the PnL of a complete ledger. */
export async function compute(address: string, options: WalletOptions): Promise<Computed> {
  const state = await refreshLedger(address, { pageBudget: options.pageBudget ?? env.WALLET_READ_PAGES, now: options.now });
  const degraded: string[] = [];
  const [rows, positions] = await Promise.all([ledgerRows(address, state), settle("positions", degraded, () => allPositions(address))]);
  const pnl = walletPnl(rows, await marksFor(rows, positions));
  if (state.complete) {
    // A holding with no current price would be valued at its cost: the leaderboard shows no figure rather than that.
    const db = await getDb();
    await db.walletSync.updateMany({
      where: { wallet: address },
      data: { pnlUsd: pnl.unpriced === 0 ? pnl.pnl_usd : null, pnlAt: new Date((options.now ?? Date.now)()) },
    });
  }
  return { state, rows, pnl, positions, degraded };
}

function ledgerMeta(state: LedgerState, degraded: string[]) {
  return {
    source: "live" as const,
    as_of: iso(state.head_s),
    complete: state.complete && state.error === null,
    rows_read: state.rows_read,
    rows_dropped: state.rows_dropped,
    reading: state.reading,
    degraded,
    ...(state.error ? { error: state.error } : {}),
  };
}

export async function walletSummary(address: string, options: WalletOptions = {}) {
  const nowS = Math.floor((options.now ?? Date.now)() / 1000);
  const { state, rows, pnl, positions, degraded } = await compute(address, options);
  const [value, board, maker] = await Promise.all([
    settle("value", degraded, () => upstreamWallets.getValue(address)),
    settle("leaderboard", degraded, () => upstreamWallets.getLeaderboard({ period: "ALL", order: "PNL", user: address, limit: 1 })),
    settle("maker_share", degraded, () => makerShare(address)),
  ]);
  const listed = board?.find((r) => r.wallet === address) ?? null;
  const trades = rows.filter((r) => r.type === "TRADE");
  const sidesByMarket = new Map<string, Set<string>>();
  for (const t of trades) sidesByMarket.set(t.condition_id!, (sidesByMarket.get(t.condition_id!) ?? new Set()).add(t.side!));
  const days = new Set(trades.map((t) => Math.floor(t.at_s / 86_400)));
  const open = pnl.positions.filter((p) => p.size > 0);
  const labels = walletLabels({
    now_s: nowS,
    first_at_s: pnl.first_at_s,
    fills: pnl.trades,
    maker_share: maker,
    two_sided_share: sidesByMarket.size ? [...sidesByMarket.values()].filter((s) => s.size === 2).length / sidesByMarket.size : null,
    max_position_usd: open.reduce((m, p) => Math.max(m, p.cost_usd, p.value_usd), 0),
    value_usd: pnl.value_usd,
    win_rate: pnl.win_rate,
    resolved_markets: pnl.resolved_markets,
    winning_redemptions: rows.filter((r) => r.type === "REDEEM" && r.usd > 0).length,
    active_days: days.size,
  });
  const positionsSum = positions ? positions.reduce((s, p) => s + (p.cash_pnl_usd ?? 0) + (p.realized_pnl_usd ?? 0), 0) : null;
  return {
    data: {
      address,
      name: state.name,
      pseudonym: state.pseudonym,
      first_activity_at: iso(pnl.first_at_s),
      last_activity_at: iso(pnl.last_at_s),
      trades: pnl.trades,
      volume_usd: roundUsd(pnl.volume_usd),
      markets_traded: pnl.markets_traded,
      open_positions: pnl.open_positions,
      value_usd: roundUsd(pnl.value_usd),
      realized_pnl_usd: roundUsd(pnl.realized_pnl_usd),
      unrealized_pnl_usd: roundUsd(pnl.unrealized_pnl_usd),
      pnl_usd: roundUsd(pnl.pnl_usd),
      income_usd: roundUsd(pnl.income_usd),
      win_rate: pnl.win_rate === null ? null : round6(pnl.win_rate),
      resolved_markets: pnl.resolved_markets,
      maker_share: maker === null ? null : round6(maker),
      labels,
      polymarket: {
        value_usd: value === null ? null : roundUsd(value),
        leaderboard_pnl_usd: listed?.pnl_usd === null || listed === null ? null : roundUsd(listed.pnl_usd),
        leaderboard_volume: listed?.volume ?? null,
        leaderboard_rank: listed?.rank ?? null,
        positions_pnl_usd: positionsSum === null ? null : roundUsd(positionsSum),
      },
      pnl_difference_usd: listed?.pnl_usd === null || listed === null ? null : roundUsd(pnl.pnl_usd - listed.pnl_usd),
      positions_difference_usd: positionsSum === null ? null : roundUsd(pnl.pnl_usd - positionsSum),
      pnl_series: realizedSeries(rows, SERIES_POINTS).map((p) => ({ t: p.t, realized_pnl_usd: roundUsd(p.realized_usd) })),
    },
    meta: { ...ledgerMeta(state, degraded), unpriced_positions: pnl.unpriced, anomalies: pnl.anomalies },
  };
}

type PositionsStatus = "open" | "closed" | "all";

export async function walletPositions(
  address: string,
  query: { status: PositionsStatus; limit: number; offset: number },
  options: WalletOptions = {},
) {
  const { state, rows, pnl, degraded } = await compute(address, options);
  const wanted = (p: PositionPnl) =>
    query.status === "all" ||
    (query.status === "open"
      ? p.status === "open" || p.status === "resolved_unredeemed"
      : p.status === "closed" || p.status === "redeemed");
  const selected = pnl.positions.filter(wanted).sort((a, b) => b.value_usd - a.value_usd || b.last_at_s - a.last_at_s);
  const page = selected.slice(query.offset, query.offset + query.limit);
  const info = new Map<string, StoredRow>();
  for (const r of rows)
    if (r.condition_id && !info.has(`${r.condition_id}:${r.outcome_index}`)) info.set(`${r.condition_id}:${r.outcome_index}`, r);
  const byCondition = new Map<string, StoredRow>();
  for (const r of rows) if (r.condition_id && r.title && !byCondition.has(r.condition_id)) byCondition.set(r.condition_id, r);
  const ids = await marketIds([...new Set(page.map((p) => p.condition_id))]);
  return {
    data: page.map((p) => {
      const any = byCondition.get(p.condition_id);
      const own = info.get(`${p.condition_id}:${p.outcome_index}`);
      return {
        market_id: ids.get(p.condition_id) ?? null,
        condition_id: p.condition_id,
        question: any?.title ?? null,
        event_slug: any?.event_slug ?? null,
        outcome: own?.outcome ?? null,
        outcome_index: p.outcome_index,
        size: round6(p.size),
        avg_price: round6(p.avg_price),
        cost_usd: roundUsd(p.cost_usd),
        current_price: p.current_price,
        value_usd: roundUsd(p.value_usd),
        realized_pnl_usd: roundUsd(p.realized_pnl_usd),
        unrealized_pnl_usd: roundUsd(p.unrealized_pnl_usd),
        status: p.status,
      };
    }),
    meta: { ...ledgerMeta(state, degraded), limit: query.limit, offset: query.offset, total: selected.length, count: page.length },
  };
}

// A cursor is the last row's time and key as they are (`<seconds>:<key>`): every string of that form is a place in the
// ledger, so a cursor is valid by its shape alone (the contract's pattern) and never decodes to garbage.
export const ACTIVITY_CURSOR_PATTERN = /^(\d{1,12}):([A-Za-z0-9_-]{22}\.\d{1,6})$/;

function encodeCursor(row: StoredRow): string {
  return `${row.at_s}:${row.key}`;
}

export function decodeCursor(cursor: string): { at_s: number; key: string } | null {
  const match = ACTIVITY_CURSOR_PATTERN.exec(cursor);
  return match ? { at_s: Number(match[1]), key: match[2] } : null;
}

export async function walletActivity(
  address: string,
  query: { type?: StoredRow["type"]; limit: number; cursor?: { at_s: number; key: string } },
  options: WalletOptions = {},
) {
  const state = await refreshLedger(address, { pageBudget: options.pageBudget ?? env.WALLET_READ_PAGES, now: options.now });
  const rows = await ledgerRows(address, state);
  const c = query.cursor;
  const selected = rows.filter(
    (r) => (query.type ? r.type === query.type : true) && (c ? r.at_s < c.at_s || (r.at_s === c.at_s && r.key > c.key) : true),
  );
  const page = selected.slice(0, query.limit);
  const ids = await marketIds([...new Set(page.map((r) => r.condition_id).filter((x): x is string => x !== null))]);
  const more = selected.length > query.limit;
  return {
    data: page.map((r) => ({
      type: r.type,
      at: new Date(r.at_s * 1000).toISOString(),
      market_id: r.condition_id ? (ids.get(r.condition_id) ?? null) : null,
      condition_id: r.condition_id,
      question: r.title,
      outcome: r.outcome,
      outcome_index: r.outcome_index,
      side: r.side,
      size: round6(r.size),
      price: r.price,
      usd: roundUsd(r.usd),
      tx_hash: r.tx_hash,
    })),
    meta: {
      ...ledgerMeta(state, []),
      limit: query.limit,
      count: page.length,
      next_cursor: more ? encodeCursor(page[page.length - 1]) : null,
    },
  };
}
