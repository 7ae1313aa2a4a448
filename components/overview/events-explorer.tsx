"use client";
// The overview's categories and events table: search, category filter, sort and paging, all reflected in the URL
// (so a view can be shared) without a server round trip.
import Link from "next/link";
import { useEffect, useId, useState } from "react";
import { formatDate, formatInteger, formatUsd } from "@/lib/format";
import type { Category, EventSummary, Initial } from "@/lib/queries/types";
import { useApi } from "@/lib/queries/use-api";
import { EVENT_ORDER_OPTIONS, type EventOrder, EVENTS_PAGE_SIZE, type EventsView, eventsQuery } from "@/lib/queries/views";
import { EmptyState, emptyMessage, Pager, QueryNotice, SkeletonRows, SourceNote } from "@/components/ui";
import { DataPanel, DataTable } from "@/components/data-panel";

function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return debounced;
}

export function EventsExplorer({
  initialView,
  initialEvents,
  initialCategories,
}: {
  initialView: EventsView;
  initialEvents: Initial<EventSummary[]>;
  initialCategories: Initial<Category[]>;
}) {
  const ids = useId();
  const [search, setSearch] = useState(initialView.q);
  const [category, setCategory] = useState(initialView.category);
  const [order, setOrder] = useState<EventOrder>(initialView.order);
  const [offset, setOffset] = useState(initialView.offset);
  const q = useDebounced(search.trim(), 300);

  const view: EventsView = { q, category, order, offset };
  const events = useApi<EventSummary[]>("/api/predmkt/events", eventsQuery(view), {
    initial: initialEvents,
    initialParams: eventsQuery(initialView),
    refreshMs: 15_000,
  });
  const categories = useApi<Category[]>("/api/predmkt/categories", {}, { initial: initialCategories, refreshMs: 30_000 });

  // Keep the address bar in step with the view, without a navigation.
  useEffect(() => {
    const params = new URLSearchParams();
    if (q) params.set("q", q);
    if (category) params.set("category", category);
    if (order !== "volume24hr") params.set("order", order);
    if (offset) params.set("page", String(Math.floor(offset / EVENTS_PAGE_SIZE) + 1));
    const next = params.toString() ? `?${params}` : window.location.pathname;
    if (next !== window.location.search) window.history.replaceState(null, "", next);
  }, [q, category, order, offset]);

  // A new filter starts at the first page.
  const resetPage = () => setOffset(0);
  const cats = categories.data?.data ?? [];
  const loadingFresh = events.isFetching && events.isPlaceholderData;

  return (
    <>
      <section className="panel" aria-labelledby={`${ids}-cats`}>
        <div className="panel-header">
          <h2 id={`${ids}-cats`}>Categories</h2>
          <SourceNote meta={categories.data?.meta} />
        </div>
        <QueryNotice error={categories.error ?? categories.serverError} hasData={cats.length > 0} asOf={categories.data?.meta.as_of} />
        {cats.length === 0 && !categories.error && !categories.serverError ? (
          categories.isLoading ? (
            <SkeletonRows rows={1} />
          ) : (
            <EmptyState>{emptyMessage(categories.data?.meta, "No categories yet.")}</EmptyState>
          )
        ) : (
          <ul className="chips" data-testid="categories">
            <li>
              <button type="button" className="chip" aria-pressed={category === ""} onClick={() => (setCategory(""), resetPage())}>
                All
              </button>
            </li>
            {cats.map((c) => (
              <li key={c.slug}>
                <button
                  type="button"
                  className="chip"
                  aria-pressed={category === c.slug}
                  onClick={() => (setCategory(category === c.slug ? "" : c.slug), resetPage())}
                  title={`${c.event_count} events · ${formatUsd(c.volume_24h_usd)} 24 h volume · ${formatUsd(c.liquidity_usd)} liquidity`}
                >
                  {c.label} <span className="chip-count">{c.event_count}</span>
                  <span className="chip-volume">{formatUsd(c.volume_24h_usd)}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>

      <DataPanel
        id={`${ids}-events`}
        title="Events"
        query={events}
        search
        controls={
          <>
            <label className="field">
              <span>Search events</span>
              <input
                type="search"
                name="q"
                value={search}
                maxLength={200}
                placeholder="Title contains…"
                onChange={(e) => (setSearch(e.target.value), resetPage())}
              />
            </label>
            <label className="field">
              <span>Category</span>
              <select name="category" value={category} onChange={(e) => (setCategory(e.target.value), resetPage())}>
                <option value="">All categories</option>
                {cats.map((c) => (
                  <option key={c.slug} value={c.slug}>
                    {c.label}
                  </option>
                ))}
                {category && !cats.some((c) => c.slug === category) ? <option value={category}>{category}</option> : null}
              </select>
            </label>
            <label className="field">
              <span>Sort by</span>
              <select name="order" value={order} onChange={(e) => (setOrder(e.target.value as EventOrder), resetPage())}>
                {EVENT_ORDER_OPTIONS.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            </label>
          </>
        }
        loading={{ rows: 8, label: "Loading events" }}
        empty={q || category ? "No open events match these filters." : "No open events."}
      >
        {(rows) => (
          <>
            <DataTable
              testId="events-table"
              busy={loadingFresh}
              caption={`Open events, sorted by ${EVENT_ORDER_OPTIONS.find((o) => o.value === order)?.label}`}
              columns={[
                { label: "Event" },
                { label: "Markets", num: true, hideSm: true },
                { label: "24 h volume", num: true, sorted: order === "volume24hr" ? "descending" : undefined },
                { label: "Volume", num: true, hideSm: true, sorted: order === "volume" ? "descending" : undefined },
                { label: "Liquidity", num: true, sorted: order === "liquidity" ? "descending" : undefined },
                { label: "Ends", hideSm: true },
              ]}
            >
              {rows.map((e) => (
                <tr key={e.id}>
                  <td>
                    <Link href={`/events/${e.slug}`} className="row-title">
                      {e.title}
                    </Link>
                    {e.category_label ? <span className="tag">{e.category_label}</span> : null}
                  </td>
                  <td className="num hide-sm">{formatInteger(e.market_count)}</td>
                  <td className="num">{formatUsd(e.volume_24h_usd)}</td>
                  <td className="num hide-sm">{formatUsd(e.volume_usd)}</td>
                  <td className="num">{formatUsd(e.liquidity_usd)}</td>
                  <td className="hide-sm">{formatDate(e.end_date)}</td>
                </tr>
              ))}
            </DataTable>
            <Pager offset={offset} limit={EVENTS_PAGE_SIZE} total={events.data?.meta.total} count={rows.length} onChange={setOffset} />
          </>
        )}
      </DataPanel>
    </>
  );
}
