// Tunables of the sampler. Retention tiers follow docs/api-decisions.md#sampling: 1 min for 48 h, 15 min for 8 days, 1 h for
// 31 days.

import { env } from "@/lib/env";
import { STORAGE_TIERS } from "@/lib/sampled/tiers";

export interface SamplerConfig {
  /** A raw sample is stored when the price changed, or when the last stored one is this old (a heartbeat). */
  heartbeatS: number;
  /** Lease lifetime; a pass extends it after every page, so only a dead pass lets it lapse. */
  leaseTtlMs: number;
  /** Rows per SQL statement: PGlite blocks the event loop for the length of one statement. */
  chunkSize: number;
  /**
   * Events per upstream page. Gamma's keyset allows up to 500; a page's events are held until they are written, so
   * 100 (about 420 markets at Polymarket's size) keeps that bounded for five times the requests (13 → 63 pages at
   * 26,000 markets, far inside Gamma's 500 `/events` requests per 10 s; docs/upstream-behaviours.md "Listing pages
   * in bounded memory").
   */
  eventsPageSize: number;
  /** Trades per `/v2/trades` page (the upstream's cap is 1000). */
  tapePageSize: number;
  /** Time one pass may spend reading the tape; what is left is resumed by the next pass. */
  tapeBudgetMs: number;
  /** How far back the very first pass reads the tape (later passes read back to their watermark). */
  tapeFirstLookbackS: number;
  /** Deadline of one upstream call made by the sampler: a pass can wait out throttling that a live request cannot. */
  requestDeadlineMs: number;
  /** Trades older than this are deleted. The tape is the biggest stream (~1 M fills a day at Polymarket's scale, and
   *  in the bench world), so it keeps just what abnormal-trade scoring needs: 48 h of reference trades. */
  tradeRetentionS: number;
  /** Housekeeping cadence: retention deletes, VACUUM of the small hot tables and of the two big ones. */
  retentionEveryS: number;
  vacuumHotEveryS: number;
  vacuumBigEveryS: number;
  /** Whale refresh (whales.ts): at most this often; markets above the volume floor, on a rotating schedule of at
   *  most `whaleMarketsPerPass` markets per pass, `whaleConcurrency` at a time, top holders per outcome. */
  whalesEveryS: number;
  whaleMinVolumeUsd: number;
  whaleMarketsPerPass: number;
  whaleConcurrency: number;
  whaleHoldersPerOutcome: number;
}

export const DEFAULT_CONFIG: SamplerConfig = {
  heartbeatS: STORAGE_TIERS[0].heartbeatS,
  leaseTtlMs: 120_000,
  chunkSize: 400,
  eventsPageSize: 100,
  tapePageSize: 1000,
  tapeBudgetMs: 25_000,
  tapeFirstLookbackS: 600,
  requestDeadlineMs: 30_000,
  tradeRetentionS: 49 * 3600,
  retentionEveryS: 900,
  vacuumHotEveryS: 600,
  vacuumBigEveryS: 6 * 3600,
  whalesEveryS: 0,
  whaleMinVolumeUsd: env.WHALE_MIN_VOLUME_USD,
  whaleMarketsPerPass: 300,
  whaleConcurrency: 4,
  whaleHoldersPerOutcome: 20,
};

/** The clock passes are stamped with: the real one, or a test server's, SAMPLER_CLOCK_OFFSET_S off it (lib/env.ts). */
export function samplerNow(): Date {
  return new Date(Date.now() + env.SAMPLER_CLOCK_OFFSET_S * 1000);
}
