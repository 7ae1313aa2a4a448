"use client";
import { useState } from "react";
import { formatProbability } from "@/lib/format";
import type { Initial, LiveSeries } from "@/lib/queries/types";
import { useApi } from "@/lib/queries/use-api";
import { HISTORY_INTERVALS, HISTORY_MARKETS, type HistoryInterval } from "@/lib/queries/views";
import { EmptyState, QueryNotice, Segmented, SkeletonRows, SourceNote } from "@/components/ui";
import { TimeLineChart } from "@/components/charts/line-chart";

export const DEFAULT_HISTORY_INTERVAL: HistoryInterval = "1d";

export function HistoryChart({ slug, initial }: { slug: string; initial?: Initial<LiveSeries[]> }) {
  const [interval, setInterval] = useState<HistoryInterval>(DEFAULT_HISTORY_INTERVAL);
  const params = { interval, markets: HISTORY_MARKETS };
  const { data, error, serverError, isFetching } = useApi<LiveSeries[]>(`/api/predmkt/events/${slug}/history-live`, params, {
    initial,
    initialParams: { interval: DEFAULT_HISTORY_INTERVAL, markets: HISTORY_MARKETS },
    refreshMs: 90_000,
  });
  const series = (data?.data ?? [])
    .filter((s) => s.points.length > 0)
    .map((s) => ({ id: s.market_id, name: `${s.question} (${s.outcome})`, points: s.points.map((p) => ({ x: p.t, y: p.p })) }));
  return (
    <section className="panel" aria-labelledby="history-title">
      <div className="panel-header">
        <h2 id="history-title">Price history</h2>
        <SourceNote meta={data?.meta} />
      </div>
      <div className="controls">
        <Segmented label="Interval" name="interval" options={HISTORY_INTERVALS} value={interval} onChange={setInterval} />
      </div>
      <QueryNotice error={error ?? serverError} hasData={series.length > 0} asOf={data?.meta.as_of} />
      {!data && !error && !serverError ? (
        <SkeletonRows rows={6} label="Loading price history" />
      ) : series.length === 0 && data ? (
        <EmptyState>No price history for this interval.</EmptyState>
      ) : series.length > 0 ? (
        <div aria-busy={isFetching} data-interval={interval}>
          <TimeLineChart series={series} yFormat={(v) => formatProbability(v)} label={`Probability of the top markets over ${interval}`} />
        </div>
      ) : null}
    </section>
  );
}
