"use client";
// Table rows shared by the event's live feed and the global tape.
import Link from "next/link";
import { formatPrice, formatUsd, traderName } from "@/lib/format";
import { RelativeTime } from "@/components/ui";

export interface TradeLike {
  id: string;
  side: "BUY" | "SELL";
  outcome: string | null;
  question: string | null;
  event_slug: string | null;
  price: number;
  usd_size: number;
  wallet: string;
  pseudonym: string | null;
  timestamp: string;
}

export function SideBadge({ side }: { side: "BUY" | "SELL" }) {
  return <span className={`badge ${side === "BUY" ? "badge-buy" : "badge-sell"}`}>{side === "BUY" ? "Buy" : "Sell"}</span>;
}

/** `compact` (a narrow side column): the market goes under the outcome, price and trader into the row's tooltip. */
export function TradeRow({ trade, showMarket, flag, compact = false }: { trade: TradeLike; showMarket: boolean; flag?: string; compact?: boolean }) {
  if (compact) {
    return (
      <tr data-trade-id={trade.id} title={`${formatPrice(trade.price)} · ${traderName(trade.pseudonym, trade.wallet)}`}>
        <td>
          <RelativeTime iso={trade.timestamp} />
        </td>
        <td>
          <SideBadge side={trade.side} />
        </td>
        <td>
          {trade.outcome ?? "–"}
          {trade.question ? <span className="sub clip">{trade.question}</span> : null}
        </td>
        <td className="num">{formatUsd(trade.usd_size)}</td>
      </tr>
    );
  }
  return (
    <tr data-trade-id={trade.id} className={flag ? "flagged" : undefined}>
      <td>
        <RelativeTime iso={trade.timestamp} />
      </td>
      <td>
        <SideBadge side={trade.side} />
      </td>
      {showMarket ? (
        <td>
          {trade.event_slug ? <Link href={`/events/${trade.event_slug}`}>{trade.question ?? trade.event_slug}</Link> : (trade.question ?? "–")}
          <span className="sub show-sm">{trade.outcome}</span>
          {flag ? (
            <span className="abnormal" data-testid="abnormal-reason">
              <span className="badge badge-warn">Abnormal</span> {flag}
            </span>
          ) : null}
        </td>
      ) : null}
      <td className={showMarket ? "hide-sm" : undefined}>{trade.outcome ?? "–"}</td>
      <td className="num hide-sm">{formatPrice(trade.price)}</td>
      <td className="num">{formatUsd(trade.usd_size)}</td>
      <td className="hide-sm trader" title={trade.wallet}>
        {traderName(trade.pseudonym, trade.wallet)}
      </td>
    </tr>
  );
}

export function TradeHead({ showMarket, compact = false }: { showMarket: boolean; compact?: boolean }) {
  if (compact) {
    return (
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Side</th>
          <th scope="col">Outcome · market</th>
          <th scope="col" className="num">
            Size
          </th>
        </tr>
      </thead>
    );
  }
  return (
    <thead>
      <tr>
        <th scope="col">When</th>
        <th scope="col">Side</th>
        {showMarket ? <th scope="col">Market</th> : null}
        <th scope="col" className={showMarket ? "hide-sm" : undefined}>
          Outcome
        </th>
        <th scope="col" className="num hide-sm">
          Price
        </th>
        <th scope="col" className="num">
          Size
        </th>
        <th scope="col" className="hide-sm">
          Trader
        </th>
      </tr>
    </thead>
  );
}
