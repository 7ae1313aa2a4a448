// Chain timestamps (seconds, bigint) as the API's ISO 8601 UTC strings.
export function isoFromSeconds(seconds: bigint): string {
  return new Date(Number(seconds) * 1000).toISOString();
}

/** Unix seconds (a number, or null for "not yet") as ISO 8601 UTC. */
export function isoFromSecondsOrNull(seconds: number | null): string | null {
  return seconds === null ? null : new Date(seconds * 1000).toISOString();
}
