"use client";
import { useState } from "react";
import { changeDirection, formatPoints, formatProbability } from "@/lib/format";
import type { Change, Initial } from "@/lib/queries/types";
import { useApi } from "@/lib/queries/use-api";
import { CHANGE_WINDOWS, type ChangeWindow } from "@/lib/queries/views";
import { EmptyState, emptyMessage, QueryNotice, RelativeTime, Segmented, SkeletonRows, SourceNote } from "@/components/ui";

export function ChangesTable({ slug, initial }: { slug: string; initial: Initial<Change[]> }) {
  const [changeWindow, setChangeWindow] = useState<ChangeWindow>("24h");
  const { data, error, serverError } = useApi<Change[]>(`/api/predmkt/events/${slug}/changes`, { window: changeWindow }, {
    initial,
    initialParams: { window: "24h" },
    refreshMs: 20_000,
  });
  const rows = data?.data;
  return (
    <section className="panel" aria-labelledby="changes-title">
      <div className="panel-header">
        <h2 id="changes-title">Probability changes</h2>
        <SourceNote meta={data?.meta} />
      </div>
      <div className="controls">
        <Segmented label="Window" name="changes-window" options={CHANGE_WINDOWS} value={changeWindow} onChange={setChangeWindow} />
      </div>
      <QueryNotice error={error ?? serverError} hasData={!!rows} asOf={data?.meta.as_of} />
      {!rows ? (
        error || serverError ? null : <SkeletonRows rows={4} />
      ) : rows.length === 0 ? (
        <EmptyState>{emptyMessage(data?.meta, `No samples old enough to compare over ${changeWindow} yet.`)}</EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="data" data-testid="changes-table">
            <thead>
              <tr>
                <th scope="col">Market</th>
                <th scope="col">Outcome</th>
                <th scope="col" className="num">
                  Now
                </th>
                <th scope="col" className="num hide-sm">
                  Then
                </th>
                <th scope="col" className="num">
                  Change
                </th>
                <th scope="col" className="hide-sm">
                  Compared with
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((c) => (
                <tr key={`${c.market_id}-${c.outcome_index}`}>
                  <td>{c.question}</td>
                  <td>{c.outcome}</td>
                  <td className="num">{formatProbability(c.probability_now)}</td>
                  <td className="num hide-sm">{formatProbability(c.probability_then)}</td>
                  <td className={`num ${changeDirection(c.change)}`}>{formatPoints(c.change)}</td>
                  <td className="hide-sm">
                    <RelativeTime iso={c.then_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
