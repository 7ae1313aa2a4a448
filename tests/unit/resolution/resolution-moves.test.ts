// Moves and trades that follow a step of their market's UMA resolution are marked, from the stored oracle index
// joined to the stored market: the mover right after a proposal carries its resolution_context, exclude_resolution
// leaves it out, and a market with no dispute nearby is untouched.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Hex, stringToHex } from "viem";
import { closeDb, type Db, getDb } from "@/lib/db/client";
import { defaultOracleContext } from "@/lib/oracle/context";
import { storeSnapshot } from "@/lib/oracle/snapshots";
import { movers } from "@/lib/predmkt/movers";
import { STANDARD_UMA_CTF_ADAPTERS } from "@/lib/resolution/addresses";
import { appendInitializer, conditionIdOf, questionIdOf } from "@/lib/resolution/ids";
import { clearJoinCaches } from "@/lib/resolution/join-cache";
import { tradeContexts } from "@/lib/resolution/move-context";
import { STATE } from "@/lib/sampled/state";
import { clearLocalCache } from "@/lib/upstream";

const ADAPTER = STANDARD_UMA_CTF_ADAPTERS[2];
const NOW = Math.floor(Date.UTC(2026, 10, 25, 12) / 1000);
const PROPOSED = NOW - 40 * 60;
const iso = (s: number) => new Date(s * 1000).toISOString();
const questionId: Hex = questionIdOf(
  appendInitializer(stringToHex("q: title: Will the proposal move the price?, description: d"), ADAPTER),
);
const disputedCondition = conditionIdOf(ADAPTER, questionId);
const quietCondition = `0x${"c".repeat(64)}`;

let db: Db;

async function market(id: string, conditionId: string, prices: [number, number][]) {
  await db.market.create({
    data: {
      id,
      conditionId: conditionId.toLowerCase(),
      eventId: "e1",
      eventSlug: "event-one",
      slug: `market-${id}`,
      question: `Market ${id}?`,
      active: true,
      closed: false,
      open: true,
      volume24hUsd: 1000,
      seenAt: new Date(NOW * 1000),
    },
  });
  const last = prices[prices.length - 1];
  const yes = await db.outcome.create({
    data: { tokenId: `${id}1`, marketId: id, index: 0, name: "Yes", price: last[1], pricedAt: new Date(last[0] * 1000) },
  });
  await db.outcome.create({ data: { tokenId: `${id}2`, marketId: id, index: 1, name: "No", price: 1 - last[1] } });
  await db.priceSample.createMany({
    data: prices.map(([t, price]) => ({ outcomeId: yes.id, resolutionS: 60, t: new Date(t * 1000), price })),
  });
}

beforeAll(async () => {
  db = await getDb();
  clearLocalCache();
  clearJoinCaches();
  await db.event.create({
    data: { id: "e1", slug: "event-one", title: "Event one", active: true, closed: false, open: true, seenAt: new Date(NOW * 1000) },
  });
  // Disputed market: 0.62 until the proposal for Yes, 0.99 twenty minutes after it.
  await market("701", disputedCondition, [
    [NOW - 3 * 3600, 0.62],
    [PROPOSED + 20 * 60, 0.99],
    [NOW, 0.99],
  ]);
  // A quiet market that moved as much, with no dispute.
  await market("702", quietCondition, [
    [NOW - 3 * 3600, 0.3],
    [PROPOSED + 20 * 60, 0.7],
    [NOW, 0.7],
  ]);
  await db.samplerState.create({ data: { key: STATE.prices, at: new Date(NOW * 1000) } });
  const dispute = {
    id: `0x${"d".repeat(64)}`,
    question_id: questionId,
    requester: ADAPTER,
    status: "disputed",
    proposed_price: "1",
    requested_at: iso(PROPOSED - 60),
    proposed_at: iso(PROPOSED),
    disputed_at: iso(NOW - 5 * 3600),
    dvm: null,
    unread: [],
  };
  await storeSnapshot(defaultOracleContext(), "disputes", { data: [dispute], meta: { backfill_complete: true } }, 1n);
});

afterAll(async () => {
  await closeDb();
});

describe("resolution-driven moves", () => {
  it("marks the move that followed a proposal, with the prices around it, and leaves the quiet market alone", async () => {
    const { data } = await movers("1h", 10);
    const byMarket = Object.fromEntries(data.map((m) => [m.market_id, m.resolution_context]));
    expect(Object.keys(byMarket).sort()).toEqual(["701", "702"]);
    expect(byMarket["702"]).toBeNull();
    expect(byMarket["701"]).toMatchObject({ kind: "proposal", outcome: "Yes", price_before: 0.62, price_after: 0.99, minutes_after: 20 });
    expect(byMarket["701"]!.text).toBe(
      `proposal for Yes at ${iso(PROPOSED).slice(0, 10)} ${iso(PROPOSED).slice(11, 16)} UTC; price moved from 0.62 to 0.99 within 20 minutes after it`,
    );
  });

  it("leaves resolution moves out with exclude_resolution", async () => {
    const { data, meta } = await movers("1h", 10, true);
    expect(data.map((m) => m.market_id)).toEqual(["702"]);
    expect(meta).toMatchObject({ exclude_resolution: true });
  });

  it("marks a trade placed within 30 minutes after the proposal, and not one before it", async () => {
    const [after, before] = await tradeContexts([
      { condition_id: disputedCondition, timestamp: iso(PROPOSED + 10 * 60) },
      { condition_id: disputedCondition, timestamp: iso(PROPOSED - 60) },
    ]);
    expect(after?.text).toMatch(/^trade 10 minutes after the proposal for Yes at /);
    expect(before).toBeNull();
  });
});
