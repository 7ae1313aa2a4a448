import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { WalletPnlChart } from "@/components/wallet/pnl-chart";
import { formatPrice, formatUsd } from "@/lib/format";
import { walletActivity, walletPositions, walletSummary } from "@/lib/wallets/answers";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Wallet" };

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="stat-card" data-testid={testId}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

const usd = (v: number | null) => (v === null ? "–" : formatUsd(v));
const pct = (v: number | null) => (v === null ? "–" : `${Math.round(v * 1000) / 10} %`);

export default async function WalletPage({
  params,
  searchParams,
}: {
  params: Promise<{ address: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { address: raw } = await params;
  const { tab } = await searchParams;
  if (!ADDRESS.test(raw)) notFound();
  const address = raw.toLowerCase();
  const status = tab === "closed" ? "closed" : "open";
  const summary = await walletSummary(address);
  const [positions, activity] = await Promise.all([
    walletPositions(address, { status, limit: 100, offset: 0 }),
    walletActivity(address, { limit: 50 }),
  ]);
  const w = summary.data;
  const pm = w.polymarket;
  return (
    <>
      <div className="page-title">
        <h1 data-testid="wallet-title">{w.name || w.pseudonym || address}</h1>
        <p className="lede">
          <code>{address}</code> · PnL by construction from the wallet&apos;s full activity ledger (<Link href="/docs">conventions</Link>).{" "}
          {summary.meta.complete ? null : (
            <strong data-testid="wallet-incomplete">
              Still reading its history: {summary.meta.rows_read} rows so far; figures cover what is read.
            </strong>
          )}
        </p>
        <p data-testid="wallet-labels">
          {w.labels.length ? (
            w.labels.map((l) => (
              <span key={l} className="badge">
                {l.replace("_", " ")}
              </span>
            ))
          ) : (
            <span className="footnote">No labels.</span>
          )}
        </p>
      </div>
      <dl className="stat-cards" data-testid="wallet-figures">
        <Figure label="PnL" value={usd(w.pnl_usd)} testId="wallet-pnl" />
        <Figure label="Realized" value={usd(w.realized_pnl_usd)} />
        <Figure label="Unrealized" value={usd(w.unrealized_pnl_usd)} />
        <Figure label="Open value" value={usd(w.value_usd)} />
        <Figure label="Volume" value={usd(w.volume_usd)} />
        <Figure label="Fills" value={String(w.trades)} />
        <Figure label="Markets" value={String(w.markets_traded)} />
        <Figure label="Win rate" value={pct(w.win_rate)} />
        <Figure label="Maker share" value={pct(w.maker_share)} />
      </dl>
      <section className="panel">
        <h2>Polymarket&apos;s figures beside ours</h2>
        <table className="data" data-testid="wallet-reconciliation">
          <thead>
            <tr>
              <th>Figure</th>
              <th className="num">Polymarket</th>
              <th className="num">Ours</th>
              <th className="num">Difference</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td>Leaderboard PnL (all time)</td>
              <td className="num">{usd(pm.leaderboard_pnl_usd)}</td>
              <td className="num">{usd(w.pnl_usd)}</td>
              <td className="num">{usd(w.pnl_difference_usd)}</td>
            </tr>
            <tr>
              <td>Σ /positions cashPnl + realizedPnl</td>
              <td className="num">{usd(pm.positions_pnl_usd)}</td>
              <td className="num">{usd(w.pnl_usd)}</td>
              <td className="num">{usd(w.positions_difference_usd)}</td>
            </tr>
            <tr>
              <td>Open value (/value)</td>
              <td className="num">{usd(pm.value_usd)}</td>
              <td className="num">{usd(w.value_usd)}</td>
              <td className="num">{pm.value_usd === null ? "–" : usd(Math.round((w.value_usd - pm.value_usd) * 100) / 100)}</td>
            </tr>
          </tbody>
        </table>
      </section>
      <section className="panel">
        <h2>Cumulative realized PnL</h2>
        <WalletPnlChart points={w.pnl_series} />
      </section>
      <section className="panel">
        <h2>Positions</h2>
        <nav className="tabs">
          <Link href={`/wallets/${address}?tab=open`} aria-current={status === "open" ? "page" : undefined}>
            Open
          </Link>{" "}
          <Link href={`/wallets/${address}?tab=closed`} aria-current={status === "closed" ? "page" : undefined} data-testid="tab-closed">
            Closed
          </Link>
        </nav>
        <table className="data" data-testid="wallet-positions">
          <thead>
            <tr>
              <th>Market</th>
              <th>Outcome</th>
              <th className="num">Shares</th>
              <th className="num">Avg</th>
              <th className="num">Now</th>
              <th className="num">Value</th>
              <th className="num">Realized</th>
              <th className="num">Unrealized</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {positions.data.map((p) => (
              <tr key={`${p.condition_id}:${p.outcome_index}`}>
                <td>{p.market_id ? <Link href={`/events/by-market/${p.market_id}`}>{p.question}</Link> : p.question}</td>
                <td>{p.outcome ?? p.outcome_index}</td>
                <td className="num">{p.size}</td>
                <td className="num">{formatPrice(p.avg_price)}</td>
                <td className="num">{formatPrice(p.current_price)}</td>
                <td className="num">{usd(p.value_usd)}</td>
                <td className="num">{usd(p.realized_pnl_usd)}</td>
                <td className="num">{usd(p.unrealized_pnl_usd)}</td>
                <td>{p.status.replace("_", " ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="panel">
        <h2>Activity</h2>
        <table className="data" data-testid="wallet-activity">
          <thead>
            <tr>
              <th>When</th>
              <th>Type</th>
              <th>Market</th>
              <th>Side</th>
              <th className="num">Size</th>
              <th className="num">Price</th>
              <th className="num">USD</th>
            </tr>
          </thead>
          <tbody>
            {activity.data.map((a, i) => (
              <tr key={`${a.at}:${i}`}>
                <td>{a.at.replace("T", " ").slice(0, 16)}</td>
                <td>{a.type}</td>
                <td>{a.question ?? "–"}</td>
                <td>{a.side ?? ""}</td>
                <td className="num">{a.size}</td>
                <td className="num">{a.price === null ? "" : formatPrice(a.price)}</td>
                <td className="num">{usd(a.usd)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}
