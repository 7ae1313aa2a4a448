// The leaderboard job: every WALLET_LEADERBOARD_INTERVAL_S, read the ledgers of Polymarket's top
// WALLET_LEADERBOARD_TOP all-time wallets to completion (one wallet at a time, so the reads stay inside the governor's
// budget alongside everything else) and store their PnL, which the leaderboard endpoint shows beside Polymarket's.
import { env } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { completeLeaderboardLedgers, type LeaderboardPass } from "./leaderboard";

interface LeaderboardJobOptions {
  /** Seconds from the end of one pass to the start of the next; 0 turns the job off. */
  intervalS?: number;
  /** Milliseconds before the first pass (the process's start-up goes first). */
  firstDelayMs?: number;
  /** Top all-time wallets to complete. */
  top?: number;
  /** Clock in ms (tests): the ledgers' read times and `pnl_at`. */
  now?: () => number;
  /** Called after every pass, with its result or its error (tests await passes through it). */
  onPass?: (outcome: { result: LeaderboardPass } | { error: unknown }) => void;
}

/** Starts the loop; returns its stop function (a pass in flight finishes on its own), or null when turned off. */
export function startLeaderboardLedgers(options: LeaderboardJobOptions = {}): (() => void) | null {
  const intervalS = options.intervalS ?? env.WALLET_LEADERBOARD_INTERVAL_S;
  const top = options.top ?? env.WALLET_LEADERBOARD_TOP;
  if (intervalS <= 0) return null;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const pass = async () => {
    if (stopped) return;
    try {
      const result = await completeLeaderboardLedgers({ top, now: options.now });
      log.info("leaderboard ledgers pass", { ...result });
      options.onPass?.({ result });
    } catch (error) {
      log.warn("leaderboard ledgers pass failed", errorFields(error));
      options.onPass?.({ error });
    }
    if (!stopped) timer = setTimeout(() => void pass(), intervalS * 1000).unref();
  };
  timer = setTimeout(() => void pass(), options.firstDelayMs ?? 5_000).unref();
  log.info("leaderboard ledgers job started", { interval_s: intervalS, top });
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
