// Each rule type matches what it should and nothing else: stored trades, ticks and resolution transitions go through
// the matcher, and each subscription's deliveries are exactly the expected items (the stream topic's or endpoint's
// item, plus `rule`).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matchOnce, positionChange } from "@/lib/alerts/match";
import { RulesSchema } from "@/lib/alerts/rules";
import { createSubscription } from "@/lib/alerts/subscriptions";
import { closeDb, type Db, getDb } from "@/lib/db/client";
import { RAW_RESOLUTION_S } from "@/lib/sampled/tiers";
import { conditionIdOf, insertTick, insertTrade, insertTransition, LOOPBACK, seedMarket } from "./fixtures";
import { newKey } from "./request";

const W1 = "0x1111111111111111111111111111111111111111";
const W2 = "0x2222222222222222222222222222222222222222";
const URL = "http://127.0.0.1:9/hook"; // never attempted: these tests only match

let db: Db;
const subs: Record<string, string> = {};

async function subscribe(name: string, rules: object[]) {
  // Parsed as the API parses them (defaults filled in).
  const parsed = RulesSchema.parse(rules);
  subs[name] = (await createSubscription(db, newKey(), { name, url: URL, rules: parsed, enabled: true }, LOOPBACK)).id;
}

async function delivered(name: string): Promise<{ type: string; data: Record<string, unknown> }[]> {
  const rows = await db.alertDelivery.findMany({ where: { subscriptionId: subs[name] }, orderBy: { position: "asc" } });
  return rows.map((r) => JSON.parse(r.body) as { type: string; data: Record<string, unknown> });
}

// Opening the embedded database and storing the fixtures each take a while on a busy machine.
beforeAll(async () => {
  db = await getDb();
});
beforeAll(async () => {
  await seedMarket(db, "801", "ev-a");
  await seedMarket(db, "802", "ev-b");
  await seedMarket(db, "803", "ev-c");
  // Market 801's first outcome stood at 0.40 two hours ago (a raw sample), sampled since three hours ago.
  const outcome = await db.outcome.findFirstOrThrow({ where: { marketId: "801", index: 0 } });
  const now = Date.now();
  await db.priceSample.create({
    data: { outcomeId: outcome.id, resolutionS: RAW_RESOLUTION_S, t: new Date(now - 2 * 3_600_000), price: 0.4 },
  });
  await db.outcome.update({
    where: { id: outcome.id },
    data: { price: 0.4, pricedAt: new Date(now - 2 * 3_600_000), firstSampledAt: new Date(now - 3 * 3_600_000) },
  });
  await db.whalePosition.create({
    data: {
      wallet: W2,
      tokenId: "tok-802-0",
      marketId: "802",
      conditionId: conditionIdOf("802"),
      question: "Question 802?",
      outcome: "Yes",
      outcomeIndex: 0,
      shares: 10_000,
      entryPrice: 0.5,
      sampledAt: new Date(now - 600_000),
    },
  });
  await matchOnce(db); // the cursor starts here

  await subscribe("trade", [{ type: "trade", market_id: "801", side: "SELL", min_usd: 500 }]);
  await subscribe("tradeWallet", [{ type: "trade", wallet: W1 }]);
  await subscribe("tradeEvent", [{ type: "trade", event_slug: "ev-b", min_usd: 0 }]);
  await subscribe("tradeCondition", [{ type: "trade", market_id: conditionIdOf("803").toUpperCase().replace("0X", "0x") }]);
  await subscribe("whale", [{ type: "whale", wallet: W2, min_usd: 1000 }]);
  await subscribe("whaleMarket", [{ type: "whale", market_id: "801", min_usd: 2000 }]);
  await subscribe("abnormal", [{ type: "abnormal", market_id: "803", min_score: 5 }]);
  await subscribe("dispute", [{ type: "dispute", event_slug: "ev-a", transitions: ["disputed", "resolved"] }]);
  await subscribe("disputeAll", [{ type: "dispute" }]);
  await subscribe("move", [{ type: "move", market_id: "801", window: "1h", min_change: 5 }]);
  await subscribe("moveBig", [{ type: "move", window: "1h", min_change: 20 }]);
  await subscribe("two", [
    { type: "dispute", market_id: "802" },
    { type: "trade", market_id: "801", min_usd: 0 },
    { type: "trade", min_usd: 0 },
  ]);

  const t = (marketId: string, usd: number, extra: object = {}) => insertTrade(db, { marketId, usd, ...extra });
  await t("801", 600, { side: "SELL" }); // trade ✓, two ✓ (rule 1)
  await t("801", 400, { side: "SELL" }); // below trade's min_usd; two ✓
  await t("801", 900, { side: "BUY", wallet: W1 }); // not SELL; tradeWallet ✓; two ✓
  await t("802", 50, { wallet: W1 }); // tradeWallet ✓, tradeEvent ✓; two ✓ (rule 2)
  await t("802", 1500, { side: "SELL", wallet: W2, shares: 3000 }); // whale ✓ (reduced); tradeEvent ✓; two ✓
  await t("802", 5000, { side: "SELL", wallet: W2, shares: 10_000 }); // whale ✓ (closed); tradeEvent ✓; two ✓
  await t("802", 500, { side: "BUY", wallet: W2 }); // below whale's min_usd; tradeEvent ✓; two ✓
  await t("801", 2500, { side: "BUY", wallet: W2 }); // whale ✓ (opened: no sampled position here), whaleMarket ✓; two ✓
  await t("803", 1000); // abnormal ✓ (alone in its market: share 1 → score 10); tradeCondition ✓; two ✓
  await t("803", 600); // abnormal but score < 5; tradeCondition ✓; two ✓
  await insertTransition(db, "801", "disputed", "ev-a"); // dispute ✓, disputeAll ✓
  await insertTransition(db, "801", "voting", "ev-a"); // not in dispute's transitions; disputeAll ✓
  await insertTransition(db, "802", "resolved", "ev-b"); // other event; disputeAll ✓; two ✓ (rule 0)
  await insertTransition(db, null, "settled"); // no market; disputeAll ✓
  while ((await matchOnce(db)).more);
  // A move's item is the market's /movers item when matched: each tick is matched before the next is stored.
  await insertTick(db, "801", 0.5); // +10 points over 1 h: move ✓; not moveBig
  await matchOnce(db);
  await insertTick(db, "801", 0.7); // +30 points: moveBig ✓; move already alerted this hour
  await insertTick(db, "802", 0.9); // no sample an hour back: no move
  while ((await matchOnce(db)).more);
}, 180_000);
afterAll(() => closeDb());

const ids = (items: { data: Record<string, unknown> }[], field: string) => items.map((i) => i.data[field]);

describe("alert rules", () => {
  it("trade: market, side and min_usd; wallet; event; condition id", async () => {
    const trade = await delivered("trade");
    expect(trade.map((d) => [d.type, d.data.usd_size, d.data.side, d.data.rule])).toEqual([["trade", 600, "SELL", 0]]);
    expect(Object.keys(trade[0].data).sort()).toEqual(
      [
        "id",
        "tx_hash",
        "market_id",
        "condition_id",
        "event_slug",
        "question",
        "outcome",
        "outcome_index",
        "side",
        "price",
        "shares",
        "usd_size",
        "wallet",
        "wallet_url",
        "pseudonym",
        "timestamp",
        "rule",
      ].sort(),
    );
    expect(ids(await delivered("tradeWallet"), "usd_size")).toEqual([900, 50]);
    expect(ids(await delivered("tradeEvent"), "usd_size")).toEqual([50, 1500, 5000, 500]);
    expect(ids(await delivered("tradeCondition"), "usd_size")).toEqual([1000, 600]);
  });

  it("whale: opened, reduced and closed positions of at least min_usd, by wallet or market", async () => {
    const whale = await delivered("whale");
    expect(whale.map((d) => [d.type, d.data.usd_size, d.data.position_change])).toEqual([
      ["whale", 1500, "reduced"],
      ["whale", 5000, "closed"],
      ["whale", 2500, "opened"],
    ]);
    expect(whale[0].data.position).toMatchObject({ shares: 10_000, outcome_index: 0 });
    expect(whale[2].data.position).toBeNull();
    expect((await delivered("whaleMarket")).map((d) => [d.data.usd_size, d.data.position_change])).toEqual([[2500, "opened"]]);
    expect(positionChange("BUY", 10, { shares: 5 })).toBe("increased");
  });

  it("abnormal: the /abnormal item with a score of at least min_score", async () => {
    const abnormal = await delivered("abnormal");
    expect(abnormal).toHaveLength(1);
    expect(abnormal[0]).toMatchObject({ type: "abnormal", data: { usd_size: 1000, rule: 0 } });
    expect(abnormal[0].data.score).toBeGreaterThanOrEqual(5);
    expect(abnormal[0].data).toHaveProperty("share_of_market_24h_volume");
  });

  it("dispute: the resolution stream's transitions, by event and transition, or all", async () => {
    expect(ids(await delivered("dispute"), "transition")).toEqual(["disputed"]);
    expect(ids(await delivered("disputeAll"), "transition")).toEqual(["disputed", "voting", "resolved", "settled"]);
  });

  it("move: the /movers item when the change reaches min_change, at most once per market and window per hour", async () => {
    const move = await delivered("move");
    expect(move.map((d) => [d.type, d.data.market_id, d.data.window, d.data.change, d.data.rule])).toEqual([["move", "801", "1h", 0.1, 0]]);
    expect(move[0].data).toHaveProperty("resolution_context");
    expect(move[0].data).toMatchObject({ probability_then: 0.4, probability_now: 0.5 });
    expect((await delivered("moveBig")).map((d) => d.data.change)).toEqual([0.3]);
  });

  it("one delivery per event and type, carrying the index of the first rule that matched", async () => {
    const two = await delivered("two");
    expect(two.map((d) => [d.type, d.data.rule])).toEqual([
      ["trade", 1],
      ["trade", 1],
      ["trade", 1],
      ["trade", 2],
      ["trade", 2],
      ["trade", 2],
      ["trade", 2],
      ["trade", 1],
      ["trade", 2],
      ["trade", 2],
      ["dispute", 0],
    ]);
  });
});
