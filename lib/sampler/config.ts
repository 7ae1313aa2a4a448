// Tunables of the sampler. Retention tiers follow DESIGN.md "Sampling": 1 min for 48 h, 15 min for 8 days, 1 h for
// 31 days.

export const RAW_RESOLUTION_S = 60;

export interface Tier {
  resolutionS: number;
  retentionS: number;
  /** An unchanged price is still stored once this long after the outcome's previous row in the tier, so the row
   *  "at or before" any time within the retention is never further back than this. */
  heartbeatS: number;
}

export const TIERS: readonly Tier[] = [
  { resolutionS: RAW_RESOLUTION_S, retentionS: 48 * 3600, heartbeatS: 3600 },
  { resolutionS: 900, retentionS: 8 * 86_400, heartbeatS: 6 * 3600 },
  { resolutionS: 3600, retentionS: 31 * 86_400, heartbeatS: 24 * 3600 },
];

export interface SamplerConfig {
  /** A raw sample is stored when the price changed, or when the last stored one is this old (a heartbeat). */
  heartbeatS: number;
  /** Lease lifetime; a pass extends it after every page, so only a dead pass lets it lapse. */
  leaseTtlMs: number;
  /** Rows per SQL statement: PGlite blocks the event loop for the length of one statement. */
  chunkSize: number;
  /** Events per upstream page (Gamma keyset allows up to 500). */
  eventsPageSize: number;
  /** Trades per Data API page and the most pages one pass reads. */
  tradesPageSize: number;
  tradesMaxPages: number;
  /** Trades older than this are deleted. The tape is the biggest stream (~1 M fills a day at Polymarket's scale, and
   *  in the bench world), so it keeps just what abnormal-trade scoring needs: 48 h of reference trades. */
  tradeRetentionS: number;
  /** Housekeeping cadence: retention deletes, VACUUM of the small hot tables and of the two big ones. */
  retentionEveryS: number;
  vacuumHotEveryS: number;
  vacuumBigEveryS: number;
  /** Whale refresh: how often, how many of the biggest markets, how many holders per outcome. */
  whalesEveryS: number;
  whaleMarkets: number;
  whaleHoldersPerOutcome: number;
}

export const DEFAULT_CONFIG: SamplerConfig = {
  heartbeatS: TIERS[0].heartbeatS,
  leaseTtlMs: 120_000,
  chunkSize: 400,
  eventsPageSize: 500,
  tradesPageSize: 500,
  tradesMaxPages: 6,
  tradeRetentionS: 49 * 3600,
  retentionEveryS: 900,
  vacuumHotEveryS: 600,
  vacuumBigEveryS: 6 * 3600,
  whalesEveryS: 600,
  whaleMarkets: 10,
  whaleHoldersPerOutcome: 10,
};
