// The leaderboard: Polymarket's board with our PnL over the same window beside it (docs/wallets.md "Leaderboard"), and
// the pass of the background job that completes the top wallets' ledgers so the board has our figures for them.
import { roundUsd } from "@/lib/analytics/money";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { wallets as upstreamWallets } from "@/lib/upstream";
import { walletUrl } from "@/lib/upstream/ids";
import { ledgerRows, ledgerState } from "./ledger";
import { compute } from "./answers";
import { WINDOW_SECONDS, windowPnl } from "./window";

export const LEADERBOARD_WINDOWS = { "1d": "DAY", "7d": "WEEK", "30d": "MONTH", all: "ALL" } as const;
type LeaderboardWindow = keyof typeof LEADERBOARD_WINDOWS;

/** Wallets whose windowed PnL is worked out at once (each reads its ledger and, once per start, price history). */
const WINDOW_CONCURRENCY = 4;

type Sync = Awaited<ReturnType<Awaited<ReturnType<typeof getDb>>["walletSync"]["findMany"]>>[number];

/** Our PnL for one leaderboard row over the board's window, or null with the reason. */
async function ourBoardPnl(sync: Sync | undefined, window: LeaderboardWindow): Promise<{ pnl: number | null; note: string | null }> {
  if (!sync) return { pnl: null, note: "this wallet's ledger has not been read yet" };
  if (!sync.complete) return { pnl: null, note: "this wallet's ledger is still being read" };
  if (sync.pnlAt === null) return { pnl: null, note: "our PnL has not been computed from the complete ledger yet" };
  if (sync.pnlUsd === null) return { pnl: null, note: "some open positions had no current price when our PnL was last computed" };
  if (window === "all") return { pnl: sync.pnlUsd, note: null };
  const state = await ledgerState(sync.wallet);
  if (!state.complete) return { pnl: null, note: "this wallet's ledger is still being read" };
  const endS = Math.floor(sync.pnlAt.getTime() / 1000);
  const result = await windowPnl(
    await ledgerRows(sync.wallet, state),
    { pnl_usd: sync.pnlUsd, at_s: endS },
    WINDOW_SECONDS[window],
    `${sync.wallet}:${state.head_s}:${state.rows_read}`,
  );
  return { pnl: result.pnl_usd, note: result.note };
}

async function inPool<T, R>(items: T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return out;
}

export async function leaderboard(query: { window: LeaderboardWindow; order: "pnl" | "volume"; limit: number }) {
  const rows = await upstreamWallets.getLeaderboard({
    period: LEADERBOARD_WINDOWS[query.window],
    order: query.order === "pnl" ? "PNL" : "VOL",
    limit: query.limit,
  });
  const db = await getDb();
  const syncs = await db.walletSync.findMany({ where: { wallet: { in: rows.map((r) => r.wallet) } } });
  const ours = new Map(syncs.map((s) => [s.wallet, s]));
  const asOf = new Date().toISOString();
  const figures = await inPool(rows, WINDOW_CONCURRENCY, (r) => ourBoardPnl(ours.get(r.wallet), query.window));
  return {
    data: rows.map((r, i) => {
      const sync = ours.get(r.wallet);
      const { pnl: mine, note } = figures[i];
      return {
        rank: r.rank ?? i + 1,
        address: r.wallet,
        name: r.user_name,
        polymarket_pnl_usd: r.pnl_usd === null ? null : roundUsd(r.pnl_usd),
        polymarket_volume: r.volume,
        pnl_usd: mine === null ? null : roundUsd(mine),
        pnl_difference_usd: mine === null || r.pnl_usd === null ? null : roundUsd(mine - r.pnl_usd),
        pnl_as_of: mine === null || !sync?.pnlAt ? null : sync.pnlAt.toISOString(),
        pnl_note: note,
        ledger_complete: sync?.complete ?? false,
        wallet_url: walletUrl(r.wallet),
      };
    }),
    meta: { source: "live" as const, as_of: asOf, count: rows.length, limit: query.limit },
  };
}

export interface LeaderboardPass {
  wallets: number;
  complete: number;
}

/** Reads the top leaderboard wallets' ledgers to completion, one after the other, and stores their PnL. */
export async function completeLeaderboardLedgers(options: { top?: number; now?: () => number } = {}): Promise<LeaderboardPass> {
  const rows = await upstreamWallets.getLeaderboard({ period: "ALL", order: "PNL", limit: options.top ?? env.WALLET_LEADERBOARD_TOP });
  let complete = 0;
  for (const r of rows) {
    const { state } = await compute(r.wallet, { pageBudget: Infinity, now: options.now });
    if (state.complete) complete++;
  }
  return { wallets: rows.length, complete };
}
