// What a dispute learns from its market: the market itself, the market's probability at the proposal, at the dispute
// and now, the proposal in the market's words, and the money riding on it. Pure: the join's result, the market's
// series and holders in; the dispute's new fields out (docs/resolution.md).
import type { PricePoint } from "@/lib/analytics/changes";
import type { JoinMiss } from "./join";
import { type ProbabilityAt, probabilityAt } from "./probability";
import { type OutcomeLabels, outcomeInWords, outcomeLabelsFromOutcomes, outcomeLabelsFromText } from "./status";

export interface MarketFacts {
  id: string;
  condition_id: string;
  slug: string;
  question: string;
  event_slug: string;
  /** Outcome names by index (Gamma's order: index 0 wins on a YES_OR_NO_QUERY price of 1). */
  outcomes: string[];
}

export interface HolderSide {
  outcomeIndex: number;
  /** Shares held by each listed holder (the Data API lists the largest holders only). */
  shares: readonly number[];
}

export interface DisputeMarketInput {
  market: MarketFacts | null;
  missReason: JoinMiss | null;
  /** The question text, for the outcome labels it names. */
  text: string | null;
  proposedPrice: bigint | null;
  /** Unix seconds. */
  proposedAt: number | null;
  disputedAt: number | null;
  now: number;
  /** The first outcome's series: our samples and the CLOB history. */
  series: { sampled: readonly PricePoint[]; clob: readonly PricePoint[] };
  holders: readonly HolderSide[];
  /** The market's open interest in USDC (Data API), when the upstream gave it: preferred to the holders' bound. */
  openInterest: number | null;
  /** Latest probability per outcome index, to value the holders' shares. */
  prices: readonly (number | null)[];
}

export type ValueAtStakeBasis = "open_interest" | "top_holders";

export interface DisputeMarketFields {
  market: MarketFacts | null;
  market_missing_reason: JoinMiss | null;
  proposed_outcome: string | null;
  /** The outcome the probabilities are of (the market's first outcome). */
  probability_outcome: string | null;
  probability_at_proposal: number | null;
  probability_at_dispute: number | null;
  probability_now: number | null;
  /** Where each probability came from: our samples or the CLOB's history. */
  probability_sources: {
    at_proposal: ProbabilityAt["source"] | null;
    at_dispute: ProbabilityAt["source"] | null;
    now: ProbabilityAt["source"] | null;
  };
  value_at_stake_usd: number | null;
  /** `open_interest`: the Data API's figure; `top_holders`: the listed holders' shares at the current price (a lower bound). */
  value_at_stake_basis: ValueAtStakeBasis | null;
}

/** A price older than this says nothing about the moment it is asked for. */
const MAX_PROBABILITY_AGE_SECONDS = 6 * 3600;

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

export function valueAtStake(holders: readonly HolderSide[], prices: readonly (number | null)[]): number | null {
  let total = 0;
  let priced = false;
  for (const side of holders) {
    const price = prices[side.outcomeIndex];
    if (price == null) continue;
    priced = true;
    for (const shares of side.shares) total += shares * price;
  }
  return priced ? round(total, 2) : null;
}

export function disputeMarketFields(input: DisputeMarketInput): DisputeMarketFields {
  const labels: OutcomeLabels | null =
    (input.text ? outcomeLabelsFromText(input.text) : null) ?? (input.market ? outcomeLabelsFromOutcomes(input.market.outcomes) : null);
  const proposed_outcome = input.proposedPrice === null ? null : outcomeInWords(input.proposedPrice, labels);
  if (!input.market) {
    return {
      market: null,
      market_missing_reason: input.missReason ?? "not_listed",
      proposed_outcome,
      probability_outcome: null,
      probability_at_proposal: null,
      probability_at_dispute: null,
      probability_now: null,
      probability_sources: { at_proposal: null, at_dispute: null, now: null },
      value_at_stake_usd: null,
      value_at_stake_basis: null,
    };
  }
  const at = (moment: number | null) => (moment === null ? null : probabilityAt(input.series, moment, MAX_PROBABILITY_AGE_SECONDS));
  const atProposal = at(input.proposedAt);
  const atDispute = at(input.disputedAt);
  const now = probabilityAt(input.series, input.now);
  const stake: { value: number | null; basis: ValueAtStakeBasis } =
    input.openInterest !== null
      ? { value: round(input.openInterest, 2), basis: "open_interest" }
      : { value: valueAtStake(input.holders, input.prices), basis: "top_holders" };
  return {
    market: input.market,
    market_missing_reason: null,
    proposed_outcome,
    probability_outcome: input.market.outcomes[0] ?? null,
    probability_at_proposal: atProposal?.p ?? null,
    probability_at_dispute: atDispute?.p ?? null,
    probability_now: now?.p ?? null,
    probability_sources: { at_proposal: atProposal?.source ?? null, at_dispute: atDispute?.source ?? null, now: now?.source ?? null },
    value_at_stake_usd: stake.value,
    value_at_stake_basis: stake.value === null ? null : stake.basis,
  };
}
