"use client";
// Table rows shared by the event's live feed and the global tape.
import Link from "next/link";
import { formatPrice, formatUsd, traderName } from "@/lib/format";
import { MIN_USD_CHOICES } from "@/lib/queries/views";
import { RelativeTime } from "@/components/ui";
import type { Column } from "@/components/data-panel";

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

/** Newest first (ties by id, as the API orders the tape), each trade once, at most `limit`. */
export function mergeTrades<T extends { id: string; timestamp: string }>(streamed: readonly T[], listed: readonly T[], limit: number): T[] {
  const byId = new Map<string, T>();
  for (const t of [...streamed, ...listed]) if (!byId.has(t.id)) byId.set(t.id, t);
  return [...byId.values()]
    .sort((a, b) => b.timestamp.localeCompare(a.timestamp) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .slice(0, limit);
}

export function SideBadge({ side }: { side: "BUY" | "SELL" }) {
  return <span className={`badge ${side === "BUY" ? "badge-buy" : "badge-sell"}`}>{side === "BUY" ? "Buy" : "Sell"}</span>;
}

/** `compact` (a narrow side column): the market goes under the outcome, price and trader into the row's tooltip. */
export function TradeRow({
  trade,
  showMarket,
  flag,
  compact = false,
}: {
  trade: TradeLike;
  showMarket: boolean;
  flag?: string;
  compact?: boolean;
}) {
  const whenAndSide = <WhenAndSide trade={trade} />;
  if (compact) {
    return (
      <tr data-trade-id={trade.id} title={`${formatPrice(trade.price)} · ${traderName(trade.pseudonym, trade.wallet)}`}>
        {whenAndSide}
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
      {whenAndSide}
      {showMarket ? (
        <td>
          <MarketLink slug={trade.event_slug} question={trade.question} />
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
        <Link href={`/wallets/${trade.wallet.toLowerCase()}`}>{traderName(trade.pseudonym, trade.wallet)}</Link>
      </td>
    </tr>
  );
}

/** The trade's market, linked to its event page when the event is known. */
export function MarketLink({ slug, question }: { slug: string | null; question: string | null }) {
  return slug ? <Link href={`/events/${slug}`}>{question ?? slug}</Link> : <>{question ?? "–"}</>;
}

/** The columns of a table of TradeRows with the same options. */
export function tradeColumns(showMarket: boolean, compact = false): Column[] {
  if (compact) return [{ label: "When" }, { label: "Side" }, { label: "Outcome · market" }, { label: "Size", num: true }];
  return [
    { label: "When" },
    { label: "Side" },
    ...(showMarket ? [{ label: "Market" }] : []),
    { label: "Outcome", hideSm: showMarket },
    { label: "Price", num: true, hideSm: true },
    { label: "Size", num: true },
    { label: "Trader", hideSm: true },
  ];
}

/** A trade's first two cells: when (ticking) and its side. */
export function WhenAndSide({ trade }: { trade: { timestamp: string; side: "BUY" | "SELL" } }) {
  return (
    <>
      <td>
        <RelativeTime iso={trade.timestamp} />
      </td>
      <td>
        <SideBadge side={trade.side} />
      </td>
    </>
  );
}

/** The minimum trade size filter: MIN_USD_CHOICES, and the current value when it is another (e.g. from the address). */
export function MinUsdSelect({ value, onChange }: { value: number; onChange: (minUsd: number) => void }) {
  return (
    <label className="field">
      <span>Minimum size</span>
      <select name="min_usd" value={value} onChange={(e) => onChange(Number(e.target.value))}>
        {(MIN_USD_CHOICES as readonly number[]).includes(value) ? null : <option value={value}>≥ {formatUsd(value)}</option>}
        {MIN_USD_CHOICES.map((v) => (
          <option key={v} value={v}>
            {v === 0 ? "Any size" : `≥ ${formatUsd(v)}`}
          </option>
        ))}
      </select>
    </label>
  );
}
