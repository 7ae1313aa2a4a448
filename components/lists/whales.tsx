"use client";
import Link from "next/link";
import { changeDirection, formatCompact, formatPrice, formatUsd, traderName } from "@/lib/format";
import type { Initial, Whale } from "@/lib/queries/types";
import { useApi } from "@/lib/queries/use-api";
import { WHALES_LIMIT } from "@/lib/queries/views";
import { EmptyState, emptyMessage, QueryNotice, RelativeTime, SkeletonRows, SourceNote } from "@/components/ui";

export function WhalesTable({ initial }: { initial: Initial<Whale[]> }) {
  const { data, error, serverError } = useApi<Whale[]>("/api/predmkt/whales", { limit: WHALES_LIMIT }, {
    initial,
    initialParams: { limit: WHALES_LIMIT },
    refreshMs: 30_000,
  });
  const rows = data?.data;
  return (
    <section className="panel" aria-labelledby="whales-title">
      <div className="panel-header">
        <h2 id="whales-title">Largest open positions</h2>
        <SourceNote meta={data?.meta} />
      </div>
      <QueryNotice error={error ?? serverError} hasData={!!rows} asOf={data?.meta.as_of} />
      {!rows ? (
        error || serverError ? null : <SkeletonRows rows={8} label="Loading positions" />
      ) : rows.length === 0 ? (
        <EmptyState>{emptyMessage(data?.meta, "No positions sampled yet.")}</EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="data" data-testid="whales-table">
            <thead>
              <tr>
                <th scope="col">Holder</th>
                <th scope="col">Market</th>
                <th scope="col" className="hide-sm">
                  Outcome
                </th>
                <th scope="col" className="num hide-sm">
                  Shares
                </th>
                <th scope="col" className="num hide-sm">
                  Entry
                </th>
                <th scope="col" className="num hide-sm">
                  Now
                </th>
                <th scope="col" className="num">
                  Value
                </th>
                <th scope="col" className="num">
                  Unrealized PnL
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((w) => (
                <tr key={`${w.wallet}-${w.token_id}`}>
                  <td className="trader" title={w.wallet}>
                    {traderName(w.pseudonym, w.wallet)}
                  </td>
                  <td>
                    <Link href={`/events/by-market/${w.market_id}`}>{w.question}</Link>
                  </td>
                  <td className="hide-sm">{w.outcome}</td>
                  <td className="num hide-sm">{formatCompact(w.shares)}</td>
                  <td className="num hide-sm">{formatPrice(w.entry_price)}</td>
                  <td className="num hide-sm">{formatPrice(w.current_price)}</td>
                  <td className="num">{formatUsd(w.value_usd)}</td>
                  <td className={`num ${changeDirection(w.unrealized_pnl_usd)}`}>{formatUsd(w.unrealized_pnl_usd)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {rows && rows.length > 0 ? (
        <p className="footnote">
          Positions sampled <RelativeTime iso={rows[0].sampled_at} />; value = shares × current probability.
        </p>
      ) : null}
    </section>
  );
}
