// The durable queue on the embedded database, against a real local receiver, with an injected clock (no test sleeps
// through a backoff): order per subscription, retries with the same webhook id, the schedule's ≥ 24 h then `dead`,
// disabling after 24 h of failures, the per-subscription rate cap, usage counting, and the worker delivering a
// stored trade within 2 s.
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELIVERY_OPERATION, listDeliveries } from "@/lib/alerts/deliveries";
import { drainOnce } from "@/lib/alerts/sender";
import { matchOnce } from "@/lib/alerts/match";
import { createSubscription } from "@/lib/alerts/subscriptions";
import { startAlerts } from "@/lib/alerts/worker";
import { closeDb, type Db, getDb } from "@/lib/db/client";
import { unflushedUsage } from "@/lib/keys/usage-meter";
import { pollUntil } from "@/tests/helpers/poll";
import { insertTrade, LOOPBACK, type Received, seedMarket, startReceiver } from "./fixtures";
import { newKey } from "./request";

let db: Db;
// Opening the embedded database and storing the fixtures each take a while on a busy machine.
beforeAll(async () => {
  db = await getDb();
});
beforeAll(async () => {
  // One market per test, so one test's subscriptions never match another's trades.
  for (const id of ["501", "502", "503", "504"]) await seedMarket(db, id);
}, 120_000);
afterAll(() => closeDb());

function verified(secret: string, r: Received): boolean {
  const key = Buffer.from(secret.slice(6), "base64");
  const mac = createHmac("sha256", key).update(`${String(r.headers["webhook-id"])}.${String(r.headers["webhook-timestamp"])}.${r.body}`);
  return r.headers["webhook-signature"] === `v1,${mac.digest("base64")}`;
}

function clock(start = Date.parse("2026-11-26T00:00:00Z")) {
  const state = { t: start };
  return { now: () => new Date(state.t), advance: (ms: number) => (state.t += ms), set: (t: number) => (state.t = t) };
}

async function subscribe(
  url: string,
  market: string,
  key = newKey(),
  rules: object[] = [{ type: "trade", market_id: market, min_usd: 0 }],
) {
  const sub = await createSubscription(db, key, { name: "t", url, rules: rules as never, enabled: true }, LOOPBACK);
  return { sub, key };
}

describe("alert delivery", () => {
  it("keeps order per subscription and retries a failing receiver with the same webhook id", async () => {
    const receiver = await startReceiver([500, 503]);
    const { sub, key } = await subscribe(receiver.url, "501");
    const ids = [];
    for (const usd of [100, 200, 300]) ids.push(await insertTrade(db, { marketId: "501", usd }));
    const c = clock();
    const deps = { ...LOOPBACK, now: c.now, random: () => 0.5 };
    expect((await matchOnce(db, { now: c.now })).queued).toBe(3);

    expect(await drainOnce(db, deps)).toMatchObject({ attempted: 1, failed: 1 });
    c.advance(1_000);
    // The head is not due yet, and the deliveries behind it wait for it.
    expect(await drainOnce(db, deps)).toMatchObject({ attempted: 0 });
    c.advance(4_100); // 5 s (no jitter at random = 0.5) after the first failure
    expect(await drainOnce(db, deps)).toMatchObject({ attempted: 1, failed: 1 });
    c.advance(300_000);
    expect(await drainOnce(db, deps)).toMatchObject({ attempted: 3, delivered: 3 });

    const webhookIds = receiver.received.map((r) => String(r.headers["webhook-id"]));
    expect(new Set(webhookIds.slice(0, 3)).size).toBe(1);
    expect(new Set(webhookIds).size).toBe(3);
    const tradeIds = receiver.received.map((r) => (JSON.parse(r.body) as { data: { id: string } }).data.id);
    expect(tradeIds).toEqual([ids[0], ids[0], ids[0], ids[1], ids[2]]);
    // The same bytes each attempt, each attempt signed for its own timestamp.
    expect(new Set(receiver.received.slice(0, 3).map((r) => r.body)).size).toBe(1);
    expect(receiver.received.every((r) => verified(sub.secret, r))).toBe(true);
    const log = await listDeliveries(db, key, sub.id, { limit: 10 });
    expect(log.data.map((d) => [d.status, d.attempts])).toEqual([
      ["delivered", 1],
      ["delivered", 1],
      ["delivered", 3],
    ]);
    expect(log.data[2]).toMatchObject({ id: webhookIds[0], last_status_code: 200, next_attempt_at: null, event_type: "trade" });
    // Deliveries count in the key's usage.
    const usage = await unflushedUsage(key.keyId);
    expect(usage.filter((u) => u.operation === DELIVERY_OPERATION).reduce((n, u) => n + u.count, 0)).toBe(5);
    await receiver.close();
  });

  it("retries over at least 24 h, then marks the delivery dead and disables the subscription with a reason", async () => {
    const receiver = await startReceiver(Array.from({ length: 20 }, () => 500));
    const { sub, key } = await subscribe(receiver.url, "502");
    await insertTrade(db, { marketId: "502", usd: 50 });
    const c = clock(Date.parse("2026-11-27T00:00:00Z"));
    const deps = { ...LOOPBACK, now: c.now, random: () => 0 }; // the shortest jitter everywhere
    await matchOnce(db, { now: c.now });
    const first = c.now().getTime();
    for (let i = 0; i < 20; i++) {
      await drainOnce(db, deps);
      const row = await db.alertDelivery.findFirstOrThrow({ where: { subscriptionId: sub.id } });
      if (row.status === "dead") break;
      c.set(row.nextAttemptAt.getTime());
    }
    const row = await db.alertDelivery.findFirstOrThrow({ where: { subscriptionId: sub.id } });
    expect(row.status).toBe("dead");
    expect(row.attempts).toBe(8);
    expect(row.lastAttemptAt!.getTime() - first).toBeGreaterThanOrEqual(24 * 3_600_000);
    expect(receiver.received).toHaveLength(8);
    const after = await db.alertSubscription.findUniqueOrThrow({ where: { id: sub.id } });
    expect(after.enabled).toBe(false);
    expect(after.disabledReason).toMatch(/failed .*HTTP 500.*24 h/);
    const dead = await listDeliveries(db, key, sub.id, { status: "dead", limit: 5 });
    expect(dead.data).toHaveLength(1);
    await receiver.close();
  });

  it("caps deliveries per subscription per second", async () => {
    const receiver = await startReceiver();
    await subscribe(receiver.url, "503");
    for (let i = 0; i < 5; i++) await insertTrade(db, { marketId: "503", usd: 10 + i });
    const c = clock(Date.parse("2026-11-28T00:00:00Z"));
    await matchOnce(db, { now: c.now });
    const deps = { ...LOOPBACK, now: c.now, maxPerSecond: 2 };
    expect((await drainOnce(db, deps)).delivered).toBe(2);
    expect((await drainOnce(db, deps)).delivered).toBe(0);
    c.advance(1_001);
    expect((await drainOnce(db, deps)).delivered).toBe(2);
    c.advance(1_001);
    expect((await drainOnce(db, deps)).delivered).toBe(1);
    await receiver.close();
  });

  it("the worker delivers a stored trade within 2 s", async () => {
    const receiver = await startReceiver();
    await subscribe(receiver.url, "504", newKey(), [{ type: "trade", market_id: "504", min_usd: 5000 }]);
    await matchOnce(db); // the cursor is past everything stored so far
    const worker = startAlerts({ db, pollMs: 100, queue: LOOPBACK });
    try {
      const stored = Date.now();
      await insertTrade(db, { marketId: "504", usd: 4999 }); // below the rule's min_usd: never sent
      const id = await insertTrade(db, { marketId: "504", usd: 7500 });
      await pollUntil(
        async () => receiver.received.length,
        (n) => n >= 1,
        5_000,
        25,
      );
      expect((JSON.parse(receiver.received[0].body) as { data: { id: string } }).data.id).toBe(id);
      expect(receiver.received[0].at - stored).toBeLessThan(2_000);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await worker.stop();
      await receiver.close();
    }
  });
});
