"use client";
import { useState } from "react";
import { formatUsd } from "@/lib/format";
import type { AbnormalTrade, Initial, Trade } from "@/lib/queries/types";
import { useApi } from "@/lib/queries/use-api";
import { useStream } from "@/lib/queries/use-stream";
import { ABNORMAL_LIMIT, TAPE_LIMIT } from "@/lib/queries/views";
import { DataPanel, DataTable } from "@/components/data-panel";
import { StreamStatus } from "@/components/stream-status";
import { MarketLink, mergeTrades, MinUsdSelect, tradeColumns, TradeRow, WhenAndSide } from "@/components/trade-rows";

export function TradeTape({
  initial,
  initialMinUsd,
  initialAbnormal,
}: {
  initial: Initial<Trade[]>;
  initialMinUsd: number;
  initialAbnormal: Initial<AbnormalTrade[]>;
}) {
  const [minUsd, setMinUsd] = useState(initialMinUsd);
  const [streamed, setStreamed] = useState<Trade[]>([]);
  const [streamedReasons, setStreamedReasons] = useState<Map<string, string>>(() => new Map());
  // New trades arrive on the stream; the list is the first page (and the fallback while the stream is down).
  const stream = useStream({ topics: "trades,abnormal", min_usd: minUsd || undefined }, (event, data) => {
    if (event === "trade") setStreamed((prev) => [data as Trade, ...prev].slice(0, TAPE_LIMIT));
    if (event === "abnormal") {
      const a = data as AbnormalTrade;
      setStreamedReasons((prev) => new Map(prev).set(a.id, a.reason));
    }
  });
  const tape = useApi<Trade[]>(
    "/api/predmkt/trades",
    { min_usd: minUsd || undefined, limit: TAPE_LIMIT },
    {
      initial,
      initialParams: { min_usd: initialMinUsd || undefined, limit: TAPE_LIMIT },
      refreshMs: stream.state === "live" ? 0 : 5_000,
    },
  );
  const abnormal = useApi<AbnormalTrade[]>(
    "/api/predmkt/abnormal",
    { limit: ABNORMAL_LIMIT },
    {
      initial: initialAbnormal,
      initialParams: { limit: ABNORMAL_LIMIT },
      refreshMs: 15_000,
    },
  );
  const reasons = new Map([...streamedReasons, ...(abnormal.data?.data ?? []).map((a) => [a.id, a.reason] as const)]);
  const rows = tape.data ? mergeTrades(streamed, tape.data.data, TAPE_LIMIT) : undefined;
  const choose = (v: number) => {
    setMinUsd(v);
    setStreamed([]);
    window.history.replaceState(null, "", v ? `?min_usd=${v}` : window.location.pathname);
  };
  return (
    <>
      <DataPanel
        id="tape"
        title="Trade tape"
        query={tape}
        rows={rows}
        status={<StreamStatus state={stream.state} />}
        controls={
          <>
            <MinUsdSelect value={minUsd} onChange={choose} />
            <p className="hint">
              New trades stream in as they are stored. Trades flagged abnormal are unusually large for their own market.
            </p>
          </>
        }
        loading={{ rows: 10, label: "Loading trades" }}
        empty={minUsd ? `No trades of at least ${formatUsd(minUsd)} yet.` : "No trades yet."}
      >
        {(shown) => (
          <DataTable testId="trades-table" scroll columns={tradeColumns(true)}>
            {shown.map((t) => (
              <TradeRow key={t.id} trade={t} showMarket flag={reasons.get(t.id)} />
            ))}
          </DataTable>
        )}
      </DataPanel>

      <DataPanel
        id="abnormal"
        title="Abnormal trades, last 24 h"
        query={abnormal}
        loading={{ rows: 4 }}
        empty="No abnormal trades in the last 24 hours."
      >
        {(flagged) => (
          <DataTable
            testId="abnormal-table"
            scroll
            columns={[
              { label: "When" },
              { label: "Side" },
              { label: "Market · why it stands out" },
              { label: "Size", num: true },
              { label: "Score", num: true, hideSm: true },
            ]}
          >
            {flagged.map((a) => (
              <tr key={a.id}>
                <WhenAndSide trade={a} />
                <td>
                  <MarketLink slug={a.event_slug} question={a.question} />
                  <span className="sub reason">{a.reason}</span>
                </td>
                <td className="num">{formatUsd(a.usd_size)}</td>
                <td className="num hide-sm">{a.score.toFixed(2)}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </DataPanel>
    </>
  );
}
