// Tunables of the sampler. Retention tiers follow DESIGN.md "Sampling": 1 min for 48 h, 15 min for 8 days, 1 h for
// 31 days.

export const RAW_RESOLUTION_S = 60;

export interface Tier {
  resolutionS: number;
  retentionS: number;
}

export const TIERS: readonly Tier[] = [
  { resolutionS: RAW_RESOLUTION_S, retentionS: 48 * 3600 },
  { resolutionS: 900, retentionS: 8 * 86_400 },
  { resolutionS: 3600, retentionS: 31 * 86_400 },
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
  /** Trades older than this are deleted. */
  tradeRetentionS: number;
  /** Whale refresh: how often, how many of the biggest markets, how many holders per outcome. */
  whalesEveryS: number;
  whaleMarkets: number;
  whaleHoldersPerOutcome: number;
}

export const DEFAULT_CONFIG: SamplerConfig = {
  heartbeatS: 3600,
  leaseTtlMs: 120_000,
  chunkSize: 400,
  eventsPageSize: 500,
  tradesPageSize: 500,
  tradesMaxPages: 6,
  tradeRetentionS: 8 * 86_400,
  whalesEveryS: 600,
  whaleMarkets: 10,
  whaleHoldersPerOutcome: 10,
};
