// View state shared by server pages (first paint) and client components (refresh): one definition, so the first
// paint and the first client query ask for exactly the same thing. The windows and orders themselves are the API's
// (lib/predmkt/windows.ts), re-exported so a dashboard control cannot offer a value the API refuses.
import { EVENT_ORDERS, type EventOrder } from "@/lib/predmkt/windows";

export { CHANGE_WINDOWS, type ChangeWindow, type EventOrder, MOVER_WINDOWS, type MoverWindow } from "@/lib/predmkt/windows";

const EVENT_ORDER_LABELS: Record<EventOrder, string> = { volume24hr: "24 h volume", volume: "Total volume", liquidity: "Liquidity" };
/** The sort orders the events endpoint accepts, labelled for the dashboard's select. */
export const EVENT_ORDER_OPTIONS = EVENT_ORDERS.map((value) => ({ value, label: EVENT_ORDER_LABELS[value] }));
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

export const MOVERS_LIMIT = 50;

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
