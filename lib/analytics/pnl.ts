// A wallet's profit and loss from its full activity ledger, by construction (docs/wallets.md): every activity row is
// a cash flow and a change of holdings, holdings carry an average cost, and
//   realized + unrealized = pnl = cash received − cash paid + current value
// holds exactly, whatever the order of trades, splits, merges, redemptions and conversions. Pure: no I/O, no clock.

/** The Data API's `/activity` types this accounting understands (docs.polymarket.com, get-user-activity). */
export const ACTIVITY_TYPES = ["TRADE", "SPLIT", "MERGE", "REDEEM", "REWARD", "CONVERSION", "MAKER_REBATE"] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** One `/activity` row, normalised. Amounts are as Polymarket reports them: `size` in shares, `usd` = `usdcSize`. */
export interface LedgerRow {
  type: ActivityType;
  /** Unix seconds. */
  at_s: number;
  /** Lower-case condition id; null for rows not tied to a market (some rewards). */
  condition_id: string | null;
  /** 0 = first outcome (Yes), 1 = second (No); null when the row names no outcome (splits, merges, redemptions). */
  outcome_index: number | null;
  side: "BUY" | "SELL" | null;
  size: number;
  price: number | null;
  usd: number;
  tx_hash: string | null;
}

/** The current price of an outcome and whether its market has resolved (price then 1 or 0). */
export interface Mark {
  price: number;
  resolved: boolean;
}

export type PositionStatus = "open" | "closed" | "redeemed" | "resolved_unredeemed";

export interface PositionPnl {
  condition_id: string;
  outcome_index: number;
  /** Shares held now. */
  size: number;
  /** Average cost per share of the shares held (0 when none). */
  avg_price: number;
  /** Cost basis of the shares held. */
  cost_usd: number;
  /** Current price, null when unknown (the holding is then valued at its cost: unrealized 0, counted in `unpriced`). */
  current_price: number | null;
  value_usd: number;
  realized_pnl_usd: number;
  unrealized_pnl_usd: number;
  status: PositionStatus;
  first_at_s: number;
  last_at_s: number;
}

interface WalletPnl {
  positions: PositionPnl[];
  /** Realized on positions plus income (rewards, maker rebates). */
  realized_pnl_usd: number;
  unrealized_pnl_usd: number;
  pnl_usd: number;
  /** Rewards and maker rebates. */
  income_usd: number;
  cash_in_usd: number;
  cash_out_usd: number;
  value_usd: number;
  /** TRADE rows (every fill, taker or maker). */
  trades: number;
  /** Σ usd of TRADE rows. */
  volume_usd: number;
  markets_traded: number;
  open_positions: number;
  /** Share of resolved markets with a positive PnL; null when none resolved. */
  win_rate: number | null;
  resolved_markets: number;
  /** Holdings with no known price (valued at cost). */
  unpriced: number;
  /** Rows the holdings could not honour (a sale or burn of more shares than held, a redemption with nothing held). */
  anomalies: number;
  first_at_s: number | null;
  last_at_s: number | null;
}

const EPS = 1e-9;
const key = (condition: string, outcome: number) => `${condition}:${outcome}`;

interface Holding {
  condition_id: string;
  outcome_index: number;
  shares: number;
  cost: number;
  realized: number;
  redeemed: boolean;
  first_at_s: number;
  last_at_s: number;
}

/** Acquisitions before disposals within one second: the Data API gives no order inside a second. */
function rank(row: LedgerRow): number {
  if (row.type === "TRADE") return row.side === "BUY" ? 0 : 2;
  if (row.type === "SPLIT" || row.type === "CONVERSION") return 1;
  return 3;
}

/** Oldest first; within one second acquisitions first, then the upstream's order reversed (it lists newest first). */
function chronological(rows: readonly LedgerRow[]): LedgerRow[] {
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => a.row.at_s - b.row.at_s || rank(a.row) - rank(b.row) || b.i - a.i)
    .map((x) => x.row);
}

class Book {
  readonly holdings = new Map<string, Holding>();
  cashIn = 0;
  cashOut = 0;
  income = 0;
  anomalies = 0;
  /** Realized PnL booked so far, income included (the running total behind realizedSeries). */
  realized = 0;

  holding(condition: string, outcome: number, at: number): Holding {
    const k = key(condition, outcome);
    let h = this.holdings.get(k);
    if (!h) {
      h = {
        condition_id: condition,
        outcome_index: outcome,
        shares: 0,
        cost: 0,
        realized: 0,
        redeemed: false,
        first_at_s: at,
        last_at_s: at,
      };
      this.holdings.set(k, h);
    }
    h.last_at_s = Math.max(h.last_at_s, at);
    return h;
  }

  private book(h: Holding, amount: number): void {
    h.realized += amount;
    this.realized += amount;
  }

  private acquire(h: Holding, shares: number, cost: number): void {
    h.shares += shares;
    h.cost += cost;
    h.redeemed = false;
  }

  /** Takes `shares` out of a holding at its average cost and returns the cost taken; selling more than held is an anomaly. */
  private remove(h: Holding, shares: number): number {
    const held = Math.max(0, h.shares);
    const taken = Math.min(shares, held);
    if (shares > held + 1e-6) this.anomalies++;
    const removed = held > EPS ? (h.cost * taken) / held : 0;
    h.shares = held - taken;
    h.cost -= removed;
    if (h.shares <= EPS) {
      h.shares = 0;
      h.cost = 0;
    }
    return removed;
  }

  private dispose(h: Holding, shares: number, proceeds: number): void {
    this.book(h, proceeds - this.remove(h, shares));
  }

  apply(row: LedgerRow, group: LedgerRow[]): void {
    const c = row.condition_id;
    switch (row.type) {
      case "TRADE": {
        if (c === null || row.outcome_index === null) return void this.anomalies++;
        const h = this.holding(c, row.outcome_index, row.at_s);
        if (row.side === "BUY") {
          this.cashOut += row.usd;
          this.acquire(h, row.size, row.usd);
        } else {
          this.cashIn += row.usd;
          this.dispose(h, row.size, row.usd);
        }
        return;
      }
      case "SPLIT": {
        if (c === null) return void this.anomalies++;
        // 1 USD → one share of each outcome; the cost is split evenly between the two outcomes.
        this.cashOut += row.usd;
        for (const o of [0, 1]) this.acquire(this.holding(c, o, row.at_s), row.size, row.usd / 2);
        return;
      }
      case "MERGE": {
        if (c === null) return void this.anomalies++;
        // One share of each outcome → 1 USD; the proceeds are split evenly between the two outcomes.
        this.cashIn += row.usd;
        for (const o of [0, 1]) this.dispose(this.holding(c, o, row.at_s), row.size, row.usd / 2);
        return;
      }
      case "REDEEM": {
        if (c === null) return void this.anomalies++;
        this.redeem(c, row);
        return;
      }
      case "REWARD":
      case "MAKER_REBATE":
        this.cashIn += row.usd;
        this.income += row.usd;
        this.realized += row.usd;
        return;
      case "CONVERSION":
        this.convert(group);
        return;
    }
  }

  /**
   * A redemption burns every share of the condition and pays `usd`. The payout is attributed to the outcome whose
   * shares it equals (the winner; the loser gets 0), else to the outcomes in proportion to their shares.
   */
  private redeem(condition: string, row: LedgerRow): void {
    this.cashIn += row.usd;
    const held = [0, 1].map((o) => this.holdings.get(key(condition, o))).filter((h): h is Holding => !!h && h.shares > EPS);
    if (held.length === 0) {
      this.anomalies++;
      const h = this.holding(condition, 0, row.at_s);
      this.book(h, row.usd);
      h.redeemed = true;
      return;
    }
    const winner = held.find((h) => Math.abs(h.shares - row.usd) <= 1e-6 * Math.max(1, row.usd));
    const total = held.reduce((s, h) => s + h.shares, 0);
    for (const h of held) {
      const payout = winner ? (h === winner ? row.usd : 0) : (row.usd * h.shares) / total;
      h.last_at_s = Math.max(h.last_at_s, row.at_s);
      this.dispose(h, h.shares, payout);
      h.redeemed = true;
    }
  }

  /**
   * Neg-risk conversion (one transaction, several rows): No shares (outcome 1) of k markets of an event are burnt for
   * Yes shares (outcome 0) of each other market plus (k − 1) USD per share. The burnt shares' cost goes first against
   * the USD received (a gain only when the USD exceeds it); the rest becomes the cost of the Yes shares received.
   */
  private convert(legs: LedgerRow[]): void {
    const usd = legs.reduce((s, l) => s + l.usd, 0);
    this.cashIn += usd;
    const burnt: { h: Holding; size: number }[] = [];
    const minted: { h: Holding; size: number }[] = [];
    let burntCost = 0;
    for (const leg of legs) {
      if (leg.condition_id === null || leg.outcome_index === null) {
        this.anomalies++;
        continue;
      }
      const h = this.holding(leg.condition_id, leg.outcome_index, leg.at_s);
      if (leg.outcome_index === 1) {
        burntCost += this.remove(h, leg.size);
        burnt.push({ h, size: leg.size });
      } else minted.push({ h, size: leg.size });
    }
    const carried = minted.length ? Math.max(0, burntCost - usd) : 0;
    const gain = usd - burntCost + carried;
    const burntShares = burnt.reduce((s, b) => s + b.size, 0);
    if (burnt.length === 0) this.realized += gain; // USD with nothing burnt: income of the conversion
    for (const b of burnt) this.book(b.h, (gain * b.size) / burntShares);
    const mintedShares = minted.reduce((s, m) => s + m.size, 0);
    for (const m of minted) this.acquire(m.h, m.size, (carried * m.size) / mintedShares);
  }
}

/** Rows of one conversion share a transaction (and a second); without a hash each row stands alone. */
function conversionGroups(rows: LedgerRow[]): Map<LedgerRow, LedgerRow[]> {
  const groups = new Map<LedgerRow, LedgerRow[]>();
  const byTx = new Map<string, LedgerRow[]>();
  for (const row of rows) {
    if (row.type !== "CONVERSION") continue;
    if (!row.tx_hash) {
      groups.set(row, [row]);
      continue;
    }
    const k = `${row.tx_hash}:${row.at_s}`;
    const list = byTx.get(k);
    if (list) list.push(row);
    else {
      const fresh = [row];
      byTx.set(k, fresh);
      groups.set(row, fresh);
    }
  }
  return groups;
}

/** Replays a ledger (any order) into holdings and cash flows. */
function replay(rows: readonly LedgerRow[], after?: (second: number, realized: number) => void): Book {
  const book = new Book();
  const ordered = chronological(rows);
  const groups = conversionGroups(ordered);
  for (const row of ordered) {
    if (row.type === "CONVERSION") {
      const group = groups.get(row);
      if (group) book.apply(row, group); // the group's first row applies it; the others are part of it
    } else book.apply(row, []);
    after?.(row.at_s, book.realized);
  }
  return book;
}

/**
 * PnL of a wallet from its ledger and the current marks (by `condition:outcome`). Unrounded: callers round for display
 * (roundUsd) so sums stay exact.
 */
export function walletPnl(rows: readonly LedgerRow[], marks: ReadonlyMap<string, Mark> = new Map()): WalletPnl {
  const book = replay(rows);
  const positions: PositionPnl[] = [];
  const realized = book.realized;
  let unrealized = 0;
  let value = 0;
  let unpriced = 0;
  const marketPnl = new Map<string, { pnl: number; resolved: boolean }>();
  for (const h of book.holdings.values()) {
    const mark = marks.get(key(h.condition_id, h.outcome_index)) ?? null;
    const open = h.shares > EPS;
    if (open && !mark) unpriced++;
    const price = mark?.price ?? null;
    const val = open ? (price === null ? h.cost : h.shares * price) : 0;
    const unr = open ? val - h.cost : 0;
    const status: PositionStatus = h.redeemed && !open ? "redeemed" : open ? (mark?.resolved ? "resolved_unredeemed" : "open") : "closed";
    positions.push({
      condition_id: h.condition_id,
      outcome_index: h.outcome_index,
      size: open ? h.shares : 0,
      avg_price: open ? h.cost / h.shares : 0,
      cost_usd: open ? h.cost : 0,
      current_price: price,
      value_usd: val,
      realized_pnl_usd: h.realized,
      unrealized_pnl_usd: unr,
      status,
      first_at_s: h.first_at_s,
      last_at_s: h.last_at_s,
    });
    unrealized += unr;
    value += val;
    const m = marketPnl.get(h.condition_id) ?? { pnl: 0, resolved: false };
    m.pnl += h.realized + unr;
    m.resolved ||= status === "redeemed" || status === "resolved_unredeemed";
    marketPnl.set(h.condition_id, m);
  }
  const resolved = [...marketPnl.values()].filter((m) => m.resolved);
  const tradesRows = rows.filter((r) => r.type === "TRADE");
  const conditions = new Set(
    rows.filter((r) => r.condition_id !== null && r.type !== "REWARD" && r.type !== "MAKER_REBATE").map((r) => r.condition_id),
  );
  return {
    positions: positions.sort(
      (a, b) => b.last_at_s - a.last_at_s || a.condition_id.localeCompare(b.condition_id) || a.outcome_index - b.outcome_index,
    ),
    realized_pnl_usd: realized,
    unrealized_pnl_usd: unrealized,
    pnl_usd: realized + unrealized,
    income_usd: book.income,
    cash_in_usd: book.cashIn,
    cash_out_usd: book.cashOut,
    value_usd: value,
    trades: tradesRows.length,
    volume_usd: tradesRows.reduce((s, r) => s + r.usd, 0),
    markets_traded: conditions.size,
    open_positions: positions.filter((p) => p.size > 0).length,
    win_rate: resolved.length ? resolved.filter((m) => m.pnl > 0).length / resolved.length : null,
    resolved_markets: resolved.length,
    unpriced,
    anomalies: book.anomalies,
    first_at_s: rows.length ? rows.reduce((m, r) => Math.min(m, r.at_s), Infinity) : null,
    last_at_s: rows.length ? rows.reduce((m, r) => Math.max(m, r.at_s), -Infinity) : null,
  };
}

/**
 * Cumulative realized PnL (income included) after each second with activity, oldest first, at most `maxPoints`
 * points (evenly thinned, the last point always kept). The dashboard's PnL chart; its last point plus the unrealized
 * PnL is `pnl_usd`.
 */
export function realizedSeries(rows: readonly LedgerRow[], maxPoints = 500): { t: number; realized_usd: number }[] {
  const points: { t: number; realized_usd: number }[] = [];
  replay(rows, (second, realized) => {
    if (points.length && points[points.length - 1].t === second) points[points.length - 1].realized_usd = realized;
    else points.push({ t: second, realized_usd: realized });
  });
  if (points.length <= maxPoints) return points;
  const step = points.length / maxPoints;
  const thinned = Array.from({ length: maxPoints - 1 }, (_, i) => points[Math.floor(i * step)]);
  thinned.push(points[points.length - 1]);
  return thinned;
}
