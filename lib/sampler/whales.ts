// Whales across the platform: every open market whose total volume is at least the floor (WHALE_MIN_VOLUME_USD,
// default $10k) gets its top holders per outcome, with their average entry price, on a rotating schedule: bigger
// markets come round more often (the 100 biggest every 10 minutes, markets above $100k every 30, the rest every
// 2 hours), and one pass refreshes at most `whaleMarketsPerPass` markets, most overdue first, so the refresh stays
// inside the upstream governor's budget however many markets qualify. Holders come from `/v2/holders` with
// `include_pnl=true` (gross per outcome, `avg_price`): one request per market, no per-wallet position lookups.
import type { Db } from "@/lib/db/client";
import { errorFields, log } from "@/lib/log";
import type { SamplerConfig } from "./config";
import type { SamplerSource } from "./source";
import { replaceWhales, type WhaleRow } from "./store";

/** The schedule: the 100 biggest markets every 10 minutes, markets above $100k every 30, the rest every 2 hours. */
const SCHEDULE = { topRanks: 100, topS: 600, bigUsd: 100_000, bigS: 1800, restS: 7200 } as const;

/** Refresh interval by rank: the biggest markets most often. */
export function whaleIntervalS(rank: number, volumeUsd: number): number {
  if (rank < SCHEDULE.topRanks) return SCHEDULE.topS;
  if (volumeUsd >= SCHEDULE.bigUsd) return SCHEDULE.bigS;
  return SCHEDULE.restS;
}

// The markets due, chosen in the database: only the `whaleMarketsPerPass` it picks come back, not every eligible
// market (thousands at Polymarket's size: docs/upstream-behaviours.md "Listing pages in bounded memory"). Rank and
// interval are whaleIntervalS's; waited time is counted in whole milliseconds (both clocks are millisecond-precise,
// whales_at is timestamptz(3)) and divided as doubles, so the order is the one the same rule computes in JS.
const DUE_SQL = `
  WITH ranked AS (
    SELECT id, condition_id, question, volume_usd, whales_at, row_number() OVER (ORDER BY volume_usd DESC, id) - 1 AS rank
    FROM markets WHERE open AND volume_usd >= $1),
  scored AS (
    SELECT *, CASE WHEN whales_at IS NULL THEN 1::float8
                   ELSE round(extract(epoch FROM $2::timestamptz - whales_at) * 1000)::float8
                        / (CASE WHEN rank < ${SCHEDULE.topRanks} THEN ${SCHEDULE.topS}
                                WHEN volume_usd >= ${SCHEDULE.bigUsd} THEN ${SCHEDULE.bigS}
                                ELSE ${SCHEDULE.restS} END * 1000)::float8 END AS overdue
    FROM ranked)
  SELECT id, condition_id AS "conditionId", question FROM scored
  WHERE overdue >= 1 ORDER BY overdue DESC, rank LIMIT $3`;

interface Candidate {
  id: string;
  conditionId: string;
  question: string;
}

export interface WhaleRefreshResult {
  markets: number;
  positions: number;
  failed: number;
  eligible: number;
}

/** Runs `worker` over `items` with at most `concurrency` at a time. */
async function pool<T>(items: readonly T[], concurrency: number, worker: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const run = async () => {
    while (next < items.length) await worker(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, run));
}

export async function refreshWhales(
  db: Db,
  source: SamplerSource,
  config: SamplerConfig,
  now: () => Date,
  renew: () => Promise<void>,
): Promise<WhaleRefreshResult> {
  // Overdue ratio: how many of its intervals a market has waited, most overdue first, then biggest first. A market
  // never read is due now (ratio 1), not infinitely overdue: while thousands wait for their first read (a cold
  // start, a new floor), the biggest markets that are past their interval still come round on time.
  const due = await db.$queryRawUnsafe<Candidate[]>(DUE_SQL, config.whaleMinVolumeUsd, now().toISOString(), config.whaleMarketsPerPass);
  const [{ n: eligible }] = await db.$queryRawUnsafe<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM markets WHERE open AND volume_usd >= $1`,
    config.whaleMinVolumeUsd,
  );
  const result: WhaleRefreshResult = { markets: 0, positions: 0, failed: 0, eligible };
  if (due.length === 0) return result;

  const outcomes = await db.outcome.findMany({ where: { marketId: { in: due.map((m) => m.id) } } });
  const byToken = new Map(outcomes.map((o) => [o.tokenId, o]));
  const refreshed: string[] = [];
  const rows: WhaleRow[] = [];
  await pool(due, config.whaleConcurrency, async (market) => {
    try {
      const groups = await source.holders(market.conditionId, config.whaleHoldersPerOutcome);
      for (const group of groups) {
        const outcome = byToken.get(group.token_id);
        if (!outcome) continue;
        const holders = [...group.holders].sort((a, b) => b.shares - a.shares).slice(0, config.whaleHoldersPerOutcome);
        for (const h of holders) {
          rows.push({
            wallet: h.wallet.toLowerCase(),
            token_id: group.token_id,
            market_id: market.id,
            condition_id: market.conditionId,
            question: market.question,
            outcome: outcome.name,
            outcome_index: outcome.index,
            pseudonym: h.pseudonym || null,
            shares: h.shares,
            entry_price: h.avg_price,
          });
        }
      }
      refreshed.push(market.id);
    } catch (error) {
      // One market's failure leaves its last positions in place (and it stays due); the rest still refresh.
      result.failed++;
      log.warn("whale refresh: market failed", { market_id: market.id, ...errorFields(error) });
    }
  });
  await renew();
  const sampledAt = now();
  result.positions = await replaceWhales(db, refreshed, rows, sampledAt, config);
  if (refreshed.length) {
    await db.$executeRawUnsafe(
      `UPDATE markets SET whales_at = $2::timestamptz WHERE id = ANY($1::text[])`,
      refreshed,
      sampledAt.toISOString(),
    );
  }
  result.markets = refreshed.length;
  return result;
}
