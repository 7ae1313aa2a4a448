// The storage tiers of price samples (docs/api-decisions.md#sampling: 1 min for 48 h, 15 min for 8 days, 1 h for
// 31 days): the sampler writes and rolls up into them, the readers pick the finest tier that still covers a window.

export const RAW_RESOLUTION_S = 60;

export interface StorageTier {
  resolutionS: number;
  retentionS: number;
  /** An unchanged price is still stored once this long after the outcome's previous row in the tier, so the row
   *  "at or before" any time within the retention is never further back than this. */
  heartbeatS: number;
}

export const STORAGE_TIERS: readonly StorageTier[] = [
  { resolutionS: RAW_RESOLUTION_S, retentionS: 48 * 3600, heartbeatS: 3600 },
  { resolutionS: 900, retentionS: 8 * 86_400, heartbeatS: 6 * 3600 },
  { resolutionS: 3600, retentionS: 31 * 86_400, heartbeatS: 24 * 3600 },
];
