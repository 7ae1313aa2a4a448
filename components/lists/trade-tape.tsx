"use client";
import Link from "next/link";
import { useState } from "react";
import { formatUsd } from "@/lib/format";
import type { AbnormalTrade, Initial, Trade } from "@/lib/queries/types";
import { useApi } from "@/lib/queries/use-api";
import { ABNORMAL_LIMIT, MIN_USD_CHOICES, TAPE_LIMIT } from "@/lib/queries/views";
import { EmptyState, emptyMessage, QueryNotice, RelativeTime, SkeletonRows, SourceNote } from "@/components/ui";
import { SideBadge, TradeHead, TradeRow } from "@/components/trade-rows";

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
  const tape = useApi<Trade[]>("/api/predmkt/trades", { min_usd: minUsd || undefined, limit: TAPE_LIMIT }, {
    initial,
    initialParams: { min_usd: initialMinUsd || undefined, limit: TAPE_LIMIT },
    refreshMs: 5_000,
  });
  const abnormal = useApi<AbnormalTrade[]>("/api/predmkt/abnormal", { limit: ABNORMAL_LIMIT }, {
    initial: initialAbnormal,
    initialParams: { limit: ABNORMAL_LIMIT },
    refreshMs: 15_000,
  });
  const reasons = new Map((abnormal.data?.data ?? []).map((a) => [a.id, a.reason]));
  const rows = tape.data?.data;
  const choose = (v: number) => {
    setMinUsd(v);
    window.history.replaceState(null, "", v ? `?min_usd=${v}` : window.location.pathname);
  };
  const flagged = abnormal.data?.data ?? [];
  return (
    <>
      <section className="panel" aria-labelledby="tape-title">
        <div className="panel-header">
          <h2 id="tape-title">Trade tape</h2>
          <SourceNote meta={tape.data?.meta} />
        </div>
        <div className="controls">
          <label className="field">
            <span>Minimum size</span>
            <select name="min_usd" value={minUsd} onChange={(e) => choose(Number(e.target.value))}>
              {(MIN_USD_CHOICES as readonly number[]).includes(minUsd) ? null : <option value={minUsd}>≥ {formatUsd(minUsd)}</option>}
              {MIN_USD_CHOICES.map((v) => (
                <option key={v} value={v}>
                  {v === 0 ? "Any size" : `≥ ${formatUsd(v)}`}
                </option>
              ))}
            </select>
          </label>
          <p className="hint">Refreshes every 5 s. Trades flagged abnormal are unusually large for their own market.</p>
        </div>
        <QueryNotice error={tape.error ?? tape.serverError} hasData={!!rows} asOf={tape.data?.meta.as_of} />
        {!rows ? (
          tape.error || tape.serverError ? null : <SkeletonRows rows={10} label="Loading trades" />
        ) : rows.length === 0 ? (
          <EmptyState>{emptyMessage(tape.data?.meta, minUsd ? `No trades of at least ${formatUsd(minUsd)} yet.` : "No trades yet.")}</EmptyState>
        ) : (
          <div className="table-wrap scroll-y">
            <table className="data" data-testid="trades-table">
              <TradeHead showMarket />
              <tbody>
                {rows.map((t) => (
                  <TradeRow key={t.id} trade={t} showMarket flag={reasons.get(t.id)} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section className="panel" aria-labelledby="abnormal-title">
        <div className="panel-header">
          <h2 id="abnormal-title">Abnormal trades, last 24 h</h2>
          <SourceNote meta={abnormal.data?.meta} />
        </div>
        <QueryNotice error={abnormal.error ?? abnormal.serverError} hasData={!!abnormal.data} asOf={abnormal.data?.meta.as_of} />
        {!abnormal.data ? (
          abnormal.error || abnormal.serverError ? null : <SkeletonRows rows={4} />
        ) : flagged.length === 0 ? (
          <EmptyState>{emptyMessage(abnormal.data.meta, "No abnormal trades in the last 24 hours.")}</EmptyState>
        ) : (
          <div className="table-wrap scroll-y">
            <table className="data" data-testid="abnormal-table">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Side</th>
                  <th scope="col">Market · why it stands out</th>
                  <th scope="col" className="num">
                    Size
                  </th>
                  <th scope="col" className="num hide-sm">
                    Score
                  </th>
                </tr>
              </thead>
              <tbody>
                {flagged.map((a) => (
                  <tr key={a.id}>
                    <td>
                      <RelativeTime iso={a.timestamp} />
                    </td>
                    <td>
                      <SideBadge side={a.side} />
                    </td>
                    <td>
                      {a.event_slug ? <Link href={`/events/${a.event_slug}`}>{a.question ?? a.event_slug}</Link> : (a.question ?? "–")}
                      <span className="sub reason">{a.reason}</span>
                    </td>
                    <td className="num">{formatUsd(a.usd_size)}</td>
                    <td className="num hide-sm">{a.score.toFixed(2)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}
