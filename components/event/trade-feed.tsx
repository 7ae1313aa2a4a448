"use client";
import { useState } from "react";
import type { Initial, LiveTrade } from "@/lib/queries/types";
import { useApi } from "@/lib/queries/use-api";
import { useStream } from "@/lib/queries/use-stream";
import { EVENT_FEED_LIMIT, type TradeSideFilter } from "@/lib/queries/views";
import { DataPanel, DataTable } from "@/components/data-panel";
import { Segmented } from "@/components/ui";
import { StreamStatus } from "@/components/stream-status";
import { mergeTrades, MinUsdSelect, tradeColumns, TradeRow, type TradeLike } from "@/components/trade-rows";

export function EventTradeFeed({ slug, initial }: { slug: string; initial?: Initial<LiveTrade[]> }) {
  const [side, setSide] = useState<TradeSideFilter>("");
  const [minUsd, setMinUsd] = useState(0);
  const params = { side: side || undefined, min_usd: minUsd || undefined, limit: EVENT_FEED_LIMIT };
  const [streamed, setStreamed] = useState<TradeLike[]>([]);
  // The event's trades as the service stores them; the upstream's live page is the first page and the fallback.
  const stream = useStream({ topics: "trades", event: slug, min_usd: minUsd || undefined }, (event, trade) => {
    if (event === "trade") setStreamed((prev) => [trade as TradeLike, ...prev].slice(0, EVENT_FEED_LIMIT));
  });
  const query = useApi<LiveTrade[]>(`/api/predmkt/events/${slug}/activity-live`, params, {
    initial,
    initialParams: { limit: EVENT_FEED_LIMIT },
    refreshMs: stream.state === "live" ? 0 : 10_000,
  });
  const trades = query.data
    ? mergeTrades<TradeLike>(
        streamed.filter((t) => !side || t.side === side),
        query.data.data,
        EVENT_FEED_LIMIT,
      )
    : undefined;
  return (
    <DataPanel
      id="feed"
      title="Live trades"
      query={query}
      rows={trades}
      status={<StreamStatus state={stream.state} />}
      controls={
        <>
          <Segmented<TradeSideFilter>
            label="Side"
            name="side"
            options={[
              { value: "", label: "Both" },
              { value: "BUY", label: "Buys" },
              { value: "SELL", label: "Sells" },
            ]}
            value={side}
            onChange={setSide}
          />
          <MinUsdSelect
            value={minUsd}
            onChange={(v) => {
              setMinUsd(v);
              setStreamed([]);
            }}
          />
        </>
      }
      loading={{ rows: 6, label: "Loading trades" }}
      empty="No trades match these filters."
    >
      {(rows) => (
        <DataTable testId="event-trades" scroll columns={tradeColumns(false, true)}>
          {rows.map((t) => (
            <TradeRow key={t.id} trade={t} showMarket={false} compact />
          ))}
        </DataTable>
      )}
    </DataPanel>
  );
}
