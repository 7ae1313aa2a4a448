// The four oracle endpoints' bodies: cached chain snapshots (summary, disputes, rounds 60 s; voters 5 min) wrapped in
// the `{data, meta}` envelope with `meta.source: "chain"` and `meta.as_of` = the head block's timestamp. On an RPC
// failure the last good snapshot is served for up to 10 minutes marked `meta.cache: "stale"`; past that, 502/504.
import { cachedRead, type CachedValue } from "./cache";
import { defaultOracleContext, type OracleContext } from "./context";
import { loadDisputes } from "./disputes";
import { loadRounds } from "./rounds";
import { loadChainSummary } from "./summary";
import { loadVoters } from "./voters";

export const SUMMARY_TTL_MS = 60_000;
export const DISPUTES_TTL_MS = 60_000;
export const ROUNDS_TTL_MS = 60_000;
export const VOTERS_TTL_MS = 5 * 60_000;

const iso = (seconds: bigint) => new Date(Number(seconds) * 1000).toISOString();

function cacheMeta(c: CachedValue<unknown>) {
  return { cache: c.cache, age_s: c.ageS };
}

/** `Cache-Control` for a cached body: private, for as long as it stays fresh here. */
export function cacheControl(c: { maxAgeS: number }): string {
  return `private, max-age=${c.maxAgeS}`;
}

const disputesOf = (ctx: OracleContext) => cachedRead(`${ctx.id}:disputes`, DISPUTES_TTL_MS, () => loadDisputes(ctx));

export async function getOracleSummary(ctx = defaultOracleContext()) {
  const c = await cachedRead(`${ctx.id}:summary`, SUMMARY_TTL_MS, async () => {
    const [chain, disputes] = await Promise.all([loadChainSummary(ctx), disputesOf(ctx)]);
    return { chain, disputes: disputes.value };
  });
  const { chain, disputes } = c.value;
  return {
    cached: c,
    body: {
      data: {
        pending_requests: chain.pendingRequests,
        disputed_requests: disputes.disputes.filter((d) => d.status === "disputed" || d.status === "voting").length,
        resolved_requests: chain.resolvedRequests,
        active_round: chain.activeRound,
      },
      meta: { source: "chain" as const, as_of: iso(chain.asOf), ...cacheMeta(c), block_number: Number(chain.blockNumber) },
    },
  };
}

export async function getOracleDisputes(ctx = defaultOracleContext()) {
  const c = await disputesOf(ctx);
  const s = c.value;
  return {
    cached: c,
    body: {
      data: s.disputes,
      meta: {
        source: "chain" as const,
        as_of: iso(s.asOf),
        ...cacheMeta(c),
        count: s.disputes.length,
        total: s.disputes.length,
        block_number: Number(s.blockNumbers.ethereum),
        polygon_block_number: Number(s.blockNumbers.polygon),
        backfill_complete: s.backfillComplete,
      },
    },
  };
}

export async function getOracleRounds(ctx = defaultOracleContext()) {
  const c = await cachedRead(`${ctx.id}:rounds`, ROUNDS_TTL_MS, () => loadRounds(ctx));
  const s = c.value;
  return {
    cached: c,
    body: {
      data: s.rounds,
      meta: {
        source: "chain" as const,
        as_of: iso(s.asOf),
        ...cacheMeta(c),
        count: s.rounds.length,
        current_round_id: s.currentRoundId,
        block_number: Number(s.blockNumber),
        backfill_complete: s.backfillComplete,
      },
    },
  };
}

export async function getOracleVoters(query: { limit: number }, ctx = defaultOracleContext()) {
  const c = await cachedRead(`${ctx.id}:voters`, VOTERS_TTL_MS, () => loadVoters(ctx));
  const s = c.value;
  const data = s.voters.slice(0, query.limit);
  return {
    cached: c,
    body: {
      data,
      meta: {
        source: "chain" as const,
        as_of: iso(s.asOf),
        ...cacheMeta(c),
        limit: query.limit,
        offset: 0,
        count: data.length,
        total: s.voters.length,
        cumulative_stake: s.cumulativeStake,
        block_number: Number(s.blockNumber),
        backfill_complete: s.backfillComplete,
      },
    },
  };
}
