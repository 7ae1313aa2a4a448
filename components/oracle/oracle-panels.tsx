"use client";
import { formatDate, formatDateTime, formatInteger, formatProbability, formatRelativeTime, formatTokens, shortAddress } from "@/lib/format";
import type { DisputedAssertion, Initial, OracleSummary, Voter, VotingRound } from "@/lib/queries/types";
import { useApi } from "@/lib/queries/use-api";
import { VOTERS_LIMIT } from "@/lib/queries/views";
import { EmptyState, QueryNotice, SkeletonRows, SourceNote } from "@/components/ui";
import { TimeLineChart } from "@/components/charts/line-chart";

export function OracleSummaryCards({ initial }: { initial: Initial<OracleSummary> }) {
  const { data, error, serverError } = useApi<OracleSummary>("/api/oracle/summary", {}, { initial, refreshMs: 60_000 });
  const s = data?.data;
  return (
    <section className="panel panel-flat" aria-labelledby="oracle-summary-title">
      <div className="panel-header">
        <h2 id="oracle-summary-title" className="visually-hidden">
          Oracle summary
        </h2>
        <SourceNote meta={data?.meta} />
      </div>
      <QueryNotice error={error ?? serverError} hasData={!!s} asOf={data?.meta.as_of} />
      <dl className="stat-cards" data-testid="oracle-summary">
        <div className="stat-card">
          <dt>Pending DVM requests</dt>
          <dd>{formatInteger(s?.pending_requests)}</dd>
        </div>
        <div className="stat-card">
          <dt>Open Polymarket disputes</dt>
          <dd>{formatInteger(s?.disputed_requests)}</dd>
        </div>
        <div className="stat-card">
          <dt>Active round</dt>
          <dd>
            {s ? (
              <>
                #{s.active_round.round_id} <span className={`badge badge-phase-${s.active_round.phase}`}>{s.active_round.phase}</span>
              </>
            ) : (
              "–"
            )}
          </dd>
        </div>
        <div className="stat-card">
          <dt>Phase ends</dt>
          {/* Relative to the chain's clock (meta.as_of is the block's time), which is what decides the phase. */}
          <dd title={s ? formatDateTime(s.active_round.phase_ends_at) : undefined}>
            {s && data?.meta.as_of ? formatRelativeTime(s.active_round.phase_ends_at, Date.parse(data.meta.as_of)) : "–"}
          </dd>
        </div>
      </dl>
      {s ? (
        <p className="footnote">
          {formatInteger(s.active_round.requests_to_vote)} request(s) up for vote this round; round ends {formatDateTime(s.active_round.round_ends_at)}.
        </p>
      ) : null}
    </section>
  );
}

const STATUS_LABEL: Record<DisputedAssertion["status"], string> = {
  disputed: "Disputed",
  voting: "Voting",
  resolved: "Resolved",
  settled: "Settled",
};

export function DisputesTable({ initial }: { initial: Initial<DisputedAssertion[]> }) {
  const { data, error, serverError } = useApi<DisputedAssertion[]>("/api/oracle/disputes", {}, { initial, refreshMs: 60_000 });
  const rows = data?.data;
  return (
    <section className="panel" aria-labelledby="disputes-title">
      <div className="panel-header">
        <h2 id="disputes-title">Disputed questions</h2>
        <SourceNote meta={data?.meta} />
      </div>
      <QueryNotice error={error ?? serverError} hasData={!!rows} asOf={data?.meta.as_of} />
      {!rows ? (
        error || serverError ? null : <SkeletonRows rows={5} label="Loading disputes" />
      ) : rows.length === 0 ? (
        <EmptyState>No disputed Polymarket questions.</EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="data" data-testid="disputes-table">
            <thead>
              <tr>
                <th scope="col">Question</th>
                <th scope="col">Status</th>
                <th scope="col" className="num hide-sm">
                  Proposed
                </th>
                <th scope="col">Disputed</th>
                <th scope="col" className="hide-sm">
                  Disputer
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={d.id}>
                  <td>
                    <span className="row-title">{d.title ?? "(untitled request)"}</span>
                    <span className="sub">{d.identifier}</span>
                  </td>
                  <td>
                    <span className={`badge badge-status-${d.status}`} data-status={d.status}>
                      {STATUS_LABEL[d.status]}
                    </span>
                    {d.vote_phase ? <span className="sub">{d.vote_phase} phase</span> : null}
                    {d.roll_count > 0 ? <span className="sub">rolled {d.roll_count}×</span> : null}
                  </td>
                  <td className="num hide-sm">{d.proposed_price === "1" ? "Yes" : d.proposed_price === "0" ? "No" : d.proposed_price === "0.5" ? "Unknown" : (d.proposed_price ?? "–")}</td>
                  <td title={formatDateTime(d.disputed_at)}>{formatDate(d.disputed_at)}</td>
                  <td className="hide-sm trader" title={d.disputer ?? undefined}>
                    {shortAddress(d.disputer)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function RoundsChart({ initial }: { initial: Initial<VotingRound[]> }) {
  const { data, error, serverError } = useApi<VotingRound[]>("/api/oracle/rounds", {}, { initial, refreshMs: 60_000 });
  const rounds = [...(data?.data ?? [])].sort((a, b) => a.round_id - b.round_id);
  const series = [
    { id: "reveals", name: "Reveals", points: rounds.map((r) => ({ x: r.round_id, y: r.reveal_count })) },
    { id: "revealers", name: "Unique revealers", points: rounds.map((r) => ({ x: r.round_id, y: r.unique_revealers })) },
  ];
  return (
    <section className="panel" aria-labelledby="rounds-title">
      <div className="panel-header">
        <h2 id="rounds-title">Reveals per voting round</h2>
        <SourceNote meta={data?.meta} />
      </div>
      <QueryNotice error={error ?? serverError} hasData={rounds.length > 0} asOf={data?.meta.as_of} />
      {!data && !error && !serverError ? (
        <SkeletonRows rows={5} label="Loading rounds" />
      ) : rounds.length === 0 && data ? (
        <EmptyState>No voting rounds with reveals yet.</EmptyState>
      ) : rounds.length > 0 ? (
        <>
          <TimeLineChart
            series={series}
            xIsTime={false}
            xFormat={(v) => `#${v}`}
            yFormat={(v) => formatInteger(v)}
            yDomain={[0, "auto"]}
            label="Reveal count per voting round"
          />
          <details className="chart-table">
            <summary>Rounds as a table</summary>
            <div className="table-wrap">
              <table className="data compact" data-testid="rounds-table">
                <thead>
                  <tr>
                    <th scope="col">Round</th>
                    <th scope="col">Status</th>
                    <th scope="col" className="num">
                      Requests
                    </th>
                    <th scope="col" className="num">
                      Reveals
                    </th>
                    <th scope="col" className="num">
                      Revealers
                    </th>
                    <th scope="col" className="num">
                      Tokens revealed
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {[...rounds].reverse().map((r) => (
                    <tr key={r.round_id}>
                      <td>#{r.round_id}</td>
                      <td>{r.status}</td>
                      <td className="num">{r.requests}</td>
                      <td className="num">{r.reveal_count}</td>
                      <td className="num">{r.unique_revealers}</td>
                      <td className="num">{formatTokens(r.tokens_revealed)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      ) : null}
    </section>
  );
}

export function VotersTable({ initial }: { initial: Initial<Voter[]> }) {
  const { data, error, serverError } = useApi<Voter[]>("/api/oracle/voters", { limit: VOTERS_LIMIT }, {
    initial,
    initialParams: { limit: VOTERS_LIMIT },
    refreshMs: 5 * 60_000,
  });
  const rows = data?.data;
  return (
    <section className="panel" aria-labelledby="voters-title">
      <div className="panel-header">
        <h2 id="voters-title">Top stakers</h2>
        <SourceNote meta={data?.meta} />
      </div>
      <QueryNotice error={error ?? serverError} hasData={!!rows} asOf={data?.meta.as_of} />
      {!rows ? (
        error || serverError ? null : <SkeletonRows rows={6} label="Loading stakers" />
      ) : rows.length === 0 ? (
        <EmptyState>No stakers found.</EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="data" data-testid="voters-table">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Staker</th>
                <th scope="col" className="num">
                  Stake (UMA)
                </th>
                <th scope="col" className="num">
                  Share
                </th>
                <th scope="col" className="hide-sm">
                  Delegate
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((v) => (
                <tr key={v.address}>
                  <td>{v.rank}</td>
                  <td className="trader" title={v.address}>
                    {shortAddress(v.address)}
                  </td>
                  <td className="num" title={v.stake}>
                    {formatTokens(v.stake)}
                  </td>
                  <td className="num">{formatProbability(v.share_of_total_stake)}</td>
                  <td className="hide-sm trader">{shortAddress(v.delegate)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
