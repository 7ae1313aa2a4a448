// The stored answer of each oracle endpoint: `{data, meta}` as the API sends it, minus the per-request cache fields
// (lib/oracle/service.ts adds those). Built by the indexer at one pinned block per chain.
import type { DisputesSnapshot } from "./disputes";
import type { RoundsSnapshot } from "./rounds";
import type { ChainSummary } from "./summary";
import { isoFromSeconds } from "./time";
import type { VotersSnapshot } from "./voters";

const chainMeta = (blockNumber: bigint, asOf: bigint, backfillComplete: boolean) => ({
  source: "chain" as const,
  as_of: isoFromSeconds(asOf),
  block_number: Number(blockNumber),
  backfill_complete: backfillComplete,
});

export function summaryBody(chain: ChainSummary, disputes: DisputesSnapshot, backfillComplete: boolean) {
  return {
    data: {
      pending_requests: chain.pendingRequests,
      disputed_requests: disputes.disputes.filter((d) => d.status === "disputed" || d.status === "queued" || d.status === "voting").length,
      resolved_requests: chain.resolvedRequests,
      active_round: chain.activeRound,
    },
    meta: { ...chainMeta(chain.blockNumber, chain.asOf, backfillComplete), counts_stale: chain.countsStale },
  };
}

export function disputesBody(s: DisputesSnapshot, backfillComplete: boolean) {
  return {
    data: s.disputes,
    meta: {
      ...chainMeta(s.blockNumbers.ethereum, s.asOf, backfillComplete),
      count: s.disputes.length,
      total: s.disputes.length,
      polygon_block_number: Number(s.blockNumbers.polygon),
      degraded_rows: s.degradedRows,
    },
  };
}

export function roundsBody(s: RoundsSnapshot, backfillComplete: boolean) {
  return {
    data: s.rounds,
    meta: {
      ...chainMeta(s.blockNumber, s.asOf, backfillComplete),
      count: s.rounds.length,
      current_round_id: s.currentRoundId,
      degraded_rows: s.rounds.filter((r) => r.unread.length > 0).length,
    },
  };
}

export function votersBody(s: VotersSnapshot, backfillComplete: boolean) {
  return {
    data: s.voters,
    meta: {
      ...chainMeta(s.blockNumber, s.asOf, backfillComplete),
      total: s.voters.length,
      cumulative_stake: s.cumulativeStake,
      stale_stakes: s.staleCount,
      pending_unstakes: s.pendingUnstakes,
    },
  };
}

export type SummaryBody = ReturnType<typeof summaryBody>;
export type DisputesBody = ReturnType<typeof disputesBody>;
export type RoundsBody = ReturnType<typeof roundsBody>;
export type VotersBody = ReturnType<typeof votersBody>;
