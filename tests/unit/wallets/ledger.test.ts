// The wallet ledger against the simulator's ledger wallets: a history past the offset cap read completely by time
// windows, a first read cut by its page budget completed in the background with the same totals as a cold read,
// top-ups that read only newer rows, and our PnL against the simulator's truth (cash in − cash out + value).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { walletPnl } from "@/lib/analytics/pnl";
import { getDb } from "@/lib/db/client";
import { clearLocalCache, countRequests } from "@/lib/upstream";
import { ledgerRows, refreshLedger, settled } from "@/lib/wallets/ledger";
import { walletSummary } from "@/lib/wallets/answers";
import { type Simulator, startSimulator } from "@/sim/polymarket";
import { ACTIVITY_OFFSET_MAX, simWallets } from "@/sim/polymarket/wallets";
import { pointUpstreamAt } from "../upstream/stub-server";

let sim: Simulator;
let restore: () => void;
const wallet = (kind: string) => simWallets(sim.world, sim.prices).wallets.find((w) => w.kind === kind)!;

async function forget(address: string) {
  const db = await getDb();
  await db.walletLedgerChunk.deleteMany({ where: { wallet: address } });
  await db.walletSync.deleteMany({ where: { wallet: address } });
}

beforeAll(async () => {
  await getDb(); // the embedded database migrates on first use: not part of any read's timing
  sim = await startSimulator({ seed: 1 });
  restore = pointUpstreamAt(sim.url, { UPSTREAM_TIMEOUT_MS: 10_000, UPSTREAM_MAX_RETRIES: 1 });
  clearLocalCache();
}, 240_000);
afterAll(async () => {
  restore();
  await sim.close();
});

describe("wallet ledger", { timeout: 240_000 }, () => {
  it("reads a wallet past the offset cap completely, by time windows", async () => {
    const heavy = wallet("heavy");
    expect(heavy.events.length).toBeGreaterThan(ACTIVITY_OFFSET_MAX + 500);
    await forget(heavy.address); // cold: tests run shuffled, another may have read it already
    const counts = new Map<string, number>();
    const started = performance.now();
    const state = await countRequests(counts, () => refreshLedger(heavy.address));
    const coldMs = performance.now() - started;
    expect(state.complete).toBe(true);
    expect(state.rows_read).toBe(heavy.events.length);
    // Past the offset cap by time windows: more pages than one window's offsets allow.
    expect(counts.get("data /activity")).toBeGreaterThan((ACTIVITY_OFFSET_MAX + 500) / 500);
    const rows = await ledgerRows(heavy.address, state);
    const byType = (list: { type: string }[]) => list.reduce<Record<string, number>>((m, r) => ((m[r.type] = (m[r.type] ?? 0) + 1), m), {});
    expect(byType(rows)).toEqual(byType(heavy.events));
    expect(rows.reduce((s, r) => s + r.usd, 0)).toBeCloseTo(
      heavy.events.reduce((s, e) => s + e.usdc, 0),
      4,
    );

    // Warm: a minute later only the newest rows are asked for (one page).
    const warm = new Map<string, number>();
    const warmStarted = performance.now();
    const again = await countRequests(warm, () => refreshLedger(heavy.address, { now: () => Date.now() + 60_000 }));
    const warmMs = performance.now() - warmStarted;
    expect(again.rows_read).toBe(heavy.events.length);
    expect(warm.get("data /activity")).toBe(1);
    console.log(
      `[wallet ledger] ${heavy.events.length} rows: cold ${Math.round(coldMs)} ms, ${counts.get("data /activity")} upstream calls; ` +
        `warm ${Math.round(warmMs)} ms, ${warm.get("data /activity")} call`,
    );
  });

  it("answers a first read cut by its budget as incomplete, then completes it with the same totals as a cold read", async () => {
    const heavy = wallet("heavy");
    // The reference: a cold read with no budget (tests run shuffled, so this test makes its own).
    await forget(heavy.address);
    const cold = await refreshLedger(heavy.address, { pageBudget: Infinity });
    expect(cold.complete).toBe(true);
    const coldPnl = walletPnl(await ledgerRows(heavy.address, cold));
    await forget(heavy.address);
    const first = await refreshLedger(heavy.address, { pageBudget: 3 });
    expect(first.complete).toBe(false);
    expect(first.rows_read).toBeGreaterThan(0);
    expect(first.rows_read).toBeLessThan(heavy.events.length);
    await settled(heavy.address);
    const later = await refreshLedger(heavy.address, { pageBudget: 3 });
    expect(later.complete).toBe(true);
    expect(later.rows_read).toBe(heavy.events.length);
    const pnl = walletPnl(await ledgerRows(heavy.address, later));
    expect(pnl.cash_in_usd).toBeCloseTo(coldPnl.cash_in_usd, 6);
    expect(pnl.cash_out_usd).toBeCloseTo(coldPnl.cash_out_usd, 6);
    expect(pnl.realized_pnl_usd).toBeCloseTo(coldPnl.realized_pnl_usd, 6);
    expect(pnl.trades).toBe(coldPnl.trades);
  });

  it("answers what it has, incomplete, when the upstream fails mid-read, and never throws", async () => {
    const mm = wallet("market_maker");
    await forget(mm.address);
    sim.setFault({ target: "data", path: "/activity", mode: "error", status: 500 });
    try {
      const state = await refreshLedger(mm.address, { pageBudget: 2 });
      expect(state.complete).toBe(false);
      expect(state.error).toMatch(/upstream/);
    } finally {
      sim.clearFaults();
    }
    const state = await refreshLedger(mm.address);
    expect(state.complete).toBe(true);
    expect(state.rows_read).toBe(mm.events.length);
  });

  it("agrees with the simulator's truth to the cent on every ledger wallet; the naive /positions sum misses redemptions", async () => {
    const wallets = simWallets(sim.world, sim.prices);
    let maxDiff = 0;
    const lines: string[] = [];
    for (const w of wallets.wallets) {
      const summary = await walletSummary(w.address, { pageBudget: Infinity });
      expect(summary.meta.complete).toBe(true);
      const truth = Math.round(wallets.truthPnl(w, Math.floor(Date.now() / 1000)) * 100) / 100;
      // Compared in whole cents: both sides are rounded to the cent from sums taken in a different order, so they may
      // round a half cent apart, and 0.01 as a float difference of two dollar amounts can read 0.010000000000005.
      const diffCents = Math.abs(Math.round(summary.data.pnl_usd * 100) - Math.round(truth * 100));
      maxDiff = Math.max(maxDiff, diffCents / 100);
      expect(diffCents).toBeLessThanOrEqual(1);
      const redeemed = w.events.some((e) => e.type === "REDEEM");
      const income = w.events.some((e) => e.type === "REWARD" || e.type === "MAKER_REBATE");
      const gap = summary.data.positions_difference_usd!;
      if (redeemed || income) expect(Math.abs(gap)).toBeGreaterThan(1);
      else expect(Math.abs(gap)).toBeLessThanOrEqual(0.05);
      lines.push(
        `${w.kind}: ours ${summary.data.pnl_usd}, truth ${truth}, naive /positions ${summary.data.polymarket.positions_pnl_usd} (gap ${gap})`,
      );
    }
    console.log(`[wallet pnl] ${wallets.wallets.length} wallets, max difference ${maxDiff.toFixed(2)}\n  ${lines.join("\n  ")}`);
  });
});
