"use client";
import Link from "next/link";
import { formatProbability, formatUsd } from "@/lib/format";
import type { EventDetail, Initial } from "@/lib/queries/types";
import { useState } from "react";
import { useApi } from "@/lib/queries/use-api";
import { useStream } from "@/lib/queries/use-stream";
import { StreamStatus } from "@/components/stream-status";
import { EmptyState, QueryNotice, SourceNote } from "@/components/ui";
import { DataTable } from "@/components/data-panel";

export function EventMarkets({ slug, initial }: { slug: string; initial: Initial<EventDetail> }) {
  const { data, error, serverError } = useApi<EventDetail>(`/api/predmkt/events/${slug}`, {}, { initial, refreshMs: 15_000 });
  // Price ticks stream in as they are stored: the latest tick of an outcome wins over the last fetched body.
  const [ticks, setTicks] = useState<Map<string, number>>(() => new Map());
  const stream = useStream({ topics: "ticks", event: slug }, (event, data) => {
    const tick = data as { market_id: string; outcome_index: number; price: number };
    if (event === "tick") setTicks((prev) => new Map(prev).set(`${tick.market_id}:${tick.outcome_index}`, tick.price));
  });
  const markets = (data?.data.markets ?? []).map((m) => ({
    ...m,
    outcomes: m.outcomes.map((o) => ({ ...o, probability: ticks.get(`${m.id}:${o.index}`) ?? o.probability })),
  }));
  return (
    <section className="panel" aria-labelledby="markets-title">
      <div className="panel-header">
        <h2 id="markets-title">Markets</h2>
        <StreamStatus state={stream.state} />
        <SourceNote meta={data?.meta} />
      </div>
      <QueryNotice error={error ?? serverError} hasData={markets.length > 0} asOf={data?.meta.as_of} />
      {markets.length === 0 ? (
        <EmptyState>This event has no markets yet.</EmptyState>
      ) : (
        <DataTable
          testId="markets-table"
          columns={[
            { label: "Market and outcome probabilities" },
            { label: "24 h volume", num: true },
            { label: "Liquidity", num: true, hideSm: true },
          ]}
        >
          {markets.map((m) => (
            <tr key={m.id} className={m.closed ? "muted-row" : undefined}>
              <td>
                <span className="row-title">{m.question}</span>
                {m.closed ? <span className="tag">closed</span> : null}
                {m.resolution.status !== "none" && m.resolution.dispute_id ? (
                  <Link
                    className={`badge badge-status-${m.resolution.status}`}
                    href={`/oracle/disputes/${m.resolution.dispute_id}`}
                    data-testid="market-resolution"
                    title={`UMA: proposed ${m.resolution.proposed_outcome ?? "?"}, ${m.resolution.status}`}
                  >
                    {m.resolution.status}
                  </Link>
                ) : null}
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
        </DataTable>
      )}
    </section>
  );
}
