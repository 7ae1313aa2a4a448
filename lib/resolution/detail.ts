// /api/oracle/disputes/{id}: one dispute with its market, the market's price series from a day before the proposal
// to now, the DVM vote (reveals per round, the resolved price), the market's largest holders per side, and the voters
// who hold positions in it (docs/resolution.md, "Proxy wallets"). Built once per stored oracle answer and dispute
// (the join cache), from the oracle index, our samples and bounded, cached upstream reads.
import type { Address } from "viem";
import { ApiError } from "@/lib/api/errors";
import type { PricePoint } from "@/lib/analytics/changes";
import { getDb } from "@/lib/db/client";
import { defaultOracleContext } from "@/lib/oracle/context";
import { readDisputeVote } from "@/lib/oracle/dispute-vote";
import { chainAnswer, getOracleVoters } from "@/lib/oracle/service";
import { cachedLoad } from "@/lib/upstream";
import { walletUrl } from "@/lib/upstream/ids";
import { firstOutcomeSeries, holderGroups, marketsForDisputes, SERIES_LEAD_SECONDS } from "./markets-for-disputes";
import { indexMarkets, joinDisputeToMarket, joinKeyOf } from "./join";
import { type Holder, type Voter, votersHoldingPositions } from "./overlap";
import { joinCache } from "./join-cache";
import { loadJoinedDisputes } from "./joined-disputes";
import { decimalToWei, outcomeInWords, outcomeLabelsFromOutcomes, outcomeLabelsFromText } from "./status";

/** Points in a series answer at most (the series is thinned evenly beyond that, keeping its first and last points). */
const MAX_SERIES_POINTS = 500;
/** Top stakers checked for positions besides the dispute's own voters. */
const TOP_STAKERS = 20;
const CODE_TTL_S = 24 * 3600;

const seconds = (iso: string | null) => (iso ? Math.floor(Date.parse(iso) / 1000) : null);

function thin<P>(points: readonly P[], max = MAX_SERIES_POINTS): P[] {
  if (points.length <= max) return [...points];
  const step = (points.length - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => points[Math.round(i * step)]);
}

/** Whether the voter's mainnet address holds contract code (a contract's owner on Polygon need not be the same). */
async function hasCode(address: Address): Promise<boolean | null> {
  try {
    const { value } = await cachedLoad(`resolution:code:${address.toLowerCase()}`, { ttlS: CODE_TTL_S }, async () => {
      const code = await defaultOracleContext().clients.ethereum.getCode({ address });
      return Boolean(code && code !== "0x");
    });
    return value;
  } catch {
    return null;
  }
}

type JoinedRow = Awaited<ReturnType<typeof loadJoinedDisputes>>["joined"]["disputes"][number];

async function buildDetail(row: JoinedRow, now: number) {
  const db = await getDb();
  const found = await marketsForDisputes(db, [row]);
  const market = joinDisputeToMarket(joinKeyOf(row), indexMarkets(found.markets)).market;
  const proposedAt = seconds(row.proposed_at);
  const from = (proposedAt ?? seconds(row.disputed_at) ?? now) - SERIES_LEAD_SECONDS;
  const unread: string[] = [];

  let series: (PricePoint & { source: "sampled" | "clob" })[] = [];
  let groups: Awaited<ReturnType<typeof holderGroups>> = [];
  if (market) {
    const [read, holders] = await Promise.all([
      firstOutcomeSeries(db, market, from, now),
      holderGroups(market.conditionId).catch(() => null),
    ]);
    if (read.degraded) unread.push("clob_history");
    if (holders === null) unread.push("holders");
    groups = holders ?? [];
    const sampledFrom = read.sampled.length ? read.sampled[0].t : Infinity;
    series = [
      ...read.clob.filter((p) => p.t >= from && p.t < sampledFrom).map((p) => ({ ...p, source: "clob" as const })),
      ...read.sampled.map((p) => ({ ...p, source: "sampled" as const })),
    ];
  }

  const labels = outcomeLabelsFromText(row.description ?? "") ?? (market ? outcomeLabelsFromOutcomes(market.outcomes) : null);
  const vote = row.dvm ? await readDisputeVote(defaultOracleContext(), row.dvm.request_id) : null;
  const words = (price: string) => outcomeInWords(decimalToWei(price), labels);
  const tokens = (wei: bigint) => (Number(wei / 10n ** 12n) / 1e6).toString();

  // Voters: the dispute's revealers (with the tokens they voted) and the top stakers (with their stake).
  const voters = new Map<string, Voter>();
  for (const reveal of vote?.reveals ?? []) {
    const key = reveal.voter.toLowerCase();
    const known = voters.get(key);
    voters.set(key, {
      address: reveal.voter,
      stake: known && Number(known.stake) > Number(reveal.tokens) ? known.stake : reveal.tokens,
      roles: ["revealer"],
      isContract: null,
    });
  }
  try {
    const top = await getOracleVoters({ limit: TOP_STAKERS });
    for (const staker of top.body.data) {
      const key = staker.address.toLowerCase();
      const known = voters.get(key);
      voters.set(
        key,
        known
          ? { ...known, roles: [...known.roles, "staker"] }
          : { address: staker.address, stake: staker.stake, roles: ["staker"], isContract: null },
      );
    }
  } catch {
    unread.push("top_stakers");
  }
  const checked = await Promise.all([...voters.values()].map(async (v) => ({ ...v, isContract: await hasCode(v.address) })));
  const holders: Holder[] = groups.flatMap((g) =>
    g.holders.map((h) => ({
      wallet: h.wallet as Address,
      outcome: market?.outcomes[g.outcome_index ?? -1] ?? `outcome ${g.outcome_index}`,
      outcomeIndex: g.outcome_index ?? -1,
      amount: h.shares,
    })),
  );

  return {
    series: thin(series),
    vote: vote
      ? {
          commits: vote.commits,
          rounds: vote.rounds.map((r) => ({
            round_id: r.round_id,
            commits: r.commits,
            reveals: r.reveals,
            tokens_revealed: tokens(r.tokensWei),
            votes: r.votes.map((t) => ({ price: t.price, outcome: words(t.price), voters: t.voters, tokens: tokens(t.tokensWei) })),
          })),
          resolved_price: vote.resolved_price,
          resolved_outcome: vote.resolved_price === null ? null : words(vote.resolved_price),
          resolved_round_id: vote.resolved_round_id,
        }
      : null,
    holders: groups.map((g) => ({
      outcome: market?.outcomes[g.outcome_index ?? -1] ?? null,
      outcome_index: g.outcome_index,
      holders: g.holders.map((h) => ({
        wallet: h.wallet,
        wallet_url: walletUrl(h.wallet),
        name: h.name || h.pseudonym || null,
        shares: h.shares,
      })),
    })),
    voter_positions: votersHoldingPositions(checked, holders),
    voters_checked: checked.length,
    unread,
  };
}

/**
 * Details built per stored answer and dispute: ids come from the index (an unknown id is a 404 before this), so the
 * keys are bounded by the disputes the index holds; the bound keeps the ones read lately.
 */
const details = joinCache<Awaited<ReturnType<typeof buildDetail>>>("dispute-detail", 500);

/** One dispute's body (for the dashboard's first paint) and its cache state; 404 for an id the index does not hold. */
export async function disputeDetail(id: string) {
  const { cached, body, joined } = await loadJoinedDisputes();
  const key = id.toLowerCase();
  const row = joined.disputes.find((d) => d.id.toLowerCase() === key || d.dvm?.request_id.toLowerCase() === key);
  if (!row) throw new ApiError("not_found", `No Polymarket dispute with id ${id} in the oracle index.`);
  const now = Math.floor(Date.now() / 1000);
  const value = await details.load(`${cached.builtAt}:${row.id}`, () => buildDetail(row, now));
  const { as_of, source, block_number, polygon_block_number } = body.meta;
  return {
    cached,
    body: {
      data: { ...row, ...value },
      meta: { source, as_of, block_number, polygon_block_number, cache: body.meta.cache, age_s: body.meta.age_s },
    },
  };
}

export async function getDisputeDetail(id: string) {
  return chainAnswer(await disputeDetail(id));
}
