"use client";
import { TimeLineChart } from "@/components/charts/line-chart";
import { formatUsd } from "@/lib/format";

/** Cumulative realized PnL from the wallet's ledger (docs/wallets.md). */
export function WalletPnlChart({ points }: { points: { t: number; realized_pnl_usd: number }[] }) {
  if (points.length < 2) return <p className="footnote">Not enough activity for a chart.</p>;
  return (
    <TimeLineChart
      label="Cumulative realized PnL"
      series={[{ id: "realized", name: "Realized PnL", points: points.map((p) => ({ x: p.t, y: p.realized_pnl_usd })) }]}
      yFormat={(v) => formatUsd(v)}
      showLegend={false}
    />
  );
}
