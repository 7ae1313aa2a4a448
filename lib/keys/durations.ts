// Durations as the operator writes them in the key CLI: a whole number and one unit, `30s`, `15m`, `24h`, `90d`.
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION_PATTERN = /^(\d{1,6})([smhd])$/;

/** Milliseconds, or null when the text is not a duration. */
export function parseDuration(text: string): number | null {
  const match = DURATION_PATTERN.exec(text.trim());
  if (!match) return null;
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  return ms > 0 ? ms : null;
}

/** The largest unit that divides the duration exactly: 86_400_000 → `1d`, 5_400_000 → `90m`. */
export function formatDuration(ms: number): string {
  for (const unit of ["d", "h", "m"] as const) if (ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  return `${Math.round(ms / 1000)}s`;
}

/** "3d ago", "5h ago", "just now": how old a timestamp is, for listings. */
export function formatAge(from: Date, now = Date.now()): string {
  const ms = Math.max(0, now - from.getTime());
  if (ms < 60_000) return "just now";
  for (const unit of ["d", "h", "m"] as const) if (ms >= UNIT_MS[unit]) return `${Math.floor(ms / UNIT_MS[unit])}${unit} ago`;
  return "just now";
}
