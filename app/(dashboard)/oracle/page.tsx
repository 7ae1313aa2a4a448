import type { Metadata } from "next";
import { DisputesTable, OracleSummaryCards, RoundsChart, VotersTable } from "@/components/oracle/oracle-panels";
import { getOracleRounds, getOracleSummary, getOracleVoters } from "@/lib/oracle/service";
import { disputesWithMarkets } from "@/lib/resolution/joined-disputes";
import { initialFrom } from "@/lib/queries/initial";
import type { DisputeWithMarket, OracleSummary, Voter, VotingRound } from "@/lib/queries/types";
import { VOTERS_LIMIT } from "@/lib/queries/views";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Oracle" };

export default async function OraclePage() {
  const [summary, disputes, rounds, voters] = await Promise.all([
    initialFrom<OracleSummary>(async () => (await getOracleSummary()).body),
    initialFrom<DisputeWithMarket[]>(async () => (await disputesWithMarkets()).body),
    initialFrom<VotingRound[]>(async () => (await getOracleRounds()).body),
    initialFrom<Voter[]>(async () => (await getOracleVoters({ limit: VOTERS_LIMIT })).body),
  ]);
  return (
    <>
      <div className="page-title">
        <h1>Oracle</h1>
        <p className="lede">
          UMA settles Polymarket&apos;s questions: a proposal can be disputed on Polygon, and disputes go to a token-holder vote on
          Ethereum. Everything here is read on-chain.
        </p>
      </div>
      <OracleSummaryCards initial={summary} />
      <DisputesTable initial={disputes} />
      <div className="grid-2 even">
        <RoundsChart initial={rounds} />
        <VotersTable initial={voters} />
      </div>
    </>
  );
}
