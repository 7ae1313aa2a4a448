// PnL by construction (docs/wallets.md): one hand-computed ledger per activity type and a mixed one, to the cent.
import { describe, expect, it } from "vitest";
import { type LedgerRow, type Mark, realizedSeries, walletPnl } from "@/lib/analytics/pnl";
import { roundUsd } from "@/lib/analytics/money";

const A = "0xaaa";
const B = "0xbbb";
const C = "0xccc";

function trade(at: number, condition: string, outcome: number, side: "BUY" | "SELL", size: number, price: number): LedgerRow {
  return {
    type: "TRADE",
    at_s: at,
    condition_id: condition,
    outcome_index: outcome,
    side,
    size,
    price,
    usd: size * price,
    tx_hash: `0xt${at}`,
  };
}
function row(
  type: LedgerRow["type"],
  at: number,
  condition: string | null,
  size: number,
  usd: number,
  extra: Partial<LedgerRow> = {},
): LedgerRow {
  return {
    type,
    at_s: at,
    condition_id: condition,
    outcome_index: null,
    side: null,
    size,
    price: null,
    usd,
    tx_hash: `0x${type}${at}`,
    ...extra,
  };
}
const marks = (entries: [string, number, number, boolean?][]) =>
  new Map<string, Mark>(entries.map(([c, o, price, resolved]) => [`${c}:${o}`, { price, resolved: resolved ?? false }]));

/** The invariant every ledger must hold: realized + unrealized = pnl = cash in − cash out + value. */
function expectBalanced(p: ReturnType<typeof walletPnl>) {
  expect(roundUsd(p.realized_pnl_usd + p.unrealized_pnl_usd)).toBe(roundUsd(p.pnl_usd));
  expect(roundUsd(p.cash_in_usd - p.cash_out_usd + p.value_usd)).toBe(roundUsd(p.pnl_usd));
}

describe("walletPnl, one activity type at a time", () => {
  it("trades: average cost over two buys, a partial sale realized, the rest marked", () => {
    // 100 @ 0.40 + 100 @ 0.60 = 200 shares for $100 (avg 0.50); sell 50 @ 0.70 = $35 against $25 of cost → +$10;
    // 150 left at cost $75, marked 0.80 → $120, unrealized +$45.
    const p = walletPnl(
      [trade(1, A, 0, "BUY", 100, 0.4), trade(2, A, 0, "BUY", 100, 0.6), trade(3, A, 0, "SELL", 50, 0.7)],
      marks([[A, 0, 0.8]]),
    );
    expect(roundUsd(p.realized_pnl_usd)).toBe(10);
    expect(roundUsd(p.unrealized_pnl_usd)).toBe(45);
    expect(roundUsd(p.pnl_usd)).toBe(55);
    const pos = p.positions.find((x) => x.outcome_index === 0)!;
    expect(pos.size).toBe(150);
    expect(pos.avg_price).toBeCloseTo(0.5, 12);
    expect(roundUsd(pos.cost_usd)).toBe(75);
    expect(roundUsd(pos.value_usd)).toBe(120);
    expect(pos.status).toBe("open");
    expect(p.trades).toBe(3);
    expect(roundUsd(p.volume_usd)).toBe(135);
    expectBalanced(p);
  });

  it("split: $100 → 100 of each outcome at $50 each; selling the No side realizes against its half", () => {
    const p = walletPnl([row("SPLIT", 1, A, 100, 100), trade(2, A, 1, "SELL", 100, 0.3)], marks([[A, 0, 0.65]]));
    // No: $30 − $50 = −$20 realized; Yes: 100 × 0.65 = $65 against $50 → +$15.
    expect(roundUsd(p.realized_pnl_usd)).toBe(-20);
    expect(roundUsd(p.unrealized_pnl_usd)).toBe(15);
    expect(roundUsd(p.pnl_usd)).toBe(-5);
    expect(p.positions.find((x) => x.outcome_index === 1)!.status).toBe("closed");
    expectBalanced(p);
  });

  it("merge: 100 Yes ($45) + 100 No ($52) → $100, each side credited $50", () => {
    const p = walletPnl([trade(1, A, 0, "BUY", 100, 0.45), trade(2, A, 1, "BUY", 100, 0.52), row("MERGE", 3, A, 100, 100)]);
    const yes = p.positions.find((x) => x.outcome_index === 0)!;
    const no = p.positions.find((x) => x.outcome_index === 1)!;
    expect(roundUsd(yes.realized_pnl_usd)).toBe(5);
    expect(roundUsd(no.realized_pnl_usd)).toBe(-2);
    expect(roundUsd(p.pnl_usd)).toBe(3);
    expect(p.open_positions).toBe(0);
    expectBalanced(p);
  });

  it("redeem: the winner pays $1 a share, the loser $0, and both are counted after they leave /positions", () => {
    // 200 Yes for $60 and 50 No for $30; Yes wins; the redemption pays $200.
    const p = walletPnl([trade(1, A, 0, "BUY", 200, 0.3), trade(2, A, 1, "BUY", 50, 0.6), row("REDEEM", 3, A, 250, 200)]);
    expect(roundUsd(p.positions.find((x) => x.outcome_index === 0)!.realized_pnl_usd)).toBe(140);
    expect(roundUsd(p.positions.find((x) => x.outcome_index === 1)!.realized_pnl_usd)).toBe(-30);
    expect(roundUsd(p.pnl_usd)).toBe(110);
    expect(p.positions.every((x) => x.status === "redeemed")).toBe(true);
    expect(p.win_rate).toBe(1);
    expect(p.value_usd).toBe(0);
    expectBalanced(p);
  });

  it("redeem of a loser pays $0 and loses the cost", () => {
    const p = walletPnl([trade(1, A, 1, "BUY", 100, 0.4), row("REDEEM", 2, A, 100, 0)]);
    expect(roundUsd(p.pnl_usd)).toBe(-40);
    expect(p.win_rate).toBe(0);
    expectBalanced(p);
  });

  it("neg-risk conversion: No of A and B ($150) → Yes of C and $100; $50 of cost carried to Yes C", () => {
    const legs: LedgerRow[] = [
      row("CONVERSION", 3, A, 100, 50, { outcome_index: 1, tx_hash: "0xconv" }),
      row("CONVERSION", 3, B, 100, 50, { outcome_index: 1, tx_hash: "0xconv" }),
      row("CONVERSION", 3, C, 100, 0, { outcome_index: 0, tx_hash: "0xconv" }),
    ];
    const p = walletPnl([trade(1, A, 1, "BUY", 100, 0.7), trade(2, B, 1, "BUY", 100, 0.8), ...legs], marks([[C, 0, 0.1]]));
    const yesC = p.positions.find((x) => x.condition_id === C)!;
    expect(roundUsd(yesC.cost_usd)).toBe(50);
    expect(yesC.avg_price).toBeCloseTo(0.5, 12);
    expect(roundUsd(p.realized_pnl_usd)).toBe(0);
    expect(roundUsd(p.unrealized_pnl_usd)).toBe(-40);
    expect(roundUsd(p.pnl_usd)).toBe(-40);
    expectBalanced(p);
  });

  it("neg-risk conversion worth more than its cost realizes the excess; Yes received at cost 0", () => {
    const legs: LedgerRow[] = [
      row("CONVERSION", 3, A, 100, 100, { outcome_index: 1, tx_hash: "0xconv" }),
      row("CONVERSION", 3, B, 100, 0, { outcome_index: 1, tx_hash: "0xconv" }),
      row("CONVERSION", 3, C, 100, 0, { outcome_index: 0, tx_hash: "0xconv" }),
    ];
    const p = walletPnl([trade(1, A, 1, "BUY", 100, 0.4), trade(2, B, 1, "BUY", 100, 0.45), ...legs], marks([[C, 0, 0.05]]));
    expect(roundUsd(p.realized_pnl_usd)).toBe(15);
    expect(roundUsd(p.positions.find((x) => x.condition_id === A)!.realized_pnl_usd)).toBe(7.5);
    expect(roundUsd(p.positions.find((x) => x.condition_id === C)!.cost_usd)).toBe(0);
    expect(roundUsd(p.unrealized_pnl_usd)).toBe(5);
    expect(roundUsd(p.pnl_usd)).toBe(20);
    expectBalanced(p);
  });

  it("rewards and maker rebates are income: realized, no position", () => {
    const p = walletPnl([row("REWARD", 1, A, 12.34, 12.34), row("MAKER_REBATE", 2, null, 0.56, 0.56)]);
    expect(roundUsd(p.realized_pnl_usd)).toBe(12.9);
    expect(roundUsd(p.income_usd)).toBe(12.9);
    expect(p.positions).toHaveLength(0);
    expectBalanced(p);
  });
});

describe("walletPnl, a mixed ledger", () => {
  // A: buy 100 Yes @ 0.40; split $50; sell 60 Yes @ 0.55; merge 50; A resolves Yes, redeem 40 Yes for $40.
  // B: buy 200 Yes @ 0.25, marked 0.35. A reward of $5.
  // By hand: after the split Yes = 150 sh / $65, No = 50 / $25. Sale: 60 × 65/150 = $26 of cost for $33 → +7.
  // Merge: Yes 50 × 39/90 = $21.666… of cost for $25 → +3.333…; No $25 for $25 → 0. Redeem: $40 − $17.333… → +22.666….
  // A realized 33.00; B unrealized 200 × (0.35 − 0.25) = 20.00; reward 5.00 → realized 38.00, pnl 58.00.
  const ledger: LedgerRow[] = [
    trade(1, A, 0, "BUY", 100, 0.4),
    row("SPLIT", 2, A, 50, 50),
    trade(3, A, 0, "SELL", 60, 0.55),
    row("MERGE", 4, A, 50, 50),
    row("REDEEM", 5, A, 40, 40),
    trade(6, B, 0, "BUY", 200, 0.25),
    row("REWARD", 7, null, 5, 5),
  ];
  const m = marks([[B, 0, 0.35]]);

  it("matches the hand-computed figures", () => {
    const p = walletPnl(ledger, m);
    expect(roundUsd(p.realized_pnl_usd)).toBe(38);
    expect(roundUsd(p.unrealized_pnl_usd)).toBe(20);
    expect(roundUsd(p.pnl_usd)).toBe(58);
    expect(roundUsd(p.cash_in_usd)).toBe(128);
    expect(roundUsd(p.cash_out_usd)).toBe(140);
    expect(roundUsd(p.value_usd)).toBe(70);
    expect(p.trades).toBe(3);
    expect(roundUsd(p.volume_usd)).toBe(123);
    expect(p.markets_traded).toBe(2);
    expect(p.open_positions).toBe(1);
    expect(p.win_rate).toBe(1);
    expect(p.anomalies).toBe(0);
    expectBalanced(p);
  });

  it("gives the same answer whatever order the rows arrive in (the Data API lists newest first)", () => {
    expect(walletPnl([...ledger].reverse(), m)).toEqual(walletPnl(ledger, m));
  });

  it("the realized series ends at the realized PnL", () => {
    const series = realizedSeries(ledger);
    expect(series.map((p) => p.t)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(roundUsd(series[series.length - 1].realized_usd)).toBe(38);
    expect(roundUsd(series[2].realized_usd)).toBe(7);
    expect(realizedSeries(ledger, 3)).toHaveLength(3);
  });
});

describe("walletPnl, what it cannot know", () => {
  it("a holding without a price is valued at its cost and counted", () => {
    const p = walletPnl([trade(1, A, 0, "BUY", 10, 0.5)]);
    expect(p.unpriced).toBe(1);
    expect(p.value_usd).toBe(5);
    expect(p.unrealized_pnl_usd).toBe(0);
  });

  it("selling more than the ledger holds is counted as an anomaly", () => {
    const p = walletPnl([trade(1, A, 0, "BUY", 10, 0.5), trade(2, A, 0, "SELL", 15, 0.6)]);
    expect(p.anomalies).toBe(1);
    expectBalanced(p);
  });

  it("a resolved market still held is resolved_unredeemed, valued at its payout", () => {
    const p = walletPnl([trade(1, A, 0, "BUY", 10, 0.5)], marks([[A, 0, 1, true]]));
    expect(p.positions[0].status).toBe("resolved_unredeemed");
    expect(roundUsd(p.unrealized_pnl_usd)).toBe(5);
    expect(p.win_rate).toBe(1);
  });

  it("holds the invariant on random ledgers of every type", () => {
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 50; n++) {
      const rows: LedgerRow[] = [];
      for (let i = 0; i < 60; i++) {
        const c = [A, B, C][Math.floor(rand() * 3)];
        const r = rand();
        const size = Math.round(rand() * 10_000) / 100;
        if (r < 0.5) rows.push(trade(i, c, rand() < 0.5 ? 0 : 1, rand() < 0.6 ? "BUY" : "SELL", size, Math.round(rand() * 99 + 1) / 100));
        else if (r < 0.65) rows.push(row("SPLIT", i, c, size, size));
        else if (r < 0.75) rows.push(row("MERGE", i, c, size, size));
        else if (r < 0.8) rows.push(row("REDEEM", i, c, size, rand() < 0.5 ? size : 0));
        else if (r < 0.9) {
          rows.push(row("CONVERSION", i, A, size, size, { outcome_index: 1, tx_hash: `0xc${i}` }));
          rows.push(row("CONVERSION", i, B, size, 0, { outcome_index: 0, tx_hash: `0xc${i}` }));
        } else rows.push(row(rand() < 0.5 ? "REWARD" : "MAKER_REBATE", i, null, size, size));
      }
      const p = walletPnl(
        rows,
        marks([
          [A, 0, 0.3],
          [A, 1, 0.7],
          [B, 0, 0.5],
          [C, 1, 0.2],
        ]),
      );
      expect(Math.abs(p.realized_pnl_usd + p.unrealized_pnl_usd - p.pnl_usd)).toBeLessThan(1e-6);
      expect(Math.abs(p.cash_in_usd - p.cash_out_usd + p.value_usd - p.pnl_usd)).toBeLessThan(1e-6);
    }
  });
});
