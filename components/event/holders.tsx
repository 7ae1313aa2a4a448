"use client";
import { useId, useState } from "react";
import Link from "next/link";
import { formatCompact, traderName } from "@/lib/format";
import type { Initial, LiveHolderGroup } from "@/lib/queries/types";
import { useApi } from "@/lib/queries/use-api";
import { HOLDERS_LIMIT } from "@/lib/queries/views";
import { EmptyState, QueryNotice, SkeletonRows, SourceNote } from "@/components/ui";
import { DataTable } from "@/components/data-panel";

export function TopHolders({
  markets,
  initialMarketId,
  initial,
}: {
  markets: { id: string; question: string }[];
  initialMarketId: string | null;
  initial?: Initial<LiveHolderGroup[]>;
}) {
  const id = useId();
  const [marketId, setMarketId] = useState(initialMarketId ?? markets[0]?.id ?? "");
  const { data, error, serverError } = useApi<LiveHolderGroup[]>(
    `/api/predmkt/markets/${marketId}/holders-live`,
    { limit: HOLDERS_LIMIT },
    {
      initial: marketId === initialMarketId ? initial : undefined,
      initialParams: { limit: HOLDERS_LIMIT },
      refreshMs: 60_000,
      enabled: !!marketId,
    },
  );
  const groups = data?.data;
  return (
    <section className="panel" aria-labelledby={`${id}-title`}>
      <div className="panel-header">
        <h2 id={`${id}-title`}>Top holders</h2>
        <SourceNote meta={data?.meta} />
      </div>
      {markets.length > 1 ? (
        <div className="controls">
          <label className="field grow">
            <span>Market</span>
            <select name="holders_market" value={marketId} onChange={(e) => setMarketId(e.target.value)}>
              {markets.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.question}
                </option>
              ))}
            </select>
          </label>
        </div>
      ) : null}
      <QueryNotice error={error ?? serverError} hasData={!!groups} asOf={data?.meta.as_of} />
      {!marketId ? (
        <EmptyState>No market to show holders for.</EmptyState>
      ) : !groups ? (
        error || serverError ? null : (
          <SkeletonRows rows={5} label="Loading holders" />
        )
      ) : (
        <div className="holder-groups">
          {groups.map((g) => (
            <div key={g.outcome_index} className="holder-group">
              <h3>{g.outcome}</h3>
              {g.holders.length === 0 ? (
                <EmptyState>No holders.</EmptyState>
              ) : (
                <DataTable testId="holders-table" compact columns={[{ label: "#" }, { label: "Holder" }, { label: "Shares", num: true }]}>
                  {g.holders.map((h, i) => (
                    <tr key={h.wallet}>
                      <td>{i + 1}</td>
                      <td className="trader" title={h.wallet}>
                        <Link href={`/wallets/${h.wallet.toLowerCase()}`}>{h.name || traderName(h.pseudonym, h.wallet)}</Link>
                      </td>
                      <td className="num">{formatCompact(h.shares)}</td>
                    </tr>
                  ))}
                </DataTable>
              )}
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
