"use client";
import { formatInteger, formatUsd } from "@/lib/format";
import type { Initial, Stats } from "@/lib/queries/types";
import { useApi } from "@/lib/queries/use-api";
import { StatPanel } from "@/components/data-panel";

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
    <StatPanel
      id="stats"
      title="Global snapshot"
      meta={data?.meta}
      problem={error ?? serverError}
      hasData={!!s}
      testId="stat-cards"
      cards={cards.map((c) => ({ label: c.label, value: s ? c.value : "–" }))}
    />
  );
}
