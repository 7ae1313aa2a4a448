"use client";
import Link from "next/link";
import { useState } from "react";
import { changeDirection, formatPoints, formatProbability, formatUsd } from "@/lib/format";
import type { Initial, Mover } from "@/lib/queries/types";
import { useApi } from "@/lib/queries/use-api";
import { MOVER_WINDOWS, MOVERS_LIMIT, type MoverWindow } from "@/lib/queries/views";
import { DataPanel, DataTable } from "@/components/data-panel";
import { Segmented } from "@/components/ui";

export function MoversTable({ initial, initialWindow }: { initial: Initial<Mover[]>; initialWindow: MoverWindow }) {
  const [moverWindow, setMoverWindow] = useState<MoverWindow>(initialWindow);
  const query = useApi<Mover[]>(
    "/api/predmkt/movers",
    { window: moverWindow, limit: MOVERS_LIMIT },
    {
      initial,
      initialParams: { window: initialWindow, limit: MOVERS_LIMIT },
      refreshMs: 15_000,
    },
  );
  const choose = (w: MoverWindow) => {
    setMoverWindow(w);
    window.history.replaceState(null, "", w === "24h" ? window.location.pathname : `?window=${w}`);
  };
  return (
    <DataPanel
      id="movers"
      title={<>Biggest moves over {moverWindow}</>}
      query={query}
      controls={<Segmented label="Window" name="movers-window" options={MOVER_WINDOWS} value={moverWindow} onChange={choose} />}
      loading={{ rows: 8, label: "Loading movers" }}
      empty={`No market has samples old enough to compare over ${moverWindow} yet; the sampler needs one window of history. Try a shorter window.`}
    >
      {(rows) => (
        <DataTable
          testId="movers-table"
          wrap={{ "data-window": moverWindow }}
          caption={<>Markets ranked by the absolute change of their first outcome over {moverWindow}</>}
          columns={[
            { label: "Market" },
            { label: "Outcome", hideSm: true },
            { label: "Then", num: true, hideSm: true },
            { label: "Now", num: true },
            { label: "Change", num: true },
            { label: "24 h volume", num: true, hideSm: true },
          ]}
        >
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
        </DataTable>
      )}
    </DataPanel>
  );
}
