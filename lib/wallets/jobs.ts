// The leaderboard job: every WALLET_LEADERBOARD_INTERVAL_S, read the ledgers of Polymarket's top
// WALLET_LEADERBOARD_TOP all-time wallets to completion (one wallet at a time, so the reads stay inside the governor's
// budget alongside everything else) and store their PnL, which the leaderboard endpoint shows beside Polymarket's.
import { env } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { completeLeaderboardLedgers } from "./service";

/** Starts the loop; returns its stop function. Interval 0 turns it off (returns null). */
export function startLeaderboardLedgers(intervalS = env.WALLET_LEADERBOARD_INTERVAL_S): (() => void) | null {
  if (intervalS <= 0) return null;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const pass = async () => {
    try {
      const result = await completeLeaderboardLedgers();
      log.info("leaderboard ledgers pass", result);
    } catch (error) {
      log.warn("leaderboard ledgers pass failed", errorFields(error));
    }
    if (!stopped) timer = setTimeout(() => void pass(), intervalS * 1000).unref();
  };
  timer = setTimeout(() => void pass(), 5_000).unref();
  log.info("leaderboard ledgers job started", { interval_s: intervalS, top: env.WALLET_LEADERBOARD_TOP });
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
