// Disputes joined to their markets (docs/resolution.md): the oracle index gives each dispute its questionID; this
// module finds the market (stored by the sampler, else Gamma by condition id for a market no longer listed), reads
// the market's first-outcome series (ours, then the CLOB's history before ours begins) and its top holders, and
// returns the dispute with the fields of lib/resolution/dispute-market.ts. A failed upstream call degrades only the
// fields it feeds (counted in `degraded`), never the dispute or the list.
import type { Address, Hex } from "viem";
import type { PricePoint } from "@/lib/analytics/changes";
import { type Db, getDb } from "@/lib/db/client";
import { cachedLoad, clob, data, gamma, type NormalizedMarket } from "@/lib/upstream";
import { type DisputeMarketFields, disputeMarketFields, type HolderSide, type MarketFacts } from "./dispute-market";
import { adapterKind, conditionIdOf } from "./ids";
import { type JoinableMarket, type JoinMethod, indexMarkets, joinDisputeToMarket, joinKeyOf } from "./join";
import { marketsByConditionIds, sampledSeries, type StoredMarket } from "./market-store";
import { decimalToWei } from "./status";

/** The fields of an oracle dispute row the join reads. */
interface JoinableDispute {
  question_id: Hex | null;
  requester: Address;
  /** The index's neg-risk and sports links (lib/oracle/disputes.ts), when it has them. */
  neg_risk?: { question_id: string; condition_ids: string[] } | null;
  sports?: { markets: { condition_id: string; market_type: string }[] } | null;
  proposed_price: string | null;
  proposed_at: string | null;
  disputed_at: string | null;
  /** Question text (title and description), for the outcome labels it names. */
  description?: string | null;
}

/** The span a dispute's price series covers: from a day before the proposal to now (or settlement). */
export const SERIES_LEAD_SECONDS = 86_400;
const CLOB_HISTORY_TTL_S = 15 * 60;
const HOLDERS_TTL_S = 10 * 60;
const GAMMA_TTL_S = 10 * 60;

interface JoinedMarket extends MarketFacts, JoinableMarket {
  /** Outcome token ids by index (CLOB), and the latest price of each. */
  tokenIds: (string | null)[];
  prices: (number | null)[];
  /** Our stored outcome row of the first outcome (its price samples), when the sampler has seen the market. */
  firstOutcomeRowId: number | null;
}

const seconds = (iso: string | null) => (iso ? Math.floor(Date.parse(iso) / 1000) : null);

function fromStored(m: StoredMarket): JoinedMarket {
  return {
    ...m,
    tokenIds: m.outcomeRows.map((o) => o.tokenId),
    prices: m.outcomeRows.map((o) => o.price),
    firstOutcomeRowId: m.outcomeRows[0]?.id ?? null,
  };
}

function fromGamma(m: NormalizedMarket): JoinedMarket | null {
  if (!m.condition_id) return null;
  return {
    id: m.id,
    conditionId: m.condition_id,
    questionID: m.question_id ?? null,
    negRiskRequestID: m.neg_risk_request_id ?? null,
    condition_id: m.condition_id,
    slug: m.slug ?? "",
    question: m.question,
    event_slug: m.event_slug ?? "",
    outcomes: m.outcomes.map((o) => o.name),
    tokenIds: m.outcomes.map((o) => o.token_id),
    prices: m.outcomes.map((o) => o.price),
    firstOutcomeRowId: null,
  };
}

/** The condition id a dispute's market has, when it follows from the dispute alone (standard adapters). */
export function expectedConditionId(dispute: Pick<JoinableDispute, "question_id" | "requester">): Hex | null {
  if (!dispute.question_id) return null;
  const kind = adapterKind(dispute.requester);
  return kind === "standard" || kind === "unknown" ? conditionIdOf(dispute.requester, dispute.question_id) : null;
}

/**
 * Every condition id a dispute's market may have: the standard one, the neg-risk ones the operator's question gives
 * (its nrAdapter's and the legacy NegRiskAdapter's) and the sports game's markets', each from the index's row.
 */
export function expectedConditionIds(dispute: JoinableDispute): Hex[] {
  // A sports game's markets are the oracle's own conditions, never the standard adapter rule.
  const standard = dispute.sports ? null : expectedConditionId(dispute);
  return [
    ...(standard ? [standard] : []),
    ...((dispute.neg_risk?.condition_ids ?? []) as Hex[]),
    ...((dispute.sports?.markets ?? []).map((m) => m.condition_id) as Hex[]),
  ].map((c) => c.toLowerCase() as Hex);
}

/** Markets for a set of disputes: stored ones first, Gamma (cached) for condition ids the sampler never stored. */
export async function marketsForDisputes(
  db: Db,
  disputes: readonly JoinableDispute[],
): Promise<{ markets: JoinedMarket[]; degraded: number }> {
  const conditionIds = [...new Set(disputes.flatMap(expectedConditionIds))];
  const requestIds = disputes.filter((d) => d.question_id && adapterKind(d.requester) === "neg_risk").map((d) => d.question_id!);
  const stored = (await marketsByConditionIds(db, conditionIds, requestIds)).map(fromStored);
  const have = new Set(stored.map((m) => m.conditionId.toLowerCase()));
  const missing = conditionIds.filter((c) => !have.has(c.toLowerCase()));
  if (!missing.length) return { markets: stored, degraded: 0 };
  try {
    const { value } = await cachedLoad(`resolution:gamma-markets:${missing.sort().join(",")}`, { ttlS: GAMMA_TTL_S }, () =>
      gamma.getMarketsByConditionIds(missing),
    );
    return { markets: [...stored, ...value.map(fromGamma).filter((m): m is JoinedMarket => m !== null)], degraded: 0 };
  } catch {
    return { markets: stored, degraded: 1 };
  }
}

/** The market's first-outcome series over [from, to]: our samples, the CLOB's history (cached) before they begin. */
export async function firstOutcomeSeries(db: Db, market: JoinedMarket, from: number, to: number) {
  const sampled = market.firstOutcomeRowId === null ? [] : await sampledSeries(db, market.firstOutcomeRowId, from, to);
  const tokenId = market.tokenIds[0];
  // The CLOB fills in only what our own history does not reach.
  if (!tokenId || (sampled.length && sampled[0].t <= from)) return { sampled, clob: [] as PricePoint[], degraded: false };
  const until = sampled.length ? sampled[0].t : to;
  try {
    const day = 86_400;
    const { value } = await cachedLoad(
      `resolution:clob-history:${tokenId}:${Math.floor(from / day)}:${Math.floor(until / 900)}`,
      { ttlS: CLOB_HISTORY_TTL_S },
      () => clob.getPricesHistory(tokenId, { startTs: from, endTs: until, fidelity: 60 }),
    );
    return { sampled, clob: value.map((p) => ({ t: p.t, p: p.p })), degraded: false };
  } catch {
    return { sampled, clob: [] as PricePoint[], degraded: true };
  }
}

/** The market's largest holders per outcome (Data API /holders, 20 per side), cached. */
export async function holderGroups(conditionId: string) {
  const { value } = await cachedLoad(`resolution:holders:${conditionId.toLowerCase()}`, { ttlS: HOLDERS_TTL_S }, () =>
    data.getHolders(conditionId, 20),
  );
  return value;
}

/** The market's open interest (Data API /v2/oi or /oi), cached like the holders; null when the upstream has none. */
async function openInterestOf(conditionId: string): Promise<number | null> {
  const id = conditionId.toLowerCase();
  const { value } = await cachedLoad(
    `resolution:oi:${id}`,
    { ttlS: HOLDERS_TTL_S },
    async () => (await data.getOpenInterest([id])).get(id) ?? null,
  );
  return value;
}

/** What rides on the market: its open interest, else (upstream without it, or failing) the largest holders per side. */
async function stakeInputs(conditionId: string): Promise<{ openInterest: number | null; holders: HolderSide[] | null }> {
  const openInterest = await openInterestOf(conditionId).catch(() => null);
  if (openInterest !== null) return { openInterest, holders: [] };
  return { openInterest: null, holders: await holderSides(conditionId).catch(() => null) };
}

async function holderSides(conditionId: string): Promise<HolderSide[]> {
  return (await holderGroups(conditionId))
    .filter((g) => g.outcome_index !== null)
    .map((g) => ({ outcomeIndex: g.outcome_index!, shares: g.holders.map((h) => h.shares) }));
}

type WithMarket<D> = D & DisputeMarketFields & { market_join: JoinMethod | null };

/** Upstream reads in flight at once while joining a list (each dispute: one series and one holders read). */
const JOIN_CONCURRENCY = 4;

async function inPool<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      out[at] = await work(items[at], at);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * Each dispute with its market fields; `degraded` counts disputes whose series or holders could not be read. The
 * first `figuresFor` joined disputes (the list is newest first) get their series and holders; later ones keep their
 * market and the proposal in words, with null figures, so a long history costs a bounded number of upstream reads.
 */
export async function withMarkets<D extends JoinableDispute>(
  disputes: readonly D[],
  options: { now?: number; db?: Db; figuresFor?: number } = {},
): Promise<{ disputes: WithMarket<D>[]; joined: number; degraded: number }> {
  const db = options.db ?? (await getDb());
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const found = await marketsForDisputes(db, disputes);
  const index = indexMarkets(found.markets);
  let degraded = found.degraded;
  let joined = 0;
  const out = await inPool(
    disputes.map((dispute) => ({
      dispute,
      join: joinDisputeToMarket(joinKeyOf(dispute), index),
    })),
    JOIN_CONCURRENCY,
    async ({ dispute, join }) => {
      const market = join.market;
      const proposedAt = seconds(dispute.proposed_at);
      const disputedAt = seconds(dispute.disputed_at);
      let series = { sampled: [] as PricePoint[], clob: [] as PricePoint[] };
      let holders: HolderSide[] = [];
      let openInterest: number | null = null;
      if (market && joined++ < (options.figuresFor ?? Infinity)) {
        const from = (proposedAt ?? disputedAt ?? now) - SERIES_LEAD_SECONDS;
        const [read, stake] = await Promise.all([firstOutcomeSeries(db, market, from, now), stakeInputs(market.conditionId)]);
        series = read;
        holders = stake.holders ?? [];
        openInterest = stake.openInterest;
        if (read.degraded || stake.holders === null) degraded++;
      }
      const fields = disputeMarketFields({
        market: market
          ? {
              id: market.id,
              condition_id: market.condition_id,
              slug: market.slug,
              question: market.question,
              event_slug: market.event_slug,
              outcomes: market.outcomes,
            }
          : null,
        missReason: join.market ? null : join.reason,
        text: dispute.description ?? null,
        proposedPrice: dispute.proposed_price === null ? null : decimalToWei(dispute.proposed_price),
        proposedAt,
        disputedAt,
        now,
        series,
        holders,
        openInterest,
        prices: market?.prices ?? [],
      });
      return { ...dispute, ...fields, market_join: join.market ? join.method : null };
    },
  );
  return { disputes: out, joined, degraded };
}
