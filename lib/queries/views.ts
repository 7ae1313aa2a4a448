// View state shared by server pages (first paint) and client components (refresh): one definition, so the first
// paint and the first client query ask for exactly the same thing.

export const EVENT_ORDERS = [
  { value: "volume24hr", label: "24 h volume" },
  { value: "volume", label: "Total volume" },
  { value: "liquidity", label: "Liquidity" },
] as const;
export type EventOrder = (typeof EVENT_ORDERS)[number]["value"];
export const EVENTS_PAGE_SIZE = 20;

export interface EventsView {
  q: string;
  category: string;
  order: EventOrder;
  offset: number;
}

export function eventsQuery(view: EventsView) {
  return { q: view.q || undefined, category: view.category || undefined, order: view.order, limit: EVENTS_PAGE_SIZE, offset: view.offset };
}

export const MOVER_WINDOWS = ["1m", "5m", "15m", "30m", "1h", "4h", "12h", "24h", "7d"] as const;
export type MoverWindow = (typeof MOVER_WINDOWS)[number];
export const MOVERS_LIMIT = 50;

export const CHANGE_WINDOWS = ["1h", "24h", "7d", "30d"] as const;
export type ChangeWindow = (typeof CHANGE_WINDOWS)[number];

export const HISTORY_INTERVALS = ["1h", "6h", "1d", "1w", "1m", "max"] as const;
export type HistoryInterval = (typeof HISTORY_INTERVALS)[number];
export const HISTORY_MARKETS = 5;

export const TRADE_SIDES = ["", "BUY", "SELL"] as const;
export type TradeSideFilter = (typeof TRADE_SIDES)[number];
export const EVENT_FEED_LIMIT = 50;
export const HOLDERS_LIMIT = 10;

export const TAPE_LIMIT = 100;
export const MIN_USD_CHOICES = [0, 10, 100, 1_000, 10_000] as const;
export const WHALES_LIMIT = 100;
export const ABNORMAL_LIMIT = 100;
export const VOTERS_LIMIT = 20;
