// Windows and orders the sampled endpoints accept, shared by the API contracts and the dashboard's controls.
// Pure constants (no imports): the browser bundle may import this file.

export const CHANGE_WINDOWS = ["1h", "24h", "7d", "30d"] as const;
export type ChangeWindow = (typeof CHANGE_WINDOWS)[number];
export const MOVER_WINDOWS = ["1m", "5m", "15m", "30m", "1h", "4h", "12h", "24h", "7d"] as const;
export type MoverWindow = (typeof MOVER_WINDOWS)[number];
export const HISTORY_WINDOWS = ["24h", "7d", "30d"] as const;
export const EVENT_ORDERS = ["volume24hr", "volume", "liquidity"] as const;
export type EventOrder = (typeof EVENT_ORDERS)[number];

/** Seconds in each window any sampled endpoint accepts. */
export const WINDOW_SECONDS: Record<string, number> = {
  "1m": 60,
  "5m": 300,
  "15m": 900,
  "30m": 1800,
  "1h": 3600,
  "4h": 4 * 3600,
  "12h": 12 * 3600,
  "24h": 86_400,
  "7d": 7 * 86_400,
  "30d": 30 * 86_400,
};
