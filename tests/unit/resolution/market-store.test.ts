// The join's market side over the embedded database: markets by condition id, and a series stitched from the tiers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, type Db, getDb } from "@/lib/db/client";
import { marketsByConditionIds, sampledSeries } from "@/lib/resolution/market-store";

const T = 1_790_000_000;
const date = (s: number) => new Date(s * 1000);
let db: Db;
let outcomeId: number;

beforeAll(async () => {
  db = await getDb();
  const seen = date(T);
  await db.market.create({
    data: {
      id: "m1",
      conditionId: "0xabc1", // stored lower-case, as the sampler writes it
      eventId: "e1",
      eventSlug: "event-one",
      slug: "market-one",
      question: "Will one?",
      active: true,
      closed: false,
      open: true,
      seenAt: seen,
    },
  });
  const yes = await db.outcome.create({ data: { tokenId: "101", marketId: "m1", index: 0, name: "Yes", price: 0.7 } });
  await db.outcome.create({ data: { tokenId: "102", marketId: "m1", index: 1, name: "No", price: 0.3 } });
  outcomeId = yes.id;
  // Hourly rollups long ago, 15-minute rollups later, raw samples most recently.
  await db.priceSample.createMany({
    data: [
      { outcomeId, resolutionS: 3600, t: date(T - 20 * 3600), price: 0.2 },
      { outcomeId, resolutionS: 3600, t: date(T - 10 * 3600), price: 0.3 },
      { outcomeId, resolutionS: 900, t: date(T - 5 * 3600), price: 0.4 },
      { outcomeId, resolutionS: 900, t: date(T - 4 * 3600), price: 0.45 },
      { outcomeId, resolutionS: 60, t: date(T - 3600), price: 0.6 },
      { outcomeId, resolutionS: 60, t: date(T - 60), price: 0.7 },
    ],
  });
});

afterAll(async () => {
  await closeDb();
});

describe("market store", () => {
  it("finds markets by condition id whatever its case, with outcomes in order", async () => {
    const [market] = await marketsByConditionIds(db, ["0xAbC1", "0xdead"]);
    expect(market).toMatchObject({ id: "m1", condition_id: "0xabc1", event_slug: "event-one", outcomes: ["Yes", "No"], closed: false });
    expect(market.outcomeRows.map((o) => o.price)).toEqual([0.7, 0.3]);
    expect(await marketsByConditionIds(db, [])).toEqual([]);
  });

  it("stitches the finest tier that reaches each moment, starting with the price in force at the span's start", async () => {
    expect(await sampledSeries(db, outcomeId, T - 12 * 3600, T)).toEqual([
      { t: T - 20 * 3600, p: 0.2 },
      { t: T - 10 * 3600, p: expect.closeTo(0.3, 6) },
      { t: T - 5 * 3600, p: expect.closeTo(0.4, 6) },
      { t: T - 4 * 3600, p: 0.45 },
      { t: T - 3600, p: expect.closeTo(0.6, 6) },
      { t: T - 60, p: expect.closeTo(0.7, 6) },
    ]);
    expect(await sampledSeries(db, outcomeId, T - 30 * 60, T)).toEqual([
      { t: T - 3600, p: expect.closeTo(0.6, 6) },
      { t: T - 60, p: expect.closeTo(0.7, 6) },
    ]);
  });
});
