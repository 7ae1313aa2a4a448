"use client";
// One dispute (GET /api/oracle/disputes/{id}): the market it decides and how it was joined (neg-risk operator, sports
// game), its question's outcome outside the vote, its price around the proposal and the dispute, the DVM vote, the
// market's largest holders per side, and the voters who hold positions in it.
import Link from "next/link";
import { TimeLineChart } from "@/components/charts/line-chart";
import { DataTable, StatPanel } from "@/components/data-panel";
import { EmptyState, QueryNotice, SkeletonRows } from "@/components/ui";
import { formatDateTime, formatInteger, formatProbability, formatTokens, formatUsd, shortAddress } from "@/lib/format";
import type { DisputeDetail, Initial } from "@/lib/queries/types";
import { useApi } from "@/lib/queries/use-api";
import { DisputeJoin } from "./dispute-join";

const VIA: Record<string, string> = { proxy: "proxy wallet", safe: "Safe", same_address: "same address" };

export function DisputeDetailView({ id, initial }: { id: string; initial: Initial<DisputeDetail> }) {
  const { data, error, serverError } = useApi<DisputeDetail>(`/api/oracle/disputes/${id}`, {}, { initial, refreshMs: 60_000 });
  const d = data?.data;
  if (!d) {
    return (
      <section className="panel">
        <QueryNotice error={error ?? serverError} hasData={false} asOf={null} />
        {error || serverError ? null : <SkeletonRows rows={6} label="Loading dispute" />}
      </section>
    );
  }
  const series = [
    {
      id: "p",
      name: `P(${d.probability_outcome ?? "first outcome"})`,
      points: d.series.map((p) => ({ x: p.t, y: p.p })),
    },
  ];
  return (
    <>
      <div className="page-title">
        <h1 data-testid="dispute-title">{d.title ?? "(untitled request)"}</h1>
        <p className="lede">
          <span className={`badge badge-status-${d.status}`}>{d.status}</span> Proposed <strong>{d.proposed_outcome ?? "–"}</strong>
          {d.proposed_at ? ` at ${formatDateTime(d.proposed_at)}` : ""}; disputed {formatDateTime(d.disputed_at)}.
        </p>
        <p className="related">
          {d.market ? (
            <>
              Market:{" "}
              <Link href={`/events/${d.market.event_slug}`} data-testid="dispute-event-link">
                {d.market.question}
              </Link>{" "}
              (joined by {d.market_join?.replaceAll("_", " ")})
            </>
          ) : (
            <>No market found: {d.market_missing_reason?.replaceAll("_", " ")}</>
          )}
        </p>
      </div>
      <StatPanel
        title="Dispute figures"
        meta={data?.meta}
        problem={error ?? serverError}
        hasData
        testId="dispute-figures"
        cards={[
          { label: "At proposal", value: formatProbability(d.probability_at_proposal) },
          { label: "At dispute", value: formatProbability(d.probability_at_dispute) },
          { label: "Now", value: formatProbability(d.probability_now) },
          {
            label: "Value at stake",
            value: formatUsd(d.value_at_stake_usd),
            title:
              d.value_at_stake_basis === "open_interest"
                ? "The market's open interest (Polymarket Data API)"
                : "Largest holders' shares × price (a lower bound: the upstream gave no open interest)",
          },
        ]}
      />
      <div className="grid-2">
        <div className="col-main">
          <section className="panel" aria-labelledby="dispute-series-title">
            <div className="panel-header">
              <h2 id="dispute-series-title">Price from a day before the proposal</h2>
            </div>
            {d.series.length ? (
              <TimeLineChart
                series={series}
                yFormat={(v) => formatProbability(v)}
                yDomain={[0, 1]}
                label="Probability of the market's first outcome around the dispute"
              />
            ) : (
              <EmptyState>No price history for this market.</EmptyState>
            )}
          </section>
          <section className="panel" aria-labelledby="dispute-voters-title">
            <div className="panel-header">
              <h2 id="dispute-voters-title">Voters holding positions</h2>
            </div>
            {d.voter_positions.length === 0 ? (
              <EmptyState>None of the {formatInteger(d.voters_checked)} voters checked holds a listed position.</EmptyState>
            ) : (
              <DataTable
                testId="voter-positions"
                columns={[{ label: "Voter" }, { label: "Stake", num: true }, { label: "Position" }, { label: "Tie" }]}
              >
                {d.voter_positions.flatMap((v) =>
                  v.positions.map((p) => (
                    <tr key={`${v.voter}:${p.wallet}:${p.outcome_index}`}>
                      <td className="trader" title={v.voter}>
                        {shortAddress(v.voter)}
                        <span className="sub">{v.roles.join(", ")}</span>
                      </td>
                      <td className="num">{formatTokens(v.stake)}</td>
                      <td>
                        {formatInteger(p.shares)} {p.outcome}
                      </td>
                      <td title={p.wallet}>
                        <Link href={`/wallets/${p.wallet.toLowerCase()}`}>{VIA[p.via]}</Link> · {p.certainty.replaceAll("_", " ")}
                      </td>
                    </tr>
                  )),
                )}
              </DataTable>
            )}
          </section>
        </div>
        <div className="col-side">
          <DisputeJoin d={d} />
          <section className="panel" aria-labelledby="dispute-vote-title">
            <div className="panel-header">
              <h2 id="dispute-vote-title">Vote</h2>
            </div>
            {!d.vote ? (
              <EmptyState>Not on the DVM yet.</EmptyState>
            ) : (
              <>
                <table className="data compact" data-testid="dispute-vote">
                  <thead>
                    <tr>
                      <th scope="col">Round</th>
                      <th scope="col">Vote</th>
                      <th scope="col" className="num">
                        Voters
                      </th>
                      <th scope="col" className="num">
                        Tokens
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.vote.rounds.flatMap((r) =>
                      r.votes.map((v) => (
                        <tr key={`${r.round_id}:${v.price}`}>
                          <td>#{r.round_id}</td>
                          <td>{v.outcome}</td>
                          <td className="num">{v.voters}</td>
                          <td className="num">{formatTokens(v.tokens)}</td>
                        </tr>
                      )),
                    )}
                  </tbody>
                </table>
                <p className="footnote">
                  {d.vote.resolved_outcome
                    ? `Resolved: ${d.vote.resolved_outcome} (round #${d.vote.resolved_round_id}).`
                    : "Not resolved yet."}{" "}
                  Commits are not shown: a commit is a hash until it is revealed.
                </p>
              </>
            )}
          </section>
          <section className="panel" aria-labelledby="dispute-holders-title" data-testid="dispute-holders">
            <div className="panel-header">
              <h2 id="dispute-holders-title">Largest holders</h2>
            </div>
            {d.holders.length === 0 ? (
              <EmptyState>No holders listed.</EmptyState>
            ) : (
              d.holders.map((side) => (
                <details key={side.outcome_index ?? -1} open={side.outcome_index === 0}>
                  <summary>
                    {side.outcome ?? "?"} ({side.holders.length})
                  </summary>
                  <ul className="plain">
                    {side.holders.slice(0, 10).map((h) => (
                      <li key={h.wallet} className="trader" title={h.wallet}>
                        <Link href={`/wallets/${h.wallet.toLowerCase()}`}>{h.name ?? shortAddress(h.wallet)}</Link> —{" "}
                        {formatInteger(h.shares)}
                      </li>
                    ))}
                  </ul>
                </details>
              ))
            )}
          </section>
        </div>
      </div>
    </>
  );
}
