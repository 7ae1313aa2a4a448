// The leaderboard's windows against the simulator's board (sim/polymarket/wallets.ts `boardFigures`): our finite-window
// PnL, PnL at the end − PnL at the start from the ledger and the price history, agrees to the cent with the
// simulator's marked equity change on every ledger wallet; the all-time board (realized-only, as Polymarket's docs
// say) differs from ours by our unrealized PnL exactly; a start with no known price answers null with the reason.
// The simulator's clock and ours are one injected clock, so both sides look at the same instants.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as leaderboardGet } from "@/app/api/predmkt/leaderboard/route";
import { getDb } from "@/lib/db/client";
import { clearLocalCache, countRequests } from "@/lib/upstream";
import type { StoredRow } from "@/lib/wallets/ledger";
import { walletSummary } from "@/lib/wallets/answers";
import { WINDOW_SECONDS, windowPnl } from "@/lib/wallets/window";
import { type Simulator, startOfUtcDay, startSimulator } from "@/sim/polymarket";
import { simWallets } from "@/sim/polymarket/wallets";
import { callJson } from "../../helpers/handler";
import { pointUpstreamAt } from "../upstream/stub-server";

// Mid-morning of the world's anchor day, off the minute (the price history's grid) on purpose.
const T0 = startOfUtcDay(Date.now()) + 9 * 3600_000 + 17_250;
let clockMs = T0;
const now = () => clockMs;
let sim: Simulator;
let restore: () => void;

interface BoardRow {
  address: string;
  polymarket_pnl_usd: number | null;
  pnl_usd: number | null;
  pnl_difference_usd: number | null;
  pnl_as_of: string | null;
  pnl_note: string | null;
  ledger_complete: boolean;
}

const board = async (window: string) => {
  const { status, body } = await callJson(leaderboardGet, `/api/predmkt/leaderboard?window=${window}&limit=50`);
  expect(status).toBe(200);
  return body.data as BoardRow[];
};

beforeAll(async () => {
  await getDb();
  sim = await startSimulator({ seed: 1, clock: now });
  restore = pointUpstreamAt(sim.url, { UPSTREAM_TIMEOUT_MS: 10_000, UPSTREAM_MAX_RETRIES: 1 });
  clearLocalCache();
}, 240_000);
afterAll(async () => {
  restore();
  await sim.close();
});

describe("leaderboard windows", { timeout: 240_000 }, () => {
  it("agree with the simulator's board to the cent on every ledger wallet; `all` differs by our unrealized PnL", async () => {
    clockMs = T0;
    const wallets = simWallets(sim.world, sim.prices).wallets;
    const unrealized = new Map<string, number>();
    for (const w of wallets) {
      const summary = await walletSummary(w.address, { pageBudget: Infinity, now });
      expect(summary.meta.complete).toBe(true);
      unrealized.set(w.address, summary.data.unrealized_pnl_usd);
    }
    const lines: string[] = [];
    for (const window of ["1d", "7d", "30d", "all"] as const) {
      const calls = new Map<string, number>();
      const started = performance.now();
      const rows = (await countRequests(calls, () => board(window))).filter((r) => unrealized.has(r.address));
      const ms = Math.round(performance.now() - started);
      expect(rows).toHaveLength(wallets.length);
      let maxDiff = 0;
      for (const row of rows) {
        expect(row, row.address).toMatchObject({ ledger_complete: true, pnl_note: null, pnl_as_of: new Date(T0).toISOString() });
        expect(row.pnl_usd).not.toBeNull();
        // Finite windows: the same quantity on both sides. `all`: Polymarket's is realized-only, ours adds unrealized.
        const expected = window === "all" ? unrealized.get(row.address)! : 0;
        const diff = Math.abs(row.pnl_difference_usd! - expected);
        maxDiff = Math.max(maxDiff, diff);
        expect(diff, `${window} ${row.address}`).toBeLessThanOrEqual(0.011);
      }
      lines.push(
        `${window}: ${rows.length} wallets, max |ours − theirs${window === "all" ? " − our unrealized" : ""}| ${maxDiff.toFixed(4)}, ` +
          `${ms} ms, ${JSON.stringify(Object.fromEntries(calls))}; ` +
          rows.map((r) => `${r.pnl_usd}/${r.polymarket_pnl_usd}`).join(" "),
      );
    }
    console.log(`[leaderboard windows]\n  ${lines.join("\n  ")}`);
  });

  it("answers null with the reason when no price is known at the window's start, never a figure marked at cost", async () => {
    const end = Math.floor(T0 / 1000) + 7 * 86_400;
    const condition = `0x${"ab".repeat(32)}`;
    const row = (at: number, side: "BUY" | "SELL", size: number, price: number): StoredRow => ({
      key: `k${at}${side}`,
      type: "TRADE",
      at_s: at,
      condition_id: condition,
      outcome_index: 0,
      side,
      size,
      price,
      usd: size * price,
      tx_hash: null,
      token_id: "424242", // no market of the simulator's has it: its price history is empty
      outcome: "Yes",
      title: "A market nobody prices",
      market_slug: null,
      event_slug: null,
    });
    const rows = [row(end - 3 * 86_400, "BUY", 100, 0.4)];
    const held = await windowPnl(rows, { pnl_usd: 10, at_s: end }, WINDOW_SECONDS["1d"], "unpriced-held");
    expect(held.pnl_usd).toBeNull();
    expect(held.note).toMatch(/no price is known at the window's start .*A market nobody prices \(Yes\)/);
    // Sold before the window opened: nothing is held at its start, so no price is needed.
    const sold = await windowPnl(
      [row(end - 2 * 86_400, "SELL", 100, 0.5), ...rows],
      { pnl_usd: 10, at_s: end },
      WINDOW_SECONDS["1d"],
      "unpriced-sold",
    );
    expect(sold).toMatchObject({ pnl_usd: 0, note: null });
  });

  it("names a price history that could not be read, and does not keep that answer", async () => {
    clockMs = T0 + 3_600_000; // its own instants: nothing cached by another test applies
    const w = simWallets(sim.world, sim.prices).wallets.find((x) => x.kind === "redeemer")!;
    await walletSummary(w.address, { pageBudget: Infinity, now });
    sim.setFault({ target: "clob", path: "/prices-history", mode: "error", status: 500 });
    try {
      const row = (await board("7d")).find((r) => r.address === w.address)!;
      expect(row.pnl_usd).toBeNull();
      expect(row.pnl_difference_usd).toBeNull();
      expect(row.pnl_note).toMatch(/price history could not be read/);
    } finally {
      sim.clearFaults();
    }
    const row = (await board("7d")).find((r) => r.address === w.address)!;
    expect(row.pnl_note).toBeNull();
    expect(Math.abs(row.pnl_difference_usd!)).toBeLessThanOrEqual(0.011);
  });
});
