// Each market's `resolution` (docs/resolution.md, "Status"), for the market objects of the sampled endpoints: the
// oracle index's stored disputes and its Polymarket proposals (ProposePrice / Settle, lib/oracle/proposals.ts) joined
// to their markets (ids only, no price or holder reads; proposals only to markets the sampler stored), grouped by
// condition id. Read from the database only, never by running an indexer pass: a market endpoint must not wait for a
// chain.
// With no stored answer (no oracle configured, a cold index) every market is `none` and `known` is false.
import type { Hex } from "viem";
import { getDb } from "@/lib/db/client";
import type { DisputesBody } from "@/lib/oracle/bodies";
import { defaultOracleContext } from "@/lib/oracle/context";
import { type IndexedOutcome, readQuestionOutcomes } from "@/lib/oracle/outcomes";
import { type IndexedProposal, readIndexedProposals } from "@/lib/oracle/proposals";
import { readSnapshot } from "@/lib/oracle/snapshots";
import type { ResolutionEvent } from "./resolution-context";
import { expectedConditionId, marketsForDisputes } from "./markets-for-disputes";
import { adapterKind } from "./ids";
import { indexMarkets, joinDisputeToMarket, joinKeyOf } from "./join";
import { joinCache } from "./join-cache";
import { type DisputeOfMarket, type ProposalOfMarket, resolutionsByConditionId } from "./market-status";
import { marketsByConditionIds } from "./market-store";
import { outcomesByMarket } from "./outcome-markets";
import { NO_RESOLUTION, type Resolution } from "./status";
import { isoFromSecondsOrNull } from "@/lib/oracle/time";

/** What market objects carry when no oracle request concerns the market (the price itself is not shown there). */
const { proposed_price: _price, ...UNRESOLVED } = NO_RESOLUTION;

export interface MarketResolutions {
  /** Lower-case condition id -> resolution, for every market with a dispute in the index. */
  byConditionId: Map<string, Omit<Resolution, "proposed_price">>;
  /** False when the oracle index holds no answer yet: `none` then means "not known". */
  known: boolean;
}

type StoredDispute = DisputesBody["data"][number];

/** The current stored answer's join, and the previous one's while requests that read it finish. */
const joins = joinCache<[string, Omit<Resolution, "proposed_price">][]>("market-resolutions", 4);

async function joinStored(
  disputes: readonly StoredDispute[],
  proposals: readonly IndexedProposal[],
  outcomes: readonly IndexedOutcome[] = [],
): Promise<[string, Omit<Resolution, "proposed_price">][]> {
  const db = await getDb();
  const found = await marketsForDisputes(db, disputes);
  const index = indexMarkets(found.markets);
  const byId = new Map(proposals.map((p) => [p.id.toLowerCase(), p]));
  const joined: DisputeOfMarket[] = disputes.flatMap((d) => {
    const market = joinDisputeToMarket(joinKeyOf(d), index).market;
    const indexed = byId.get(d.id.toLowerCase());
    // A sports game's dispute decides every market of the game (UmaSportsOracle: one request, many markets).
    const gameMarkets = (d.sports?.markets ?? [])
      .map((m) => index.byConditionId.get(m.condition_id.toLowerCase()))
      .filter((m): m is NonNullable<typeof m> => m !== undefined);
    const markets = gameMarkets.length ? gameMarkets : [market];
    return markets.map((m) => ({
      ...d,
      id: d.id,
      settled_at: isoFromSecondsOrNull(indexed?.settled_at ?? null),
      market: m ? { condition_id: m.condition_id, outcomes: m.outcomes } : null,
    }));
  });
  // Proposals nobody disputed: joined to the markets the sampler stored (no upstream read for a long history).
  const undisputed = proposals.filter((p) => !disputes.some((d) => d.id.toLowerCase() === p.id.toLowerCase()));
  const keys = undisputed.map((p) => ({ question_id: p.question_id, requester: p.requester }));
  const stored = await marketsByConditionIds(
    db,
    [...new Set(keys.map(expectedConditionId).filter((c): c is Hex => c !== null))],
    keys.filter((k) => adapterKind(k.requester) === "neg_risk").map((k) => k.question_id),
  );
  const proposalIndex = indexMarkets(stored);
  const joinedProposals: ProposalOfMarket[] = undisputed.map((p) => {
    const market = joinDisputeToMarket({ questionId: p.question_id, requester: p.requester }, proposalIndex).market;
    return {
      id: p.id,
      oo_state: p.oo_state,
      proposed_price: p.proposed_price,
      requested_at: isoFromSecondsOrNull(p.requested_at),
      proposed_at: isoFromSecondsOrNull(p.proposed_at),
      disputed_at: isoFromSecondsOrNull(p.disputed_at),
      settled_at: isoFromSecondsOrNull(p.settled_at),
      market: market ? { condition_id: market.condition_id, outcomes: market.outcomes } : null,
    };
  });
  // The questions' outcomes outside the vote, on the markets the sampler stored.
  const byMarket = await outcomesByMarket(db, outcomes);
  // proposed_price stays internal: the API's market `resolution` names the outcome in words.
  return [...resolutionsByConditionId(joined, joinedProposals, byMarket)].map(([key, { proposed_price: _price, ...rest }]) => [key, rest]);
}

export async function marketResolutions(): Promise<MarketResolutions> {
  let snapshot;
  try {
    snapshot = await readSnapshot<DisputesBody>(defaultOracleContext(), "disputes");
  } catch {
    return { byConditionId: new Map(), known: false };
  }
  if (!snapshot) return { byConditionId: new Map(), known: false };
  const disputes = snapshot.body.data;
  const ctx = defaultOracleContext();
  // The outcomes as of the answer's Polygon block (an answer without one, stored by hand, has none).
  const polygonBlock = snapshot.body.meta.polygon_block_number as number | undefined;
  const value = await joins.load(String(snapshot.builtAt.getTime()), async () =>
    joinStored(
      disputes,
      await readIndexedProposals(ctx),
      polygonBlock === undefined ? [] : await readQuestionOutcomes(ctx, BigInt(polygonBlock)),
    ),
  );
  return { byConditionId: new Map(value), known: true };
}

export function resolutionOfMarket(resolutions: MarketResolutions, conditionId: string) {
  return resolutions.byConditionId.get(conditionId.toLowerCase()) ?? UNRESOLVED;
}

/** The resolution steps of a market our index knows (the latest proposal and dispute), for `resolution_context`. */
export function resolutionEventsOf(resolutions: MarketResolutions, conditionId: string): ResolutionEvent[] {
  const r = resolutions.byConditionId.get(conditionId.toLowerCase());
  if (!r) return [];
  const at = (iso: string | null) => (iso ? Math.floor(Date.parse(iso) / 1000) : null);
  const events: ResolutionEvent[] = [];
  const proposedAt = at(r.proposed_at);
  const disputedAt = at(r.disputed_at);
  if (proposedAt !== null) events.push({ kind: "proposal", at: proposedAt, outcome: r.proposed_outcome });
  if (disputedAt !== null) events.push({ kind: "dispute", at: disputedAt, outcome: null });
  return events;
}
