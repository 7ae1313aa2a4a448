"use client";
import { formatProbability, formatUsd } from "@/lib/format";
import type { EventDetail, Initial } from "@/lib/queries/types";
import { useApi } from "@/lib/queries/use-api";
import { EmptyState, QueryNotice, SourceNote } from "@/components/ui";

export function EventMarkets({ slug, initial }: { slug: string; initial: Initial<EventDetail> }) {
  const { data, error, serverError } = useApi<EventDetail>(`/api/predmkt/events/${slug}`, {}, { initial, refreshMs: 15_000 });
  const markets = data?.data.markets ?? [];
  return (
    <section className="panel" aria-labelledby="markets-title">
      <div className="panel-header">
        <h2 id="markets-title">Markets</h2>
        <SourceNote meta={data?.meta} />
      </div>
      <QueryNotice error={error ?? serverError} hasData={markets.length > 0} asOf={data?.meta.as_of} />
      {markets.length === 0 ? (
        <EmptyState>This event has no markets yet.</EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="data" data-testid="markets-table">
            <thead>
              <tr>
                <th scope="col">Market and outcome probabilities</th>
                <th scope="col" className="num">
                  24 h volume
                </th>
                <th scope="col" className="num hide-sm">
                  Liquidity
                </th>
              </tr>
            </thead>
            <tbody>
              {markets.map((m) => (
                <tr key={m.id} className={m.closed ? "muted-row" : undefined}>
                  <td>
                    <span className="row-title">{m.question}</span>
                    {m.closed ? <span className="tag">closed</span> : null}
                    <ul className="outcomes" aria-label={`Outcomes of ${m.question}`}>
                      {m.outcomes.map((o) => (
                        <li key={o.index}>
                          <span className="outcome-name">{o.name}</span>
                          <span className="prob-bar" aria-hidden="true">
                            <span style={{ width: `${Math.round((o.probability ?? 0) * 100)}%` }} className={o.index === 0 ? "yes" : "no"} />
                          </span>
                          <span className="num outcome-prob">{formatProbability(o.probability)}</span>
                        </li>
                      ))}
                    </ul>
                  </td>
                  <td className="num">{formatUsd(m.volume_24h_usd)}</td>
                  <td className="num hide-sm">{formatUsd(m.liquidity_usd)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
