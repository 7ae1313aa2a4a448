"use client";
import {
  formatDate,
  formatDateTime,
  formatInteger,
  formatProbability,
  formatRelativeTime,
  formatTokens,
  formatUsd,
  shortAddress,
} from "@/lib/format";
import Link from "next/link";
import type { DisputedAssertion, DisputeWithMarket, Initial, OracleSummary, Voter, VotingRound } from "@/lib/queries/types";
import { useApi } from "@/lib/queries/use-api";
import { VOTERS_LIMIT } from "@/lib/queries/views";
import { DataPanel, DataTable, StatPanel } from "@/components/data-panel";
import { TimeLineChart } from "@/components/charts/line-chart";

export function OracleSummaryCards({ initial }: { initial: Initial<OracleSummary> }) {
  const { data, error, serverError } = useApi<OracleSummary>("/api/oracle/summary", {}, { initial, refreshMs: 60_000 });
  const s = data?.data;
  return (
    <StatPanel
      id="oracle-summary"
      title="Oracle summary"
      meta={data?.meta}
      problem={error ?? serverError}
      hasData={!!s}
      testId="oracle-summary"
      cards={[
        { label: "Pending DVM requests", value: formatInteger(s?.pending_requests) },
        { label: "Open Polymarket disputes", value: formatInteger(s?.disputed_requests) },
        {
          label: "Active round",
          value: s ? (
            <>
              #{s.active_round.round_id} <span className={`badge badge-phase-${s.active_round.phase}`}>{s.active_round.phase}</span>
            </>
          ) : (
            "–"
          ),
        },
        {
          label: "Phase ends",
          // Relative to the chain's clock (meta.as_of is the block's time), which is what decides the phase.
          value: s && data?.meta.as_of ? formatRelativeTime(s.active_round.phase_ends_at, Date.parse(data.meta.as_of)) : "–",
          title: s ? formatDateTime(s.active_round.phase_ends_at) : undefined,
        },
      ]}
    >
      {s ? (
        <p className="footnote">
          {formatInteger(s.active_round.requests_to_vote)} request(s) up for vote this round; round ends{" "}
          {formatDateTime(s.active_round.round_ends_at)}.
        </p>
      ) : null}
    </StatPanel>
  );
}

const STATUS_LABEL: Record<DisputedAssertion["status"], string> = {
  disputed: "Disputed",
  queued: "Queued for a later vote",
  voting: "Voting",
  dvm_resolved: "DVM resolved (not yet on Polygon)",
  resolved: "Resolved",
  settled: "Settled",
  deleted: "DVM request deleted (rolled too often)",
};

export function DisputesTable({ initial }: { initial: Initial<DisputeWithMarket[]> }) {
  const query = useApi<DisputeWithMarket[]>("/api/oracle/disputes", {}, { initial, refreshMs: 60_000 });
  return (
    <DataPanel
      id="disputes"
      title="Disputed questions"
      query={query}
      loading={{ rows: 5, label: "Loading disputes" }}
      empty="No disputed Polymarket questions."
    >
      {(rows) => (
        <DataTable
          testId="disputes-table"
          columns={[
            { label: "Question" },
            { label: "Status" },
            { label: "Market", hideSm: true },
            { label: "Proposed", num: true, hideSm: true },
            { label: "Now", num: true },
            { label: "At stake", num: true, hideSm: true },
            { label: "Disputed" },
            { label: "Disputer", hideSm: true },
          ]}
        >
          {rows.map((d) => (
            <tr key={d.id}>
              <td>
                <Link className="row-title" href={`/oracle/disputes/${d.id}`}>
                  {d.title ?? "(untitled request)"}
                </Link>
                <span className="sub">{d.identifier}</span>
              </td>
              <td>
                <span className={`badge badge-status-${d.status}`} data-status={d.status}>
                  {STATUS_LABEL[d.status]}
                </span>
                {d.vote_phase ? <span className="sub">{d.vote_phase} phase</span> : null}
                {d.roll_count > 0 ? <span className="sub">rolled {d.roll_count}×</span> : null}
              </td>
              <td className="hide-sm">
                {d.market ? (
                  <Link href={`/events/${d.market.event_slug}`} data-testid="dispute-market-link">
                    {d.market.question}
                  </Link>
                ) : (
                  <span className="sub">{d.market_missing_reason?.replaceAll("_", " ") ?? "–"}</span>
                )}
              </td>
              <td className="num hide-sm">{d.proposed_outcome ?? d.proposed_price ?? "–"}</td>
              <td className="num" title={d.probability_outcome ? `P(${d.probability_outcome})` : undefined}>
                {formatProbability(d.probability_now)}
              </td>
              <td className="num hide-sm">{formatUsd(d.value_at_stake_usd)}</td>
              <td title={formatDateTime(d.disputed_at)}>{formatDate(d.disputed_at)}</td>
              <td className="hide-sm trader" title={d.disputer ?? undefined}>
                {shortAddress(d.disputer)}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </DataPanel>
  );
}

export function RoundsChart({ initial }: { initial: Initial<VotingRound[]> }) {
  const query = useApi<VotingRound[]>("/api/oracle/rounds", {}, { initial, refreshMs: 60_000 });
  const rounds = query.data ? [...query.data.data].sort((a, b) => a.round_id - b.round_id) : undefined;
  return (
    <DataPanel
      id="rounds"
      title="Reveals per voting round"
      query={query}
      rows={rounds}
      loading={{ rows: 5, label: "Loading rounds" }}
      empty="No voting rounds with reveals yet."
    >
      {(rows) => (
        <>
          <TimeLineChart
            series={[
              { id: "reveals", name: "Reveals", points: rows.map((r) => ({ x: r.round_id, y: r.reveal_count })) },
              { id: "revealers", name: "Unique revealers", points: rows.map((r) => ({ x: r.round_id, y: r.unique_revealers })) },
            ]}
            xIsTime={false}
            xFormat={(v) => `#${v}`}
            yFormat={(v) => formatInteger(v)}
            yDomain={[0, "auto"]}
            label="Reveal count per voting round"
          />
          <details className="chart-table">
            <summary>Rounds as a table</summary>
            <DataTable
              testId="rounds-table"
              compact
              columns={[
                { label: "Round" },
                { label: "Status" },
                { label: "Requests", num: true },
                { label: "Reveals", num: true },
                { label: "Revealers", num: true },
                { label: "Tokens revealed", num: true },
              ]}
            >
              {[...rows].reverse().map((r) => (
                <tr key={r.round_id}>
                  <td>#{r.round_id}</td>
                  <td>{r.status}</td>
                  <td className="num">{r.requests}</td>
                  <td className="num">{r.reveal_count}</td>
                  <td className="num">{r.unique_revealers}</td>
                  <td className="num">{formatTokens(r.tokens_revealed)}</td>
                </tr>
              ))}
            </DataTable>
          </details>
        </>
      )}
    </DataPanel>
  );
}

export function VotersTable({ initial }: { initial: Initial<Voter[]> }) {
  const query = useApi<Voter[]>(
    "/api/oracle/voters",
    { limit: VOTERS_LIMIT },
    {
      initial,
      initialParams: { limit: VOTERS_LIMIT },
      refreshMs: 5 * 60_000,
    },
  );
  return (
    <DataPanel id="voters" title="Top stakers" query={query} loading={{ rows: 6, label: "Loading stakers" }} empty="No stakers found.">
      {(rows) => (
        <DataTable
          testId="voters-table"
          columns={[
            { label: "#" },
            { label: "Staker" },
            { label: "Stake (UMA)", num: true },
            { label: "Share", num: true },
            { label: "Delegate", hideSm: true },
          ]}
        >
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
        </DataTable>
      )}
    </DataPanel>
  );
}
