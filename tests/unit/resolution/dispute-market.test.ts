// A dispute's market fields: probabilities around the proposal and the dispute, the proposal in words, value at stake.
import { describe, expect, it } from "vitest";
import { type DisputeMarketInput, disputeMarketFields, valueAtStake } from "@/lib/resolution/dispute-market";

const ONE = 10n ** 18n;
const PROPOSED = 1_780_000_000;
const DISPUTED = PROPOSED + 3600;
const NOW = PROPOSED + 86_400;
const market = { id: "101", condition_id: "0xc1", slug: "will-a", question: "Will A?", event_slug: "a", outcomes: ["Yes", "No"] };

const input = (overrides: Partial<DisputeMarketInput> = {}): DisputeMarketInput => ({
  market,
  missReason: null,
  text: "q: title: Will A?, description: … Where p1 corresponds to No, p2 to Yes, p3 to unknown.",
  proposedPrice: ONE,
  proposedAt: PROPOSED,
  disputedAt: DISPUTED,
  now: NOW,
  series: {
    sampled: [
      { t: DISPUTED - 600, p: 0.97 },
      { t: DISPUTED + 60, p: 0.7 },
      { t: NOW - 300, p: 0.55 },
    ],
    clob: [
      { t: PROPOSED - 7200, p: 0.6 },
      { t: PROPOSED + 300, p: 0.95 },
    ],
  },
  holders: [
    { outcomeIndex: 0, shares: [1000, 500] },
    { outcomeIndex: 1, shares: [2000] },
  ],
  openInterest: null,
  prices: [0.55, 0.45],
  ...overrides,
});

describe("dispute market fields", () => {
  it("reads the probability at the proposal from the CLOB history, at the dispute and now from our samples", () => {
    expect(disputeMarketFields(input())).toEqual({
      market,
      market_missing_reason: null,
      proposed_outcome: "Yes",
      probability_outcome: "Yes",
      probability_at_proposal: 0.6,
      probability_at_dispute: 0.97,
      probability_now: 0.55,
      probability_sources: { at_proposal: "clob", at_dispute: "sampled", now: "sampled" },
      value_at_stake_usd: 1725,
      value_at_stake_basis: "top_holders",
    });
  });

  it("keeps the proposal in words and says why when the market is missing", () => {
    const fields = disputeMarketFields(input({ market: null, missReason: "not_listed", text: null, proposedPrice: 0n }));
    expect(fields).toMatchObject({
      market: null,
      market_missing_reason: "not_listed",
      proposed_outcome: "p1 (0)",
      value_at_stake_usd: null,
    });
  });

  it("gives no probability when the only price is older than the moment allows", () => {
    const fields = disputeMarketFields(input({ series: { sampled: [], clob: [{ t: PROPOSED - 30 * 3600, p: 0.5 }] } }));
    expect(fields.probability_at_proposal).toBeNull();
    expect(fields.probability_now).toBe(0.5);
  });

  it("prefers the market's open interest to the holders' lower bound", () => {
    expect(disputeMarketFields(input({ openInterest: 40_123.456 }))).toMatchObject({
      value_at_stake_usd: 40_123.46,
      value_at_stake_basis: "open_interest",
    });
  });

  it("values only sides with a known price", () => {
    expect(valueAtStake([{ outcomeIndex: 1, shares: [10] }], [0.5, null])).toBeNull();
    expect(valueAtStake([], [0.5, 0.5])).toBeNull();
  });
});
