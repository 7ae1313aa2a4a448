"use client";
import Link from "next/link";
import { useState } from "react";
import { changeDirection, formatPoints, formatProbability, formatUsd } from "@/lib/format";
import type { Initial, Mover } from "@/lib/queries/types";
import { useApi } from "@/lib/queries/use-api";
import { MOVER_WINDOWS, MOVERS_LIMIT, type MoverWindow } from "@/lib/queries/views";
import { EmptyState, emptyMessage, QueryNotice, Segmented, SkeletonRows, SourceNote } from "@/components/ui";

export function MoversTable({ initial, initialWindow }: { initial: Initial<Mover[]>; initialWindow: MoverWindow }) {
  const [moverWindow, setMoverWindow] = useState<MoverWindow>(initialWindow);
  const { data, error, serverError } = useApi<Mover[]>("/api/predmkt/movers", { window: moverWindow, limit: MOVERS_LIMIT }, {
    initial,
    initialParams: { window: initialWindow, limit: MOVERS_LIMIT },
    refreshMs: 15_000,
  });
  const rows = data?.data;
  const choose = (w: MoverWindow) => {
    setMoverWindow(w);
    window.history.replaceState(null, "", w === "24h" ? window.location.pathname : `?window=${w}`);
  };
  return (
    <section className="panel" aria-labelledby="movers-title">
      <div className="panel-header">
        <h2 id="movers-title">Biggest moves over {moverWindow}</h2>
        <SourceNote meta={data?.meta} />
      </div>
      <div className="controls">
        <Segmented label="Window" name="movers-window" options={MOVER_WINDOWS} value={moverWindow} onChange={choose} />
      </div>
      <QueryNotice error={error ?? serverError} hasData={!!rows} asOf={data?.meta.as_of} />
      {!rows ? (
        error || serverError ? null : <SkeletonRows rows={8} label="Loading movers" />
      ) : rows.length === 0 ? (
        <EmptyState>{emptyMessage(data?.meta, `No market has samples old enough to compare over ${moverWindow} yet; the sampler needs one window of history. Try a shorter window.`)}</EmptyState>
      ) : (
        <div className="table-wrap" data-window={moverWindow}>
          <table className="data" data-testid="movers-table">
            <caption className="visually-hidden">Markets ranked by the absolute change of their first outcome over {moverWindow}</caption>
            <thead>
              <tr>
                <th scope="col">Market</th>
                <th scope="col" className="hide-sm">
                  Outcome
                </th>
                <th scope="col" className="num hide-sm">
                  Then
                </th>
                <th scope="col" className="num">
                  Now
                </th>
                <th scope="col" className="num">
                  Change
                </th>
                <th scope="col" className="num hide-sm">
                  24 h volume
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((m) => (
                <tr key={m.market_id}>
                  <td>
                    <Link href={`/events/${m.event_slug}`}>{m.question}</Link>
                  </td>
                  <td className="hide-sm">{m.outcome}</td>
                  <td className="num hide-sm">{formatProbability(m.probability_then)}</td>
                  <td className="num">{formatProbability(m.probability_now)}</td>
                  <td className={`num ${changeDirection(m.change)}`}>{formatPoints(m.change)}</td>
                  <td className="num hide-sm">{formatUsd(m.volume_24h_usd)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
