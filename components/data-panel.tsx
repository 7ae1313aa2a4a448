"use client";
// The scaffold every list panel of the dashboard shares: a titled section with the answer's source note, optional
// controls, the calm notice of a failed refresh, then a skeleton while nothing has arrived, the empty message, or the
// table. One place, so loading, failure and "not sampled yet" look and read the same on every page.
import type { ReactNode } from "react";
import type { Envelope, Meta } from "@/lib/queries/types";
import { EmptyState, emptyMessage, type ProblemLike, QueryNotice, SkeletonRows, SourceNote } from "@/components/ui";

export interface PanelQuery<T> {
  data: Envelope<T[]> | undefined;
  error: ProblemLike | null;
  serverError: ProblemLike | null;
}

export function DataPanel<T, R = T>({
  id,
  title,
  query,
  rows: shownRows,
  status,
  controls,
  search = false,
  loading,
  empty,
  children,
}: {
  /** Prefix of the heading's id, which labels the section. */
  id: string;
  title: ReactNode;
  query: PanelQuery<T>;
  /** The rows to show when they are not the answer's own (e.g. merged with streamed ones); defaults to `data`. */
  rows?: R[];
  /** Shown in the header before the source note (e.g. the live stream's state). */
  status?: ReactNode;
  controls?: ReactNode;
  /** The controls filter the list as a search form (`role="search"`), rather than a plain row of fields. */
  search?: boolean;
  loading: { rows: number; label?: string };
  /** What an empty list means here (the "not sampled yet" note replaces it before the first pass). */
  empty: string;
  children: (rows: R[]) => ReactNode;
}) {
  const { data, error, serverError } = query;
  // Without `rows`, R is T (its default) and the answer's own rows are shown.
  const rows = data ? (shownRows ?? (data.data as unknown as R[])) : undefined;
  const problem = error ?? serverError;
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <div className="panel-header">
        <h2 id={`${id}-title`}>{title}</h2>
        {status}
        <SourceNote meta={data?.meta} />
      </div>
      {!controls ? null : search ? (
        <form className="controls" role="search" onSubmit={(e) => e.preventDefault()}>
          {controls}
        </form>
      ) : (
        <div className="controls">{controls}</div>
      )}
      <QueryNotice error={problem} hasData={!!rows} asOf={data?.meta.as_of} />
      {!rows ? (
        problem ? null : (
          <SkeletonRows rows={loading.rows} label={loading.label} />
        )
      ) : rows.length === 0 ? (
        <EmptyState>{emptyMessage(data?.meta, empty)}</EmptyState>
      ) : (
        children(rows)
      )}
    </section>
  );
}

export interface Column {
  label: ReactNode;
  /** Right-aligned figures. */
  num?: boolean;
  /** Hidden on narrow screens. */
  hideSm?: boolean;
  /** The column the rows are sorted by (aria-sort). */
  sorted?: "ascending" | "descending";
}

/** A data table with its header row; rows are the children. */
export function DataTable({
  testId,
  columns,
  caption,
  compact = false,
  scroll = false,
  busy,
  wrap,
  children,
}: {
  testId: string;
  columns: Column[];
  /** Tighter rows (a side column, a table under a chart). */
  compact?: boolean;
  /** The wrapper scrolls vertically (long feeds). */
  scroll?: boolean;
  /** aria-busy on the wrapper while a newer answer is on its way. */
  busy?: boolean;
  /** Read by screen readers only. */
  caption?: ReactNode;
  /** Extra attributes of the scrolling wrapper (e.g. a data-* attribute tests read). */
  wrap?: Record<`data-${string}`, string>;
  children: ReactNode;
}) {
  return (
    <div className={scroll ? "table-wrap scroll-y" : "table-wrap"} aria-busy={busy} {...wrap}>
      <table className={compact ? "data compact" : "data"} data-testid={testId}>
        {caption ? <caption className="visually-hidden">{caption}</caption> : null}
        <thead>
          <tr>
            {columns.map((c, i) => (
              <th
                key={i}
                scope="col"
                className={[c.num ? "num" : "", c.hideSm ? "hide-sm" : ""].filter(Boolean).join(" ") || undefined}
                aria-sort={c.sorted}
              >
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

export interface StatCard {
  label: ReactNode;
  value: ReactNode;
  /** The card's figure in full (e.g. an exact time behind a relative one). */
  title?: string;
}

/** The row of figure cards that opens a page: no visible heading, the source note, the notice of a failed refresh. */
export function StatPanel({
  id,
  title,
  meta,
  problem,
  hasData,
  testId,
  cards,
  children,
}: {
  /** With an id, a visually hidden heading (`title`) labels the section; without, `title` is its aria-label. */
  id?: string;
  title: string;
  meta: Meta | undefined;
  problem: ProblemLike | null | undefined;
  hasData: boolean;
  testId: string;
  cards: StatCard[];
  /** Shown under the cards (e.g. a footnote). */
  children?: ReactNode;
}) {
  return (
    <section className="panel panel-flat" aria-labelledby={id ? `${id}-title` : undefined} aria-label={id ? undefined : title}>
      <div className="panel-header">
        {id ? (
          <h2 id={`${id}-title`} className="visually-hidden">
            {title}
          </h2>
        ) : null}
        <SourceNote meta={meta} />
      </div>
      <QueryNotice error={problem} hasData={hasData} asOf={meta?.as_of} />
      <dl className="stat-cards" data-testid={testId}>
        {cards.map((c, i) => (
          <div className="stat-card" key={i}>
            <dt>{c.label}</dt>
            <dd title={c.title}>{c.value}</dd>
          </div>
        ))}
      </dl>
      {children}
    </section>
  );
}
