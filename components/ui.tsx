"use client";
// Small shared pieces: calm status notices, empty and loading states, segmented switches, relative times, pager.
import { useEffect, useId, useState } from "react";
import { formatDateTime, formatRelativeTime } from "@/lib/format";
import type { ApiProblem } from "@/lib/queries/fetcher";
import type { Meta } from "@/lib/queries/types";

export type ProblemLike = Pick<ApiProblem, "status" | "code" | "detail"> & { retryAfterS?: number | null };

/** Words a visitor can act on; never a stack trace or a raw status line. */
export function problemMessage(problem: ProblemLike): string {
  if (problem.status === 429) {
    return `Lots of visitors right now: live refresh is paused${problem.retryAfterS ? ` for ${problem.retryAfterS} s` : " briefly"}.`;
  }
  if (problem.code === "upstream_unavailable" || problem.code === "upstream_timeout" || problem.status === 502 || problem.status === 504) {
    return "The data source is not answering right now; retrying shortly.";
  }
  if (problem.code === "network" || problem.status === 0) return "Connection lost; retrying shortly.";
  if (problem.status === 404) return "Not found.";
  if (problem.status === 503) return "This data is temporarily unavailable; retrying shortly.";
  return "Could not refresh this data; retrying shortly.";
}

/**
 * A calm notice for a failed refresh. With data still on screen it says the data may be behind; without data it is
 * the whole content of the panel.
 */
export function QueryNotice({ error, hasData, asOf }: { error: ProblemLike | null | undefined; hasData: boolean; asOf?: string | null }) {
  if (!error) return null;
  return (
    <p className={hasData ? "notice notice-soft" : "notice"} role="status" data-testid="query-notice">
      {problemMessage(error)}
      {hasData && asOf ? (
        <>
          {" "}
          Showing data as of <RelativeTime iso={asOf} />.
        </>
      ) : null}
    </p>
  );
}

export function EmptyState({ children }: { children: React.ReactNode }) {
  return (
    <p className="empty" data-testid="empty-state">
      {children}
    </p>
  );
}

export function SkeletonRows({ rows = 5, label = "Loading" }: { rows?: number; label?: string }) {
  return (
    <div className="skeleton-block" role="status" aria-label={label} aria-busy="true">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="skeleton-line" />
      ))}
    </div>
  );
}

/** The "not sampled yet" state of sampled endpoints before the sampler's first pass. */
export function emptyMessage(meta: Meta | undefined, fallback: string): string {
  if (meta && meta.as_of === null) return "No data yet: the sampler has not completed its first pass. This page refreshes by itself.";
  return fallback;
}

// Every relative time on the page ticks from one shared clock, so a table of 100 rows does not run 100 timers.
const listeners = new Set<() => void>();
let ticker: ReturnType<typeof setInterval> | null = null;
function subscribeClock(listener: () => void): () => void {
  listeners.add(listener);
  ticker ??= setInterval(() => listeners.forEach((l) => l()), 15_000);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && ticker) {
      clearInterval(ticker);
      ticker = null;
    }
  };
}

export function RelativeTime({ iso }: { iso: string | null | undefined }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => subscribeClock(() => setNow(Date.now())), []);
  if (!iso) return <>–</>;
  // Server and browser clocks differ by the render delay: the text may change on hydration, which is expected.
  return (
    <time dateTime={iso} title={formatDateTime(iso)} suppressHydrationWarning>
      {formatRelativeTime(iso, now)}
    </time>
  );
}

/** A labelled group of radio-like buttons (window and interval switches). */
export function Segmented<T extends string>({
  label,
  options,
  value,
  onChange,
  name,
}: {
  label: string;
  options: readonly T[] | readonly { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
  name?: string;
}) {
  const id = useId();
  const items = options.map((o) => (typeof o === "string" ? { value: o, label: o } : o));
  return (
    <div className="segmented" role="radiogroup" aria-labelledby={`${id}-label`} data-testid={name ? `switch-${name}` : undefined}>
      <span id={`${id}-label`} className="segmented-label">
        {label}
      </span>
      {items.map((item) => (
        <button
          key={item.value}
          type="button"
          role="radio"
          aria-checked={item.value === value}
          className={item.value === value ? "active" : undefined}
          onClick={() => onChange(item.value)}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}

export function Pager({
  offset,
  limit,
  total,
  count,
  onChange,
}: {
  offset: number;
  limit: number;
  total: number | undefined;
  count: number;
  onChange: (offset: number) => void;
}) {
  const page = Math.floor(offset / limit) + 1;
  const pages = total !== undefined ? Math.max(1, Math.ceil(total / limit)) : undefined;
  const hasNext = total !== undefined ? offset + limit < total : count === limit;
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" onClick={() => onChange(Math.max(0, offset - limit))} disabled={offset === 0}>
        ← Previous
      </button>
      <span aria-live="polite">
        Page {page}
        {pages ? ` of ${pages}` : ""}
        {total !== undefined ? ` · ${total} events` : ""}
      </span>
      <button type="button" onClick={() => onChange(offset + limit)} disabled={!hasNext}>
        Next →
      </button>
    </nav>
  );
}

/** "sampled 2 min ago" / "live, cached 8 s" under a panel title. */
export function SourceNote({ meta }: { meta: Meta | undefined }) {
  if (!meta) return null;
  const label = meta.source === "live" ? "live" : meta.source === "chain" ? "on-chain" : "sampled";
  // Chain data is dated by the chain's own clock (a local test chain's may be far behind ours): name the block.
  if (meta.source === "chain") {
    return (
      <span className="source-note">
        {label}
        {typeof meta.block_number === "number" ? ` · block ${meta.block_number.toLocaleString("en-US")}` : ""}
        {meta.cache === "stale" ? " · showing the last good copy" : ""}
      </span>
    );
  }
  return (
    <span className="source-note">
      {label}
      {meta.as_of ? (
        <>
          {" · "}
          <RelativeTime iso={meta.as_of} />
        </>
      ) : null}
      {meta.cache === "stale" ? " · showing the last good copy" : ""}
    </span>
  );
}
