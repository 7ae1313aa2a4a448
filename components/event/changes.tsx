"use client";
import { useState } from "react";
import { changeDirection, formatPoints, formatProbability } from "@/lib/format";
import type { Change, Initial } from "@/lib/queries/types";
import { useApi } from "@/lib/queries/use-api";
import { CHANGE_WINDOWS, type ChangeWindow } from "@/lib/queries/views";
import { DataPanel, DataTable } from "@/components/data-panel";
import { RelativeTime, Segmented } from "@/components/ui";

export function ChangesTable({ slug, initial }: { slug: string; initial: Initial<Change[]> }) {
  const [changeWindow, setChangeWindow] = useState<ChangeWindow>("24h");
  const query = useApi<Change[]>(
    `/api/predmkt/events/${slug}/changes`,
    { window: changeWindow },
    {
      initial,
      initialParams: { window: "24h" },
      refreshMs: 20_000,
    },
  );
  return (
    <DataPanel
      id="changes"
      title="Probability changes"
      query={query}
      controls={<Segmented label="Window" name="changes-window" options={CHANGE_WINDOWS} value={changeWindow} onChange={setChangeWindow} />}
      loading={{ rows: 4 }}
      empty={`No samples old enough to compare over ${changeWindow} yet.`}
    >
      {(rows) => (
        <DataTable
          testId="changes-table"
          columns={[
            { label: "Market" },
            { label: "Outcome" },
            { label: "Now", num: true },
            { label: "Then", num: true, hideSm: true },
            { label: "Change", num: true },
            { label: "Compared with", hideSm: true },
          ]}
        >
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
        </DataTable>
      )}
    </DataPanel>
  );
}
