"use client";
// The embeddable widget: an event's leading probabilities and a sparkline of its biggest market, refreshing itself.
// Meant for an iframe on another site, so every link opens the full dashboard in a new tab.
import { formatProbability } from "@/lib/format";
import type { EventDetail, Initial, LiveSeries } from "@/lib/queries/types";
import { useApi } from "@/lib/queries/use-api";
import { QueryNotice, RelativeTime } from "@/components/ui";
import { Sparkline } from "@/components/charts/line-chart";

const SHOWN = 4;

export function EventWidget({
  slug,
  initialEvent,
  initialHistory,
}: {
  slug: string;
  initialEvent: Initial<EventDetail>;
  initialHistory: Initial<LiveSeries[]>;
}) {
  const event = useApi<EventDetail>(`/api/predmkt/events/${slug}`, {}, { initial: initialEvent, refreshMs: 20_000 });
  const history = useApi<LiveSeries[]>(
    `/api/predmkt/events/${slug}/history-live`,
    { interval: "1d", markets: 1 },
    {
      initial: initialHistory,
      initialParams: { interval: "1d", markets: 1 },
      refreshMs: 90_000,
    },
  );
  const detail = event.data?.data;
  const open = (detail?.markets ?? []).filter((m) => !m.closed);
  // One market: show its outcomes. Several: the leading outcome of the biggest ones.
  const rows =
    open.length === 1
      ? open[0].outcomes.map((o) => ({ key: `${o.index}`, label: o.name, p: o.probability }))
      : [...open]
          .sort((a, b) => b.volume_usd - a.volume_usd)
          .slice(0, SHOWN)
          .map((m) => ({ key: m.id, label: m.question, p: m.outcomes[0]?.probability ?? null }));
  const series = history.data?.data[0];
  const points = (series?.points ?? []).map((p) => ({ x: p.t, y: p.p }));
  const href = `/events/${slug}`;
  return (
    <div className="widget" data-testid="widget">
      <header className="widget-header">
        <a href={href} target="_blank" rel="noopener" className="widget-title">
          {detail?.title ?? slug}
        </a>
      </header>
      <QueryNotice error={event.error ?? event.serverError} hasData={!!detail} asOf={event.data?.meta.as_of} />
      {rows.length ? (
        <ul className="widget-rows" data-testid="widget-rows">
          {rows.map((r) => (
            <li key={r.key}>
              <span className="widget-label" title={r.label}>
                {r.label}
              </span>
              <span className="prob-bar" aria-hidden="true">
                <span className="yes" style={{ width: `${Math.round((r.p ?? 0) * 100)}%` }} />
              </span>
              <strong className="num">{formatProbability(r.p)}</strong>
            </li>
          ))}
        </ul>
      ) : detail ? (
        <p className="empty">No open markets.</p>
      ) : null}
      {points.length > 1 ? (
        <div className="widget-spark">
          <span className="widget-spark-label">{series?.question ?? "Top market"} · 24 h</span>
          <Sparkline points={points} label={`${series?.question ?? "Top market"}: probability over the last day`} />
        </div>
      ) : null}
      <footer className="widget-footer">
        {event.data?.meta.as_of ? (
          <span>
            Updated <RelativeTime iso={event.data.meta.as_of} />
          </span>
        ) : (
          <span />
        )}
        <a href="/" target="_blank" rel="noopener">
          Predmkt
        </a>
      </footer>
    </div>
  );
}
