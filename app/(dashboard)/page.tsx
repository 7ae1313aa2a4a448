import { EventsExplorer } from "@/components/overview/events-explorer";
import { StatCards } from "@/components/overview/stat-cards";
import { getStats, listCategories, listEvents } from "@/lib/predmkt/events";
import { SLUG_PATTERN } from "@/lib/api/schemas";
import { initialFrom } from "@/lib/queries/initial";
import type { Category, EventSummary, Stats } from "@/lib/queries/types";
import { EVENTS_PAGE_SIZE, type EventOrder, type EventsView } from "@/lib/queries/views";

export const dynamic = "force-dynamic";

const ORDERS: EventOrder[] = ["volume24hr", "volume", "liquidity"];
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? "";

/** Reads the view from the address bar leniently: a bad value falls back to the default instead of failing. */
function viewFrom(sp: Record<string, string | string[] | undefined>): EventsView {
  const q = first(sp.q).trim().slice(0, 200);
  const category = SLUG_PATTERN.test(first(sp.category)) ? first(sp.category) : "";
  const order = ORDERS.includes(first(sp.order) as EventOrder) ? (first(sp.order) as EventOrder) : "volume24hr";
  const page = Math.min(Math.max(1, Number.parseInt(first(sp.page), 10) || 1), Math.floor(10_000 / EVENTS_PAGE_SIZE) + 1);
  return { q, category, order, offset: (page - 1) * EVENTS_PAGE_SIZE };
}

export default async function OverviewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const view = viewFrom(await searchParams);
  const [stats, categories, events] = await Promise.all([
    initialFrom<Stats>(getStats),
    initialFrom<Category[]>(listCategories),
    initialFrom<EventSummary[]>(() =>
      listEvents({
        q: view.q || undefined,
        category: view.category || undefined,
        order: view.order,
        limit: EVENTS_PAGE_SIZE,
        offset: view.offset,
      }),
    ),
  ]);
  return (
    <>
      <div className="page-title">
        <h1>Prediction markets, live</h1>
        <p className="lede">Open Polymarket events, their markets and probabilities, sampled every few seconds.</p>
      </div>
      <StatCards initial={stats} />
      <EventsExplorer initialView={view} initialEvents={events} initialCategories={categories} />
    </>
  );
}
