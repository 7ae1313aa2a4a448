"use client";
import { formatInteger, formatUsd } from "@/lib/format";
import type { Initial, Stats } from "@/lib/queries/types";
import { useApi } from "@/lib/queries/use-api";
import { QueryNotice, SourceNote } from "@/components/ui";

export function StatCards({ initial }: { initial: Initial<Stats> }) {
  const { data, error, serverError } = useApi<Stats>("/api/predmkt/stats", {}, { initial, refreshMs: 15_000 });
  const s = data?.data;
  const cards = [
    { label: "Open events", value: formatInteger(s?.active_events) },
    { label: "Open markets", value: formatInteger(s?.active_markets) },
    { label: "24 h volume", value: formatUsd(s?.volume_24h_usd) },
    { label: "Liquidity", value: formatUsd(s?.liquidity_usd) },
  ];
  return (
    <section aria-labelledby="stats-title" className="panel panel-flat">
      <div className="panel-header">
        <h2 id="stats-title" className="visually-hidden">
          Global snapshot
        </h2>
        <SourceNote meta={data?.meta} />
      </div>
      <QueryNotice error={error ?? serverError} hasData={!!s} asOf={data?.meta.as_of} />
      <dl className="stat-cards" data-testid="stat-cards">
        {cards.map((c) => (
          <div className="stat-card" key={c.label}>
            <dt>{c.label}</dt>
            <dd>{s ? c.value : "–"}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
