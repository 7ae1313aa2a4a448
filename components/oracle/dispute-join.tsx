// How one dispute reaches its market and what its question's own contracts decided (GET /api/oracle/disputes/{id}):
// the id that joined it (docs/resolution.md), the NegRiskOperator's question or the sports game's markets behind a
// neg-risk or sports join, the adapter's reset, and the question's outcome outside the vote (docs/oracle-facts.md).
import { formatDateTime, shortAddress } from "@/lib/format";
import type { DisputeDetail } from "@/lib/queries/types";

type Dispute = DisputeDetail;

const JOINED_BY: Record<string, string> = {
  question_id: "its questionID (Gamma's questionID)",
  condition_id: "its condition id, keccak256(adapter, questionID, 2)",
  neg_risk_request_id: "its neg-risk request id (Gamma's negRiskRequestID)",
  neg_risk_operator: "the NegRiskOperator's question",
  sports_game: "the sports game's markets",
};

const OUTCOME: Record<string, string> = {
  reset: "asked again outside a dispute",
  flagged: "flagged for a manual resolution",
  paused: "resolution paused",
  manually_resolved: "resolved by the admin",
  emergency_resolved: "resolved by the admin (emergency)",
  emergency_settled: "scores set by the admin",
  canceled: "game canceled",
};

const short = (id: string) => `${id.slice(0, 10)}…${id.slice(-6)}`;

export function DisputeJoin({ d }: { d: Dispute }) {
  const outcome = d.question_outcome;
  return (
    <section className="panel" aria-labelledby="dispute-join-title" data-testid="dispute-join">
      <div className="panel-header">
        <h2 id="dispute-join-title">Question and market</h2>
      </div>
      <ul className="plain">
        <li>
          Joined by {d.market_join ? (JOINED_BY[d.market_join] ?? d.market_join) : "nothing"}
          {d.market ? (
            <>
              : <span title={d.market.condition_id}>{d.market.question}</span>
            </>
          ) : null}
        </li>
        {d.neg_risk ? (
          <li data-testid="dispute-neg-risk">
            Neg-risk: operator <span title={d.neg_risk.operator}>{shortAddress(d.neg_risk.operator)}</span> prepared question{" "}
            <span title={d.neg_risk.question_id}>{short(d.neg_risk.question_id)}</span> of market{" "}
            <span title={d.neg_risk.market_id}>{short(d.neg_risk.market_id)}</span>
          </li>
        ) : null}
        {d.sports ? (
          <li data-testid="dispute-sports">
            Sports game <span title={d.sports.game_id}>{short(d.sports.game_id)}</span>: {d.sports.markets.length} market
            {d.sports.markets.length === 1 ? "" : "s"} decided by this dispute
            <ul className="plain">
              {d.sports.markets.map((m) => (
                <li key={m.market_id} title={m.condition_id}>
                  {m.market_type}
                  {m.market_type === "winner" ? "" : ` ${Number(m.line) / 1e6}`}
                  {d.market && m.condition_id.toLowerCase() === d.market.condition_id.toLowerCase() ? " (shown)" : ""}
                </li>
              ))}
            </ul>
          </li>
        ) : null}
        {d.question_reset ? (
          <li>
            The adapter reset the question in this dispute&apos;s transaction: the market waits for a new proposal; this vote decides the
            bonds.
          </li>
        ) : null}
        {outcome ? (
          <li data-testid="dispute-question-outcome">
            <span className={`badge badge-status-${outcome.status}`}>{outcome.status}</span> {OUTCOME[outcome.status] ?? ""}:{" "}
            {outcome.contract}.{outcome.event}
            {outcome.at ? ` at ${formatDateTime(outcome.at)}` : ""} (<span title={outcome.tx_hash}>{short(outcome.tx_hash)}</span>)
          </li>
        ) : null}
      </ul>
    </section>
  );
}
