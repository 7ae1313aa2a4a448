"use client";
import Link from "next/link";
import { changeDirection, formatCompact, formatPrice, formatUsd, traderName } from "@/lib/format";
import type { Initial, Whale } from "@/lib/queries/types";
import { useApi } from "@/lib/queries/use-api";
import { WHALES_LIMIT } from "@/lib/queries/views";
import { DataPanel, DataTable } from "@/components/data-panel";
import { RelativeTime } from "@/components/ui";

export function WhalesTable({ initial }: { initial: Initial<Whale[]> }) {
  const query = useApi<Whale[]>(
    "/api/predmkt/whales",
    { limit: WHALES_LIMIT },
    {
      initial,
      initialParams: { limit: WHALES_LIMIT },
      refreshMs: 30_000,
    },
  );
  return (
    <DataPanel
      id="whales"
      title="Largest open positions"
      query={query}
      loading={{ rows: 8, label: "Loading positions" }}
      empty="No positions sampled yet."
    >
      {(rows) => (
        <>
          <DataTable
            testId="whales-table"
            columns={[
              { label: "Holder" },
              { label: "Market" },
              { label: "Outcome", hideSm: true },
              { label: "Shares", num: true, hideSm: true },
              { label: "Entry", num: true, hideSm: true },
              { label: "Now", num: true, hideSm: true },
              { label: "Value", num: true },
              { label: "Unrealized PnL", num: true },
            ]}
          >
            {rows.map((w) => (
              <tr key={`${w.wallet}-${w.token_id}`}>
                <td className="trader" title={w.wallet}>
                  <Link href={`/wallets/${w.wallet.toLowerCase()}`}>{traderName(w.pseudonym, w.wallet)}</Link>
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
          </DataTable>
          <p className="footnote">
            Positions sampled <RelativeTime iso={rows[0].sampled_at} />; value = shares × current probability.
          </p>
        </>
      )}
    </DataPanel>
  );
}
