"use client";
import { useState } from "react";
import { formatUsd } from "@/lib/format";
import type { Initial, LiveTrade } from "@/lib/queries/types";
import { useApi } from "@/lib/queries/use-api";
import { EVENT_FEED_LIMIT, MIN_USD_CHOICES, type TradeSideFilter } from "@/lib/queries/views";
import { EmptyState, QueryNotice, Segmented, SkeletonRows, SourceNote } from "@/components/ui";
import { TradeHead, TradeRow } from "@/components/trade-rows";

export function EventTradeFeed({ slug, initial }: { slug: string; initial?: Initial<LiveTrade[]> }) {
  const [side, setSide] = useState<TradeSideFilter>("");
  const [minUsd, setMinUsd] = useState(0);
  const params = { side: side || undefined, min_usd: minUsd || undefined, limit: EVENT_FEED_LIMIT };
  const { data, error, serverError } = useApi<LiveTrade[]>(`/api/predmkt/events/${slug}/activity-live`, params, {
    initial,
    initialParams: { limit: EVENT_FEED_LIMIT },
    refreshMs: 10_000,
  });
  const trades = data?.data;
  return (
    <section className="panel" aria-labelledby="feed-title">
      <div className="panel-header">
        <h2 id="feed-title">Live trades</h2>
        <SourceNote meta={data?.meta} />
      </div>
      <div className="controls">
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
        <label className="field">
          <span>Minimum size</span>
          <select name="min_usd" value={minUsd} onChange={(e) => setMinUsd(Number(e.target.value))}>
            {MIN_USD_CHOICES.map((v) => (
              <option key={v} value={v}>
                {v === 0 ? "Any size" : `≥ ${formatUsd(v)}`}
              </option>
            ))}
          </select>
        </label>
      </div>
      <QueryNotice error={error ?? serverError} hasData={!!trades} asOf={data?.meta.as_of} />
      {!trades ? (
        error || serverError ? null : <SkeletonRows rows={6} label="Loading trades" />
      ) : trades.length === 0 ? (
        <EmptyState>No trades match these filters.</EmptyState>
      ) : (
        <div className="table-wrap scroll-y">
          <table className="data" data-testid="event-trades">
            <TradeHead showMarket={false} compact />
            <tbody>
              {trades.map((t) => (
                <TradeRow key={t.id} trade={t} showMarket={false} compact />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
