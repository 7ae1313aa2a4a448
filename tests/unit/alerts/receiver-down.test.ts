// One receiver down (docs/alerts.md#delivery): for a simulated hour on an injected clock, its queue grows by one a
// minute and its head is attempted only on the retry schedule while the other subscriptions get every delivery in the
// round it was matched; the queue gauges in /api/metrics show the depth and the oldest age; once it is back, all its
// deliveries arrive, in order, none lost. And in real time, with the self-hosted worker: a receiver that hangs until
// the attempt's deadline holds back no other subscription.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matchOnce } from "@/lib/alerts/match";
import { drainOnce } from "@/lib/alerts/sender";
import { createSubscription } from "@/lib/alerts/subscriptions";
import { startAlerts } from "@/lib/alerts/worker";
import { closeDb, type Db, getDb } from "@/lib/db/client";
import { scrapeMetrics } from "@/lib/metrics/scrape";
import { pollUntil } from "@/tests/helpers/poll";
import { insertTrade, LOOPBACK, type Received, seedMarket, startReceiver } from "./fixtures";
import { newKey } from "./request";

let db: Db;
beforeAll(async () => {
  db = await getDb();
});
beforeAll(async () => {
  for (const id of ["601", "602"]) await seedMarket(db, id);
}, 120_000);
afterAll(() => closeDb());

const wallet = (tag: string, i: number) => `0x${tag}${String(i).padStart(40 - tag.length, "0")}`;
const tradeIdOf = (r: Received) => (JSON.parse(r.body) as { data: { id: string } }).data.id;

/** A subscription to one wallet's trades (each test's wallets are its own). */
async function subscribeTo(url: string, walletAddress: string) {
  return createSubscription(
    db,
    newKey(),
    { name: "down-test", url, rules: [{ type: "trade", wallet: walletAddress, min_usd: 0 }], enabled: true },
    LOOPBACK,
  );
}

function gauge(text: string, name: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  if (!line) throw new Error(`${name} not in the scrape`);
  return Number(line.slice(name.length + 1));
}

async function undelivered(subscriptionId: string): Promise<number> {
  return db.alertDelivery.count({ where: { subscriptionId, status: { in: ["pending", "failed"] } } });
}

describe("one receiver down", () => {
  it("for a simulated hour: others unaffected, its queue waits on the schedule, then all of it arrives in order", async () => {
    const down = await startReceiver();
    const ups = [await startReceiver(), await startReceiver()];
    down.setStatuses(Array.from({ length: 1_000 }, () => 503));
    const wallets = [0, 1, 2].map((i) => wallet("d0", i));
    const subs = [await subscribeTo(down.url, wallets[0])];
    for (const [i, up] of ups.entries()) subs.push(await subscribeTo(up.url, wallets[i + 1]));
    const state = { t: Math.floor(Date.now() / 60_000) * 60_000 };
    const t0 = state.t;
    const deps = { ...LOOPBACK, now: () => new Date(state.t), random: () => 0.5 }; // no jitter: the nominal schedule
    const round = async () => {
      while ((await matchOnce(db, { now: deps.now })).more);
      await drainOnce(db, deps);
    };
    await matchOnce(db, { now: deps.now }); // the cursor past everything stored before

    const stored: string[][] = [[], [], []];
    const downAttemptsAt: number[] = [];
    const noteDownAttempts = (before: number) => {
      for (let n = before; n < down.received.length; n++) downAttemptsAt.push((state.t - t0) / 1000);
    };
    for (let minute = 0; minute < 60; minute++) {
      // Retries of the down head that fall due before this minute's trades, each at its own time.
      for (;;) {
        const head = await db.alertDelivery.findFirst({
          where: { subscriptionId: subs[0].id, status: { in: ["pending", "failed"] } },
          orderBy: { position: "asc" },
        });
        if (!head || head.nextAttemptAt.getTime() > t0 + minute * 60_000 || head.nextAttemptAt.getTime() <= state.t) break;
        state.t = head.nextAttemptAt.getTime();
        const before = down.received.length;
        await drainOnce(db, deps);
        noteDownAttempts(before);
      }
      state.t = t0 + minute * 60_000;
      for (let i = 0; i < 3; i++) stored[i].push(await insertTrade(db, { marketId: "601", usd: 10 + minute, wallet: wallets[i] }));
      const before = down.received.length;
      await round();
      noteDownAttempts(before);
      // The others: this minute's delivery arrived in the round that matched it; nothing of theirs waits.
      for (const [i, up] of ups.entries()) {
        expect(up.received.map(tradeIdOf), `receiver ${i + 1}, minute ${minute}`).toEqual(stored[i + 1]);
        expect(await undelivered(subs[i + 1].id)).toBe(0);
      }
      // The down one: one more row a minute, all behind its head.
      expect(await undelivered(subs[0].id)).toBe(minute + 1);
      if (minute === 30) {
        const scraped = (await scrapeMetrics(deps.now())).body;
        expect(gauge(scraped, "predmkt_alert_queue_depth")).toBe(31);
        expect(gauge(scraped, "predmkt_alert_queue_oldest_pending_age_seconds")).toBe(1_800);
      }
    }
    // Its head was attempted on the schedule only: at 0, 5 s, 5 min later and 30 min after that (Svix's schedule).
    expect(downAttemptsAt).toEqual([0, 5, 305, 2_105]);
    expect(new Set(down.received.map((r) => r.headers["webhook-id"])).size).toBe(1);
    expect(down.received.every((r) => tradeIdOf(r) === stored[0][0])).toBe(true);
    // The others: every delivery on the simulated clock in the round it was matched (latency 0 rounds), first attempt.
    const others = await db.alertDelivery.findMany({ where: { subscriptionId: { in: [subs[1].id, subs[2].id] } } });
    expect(others).toHaveLength(120);
    expect(others.every((d) => d.status === "delivered" && d.attempts === 1 && d.deliveredAt!.getTime() === d.createdAt.getTime())).toBe(
      true,
    );
    const sub0 = await db.alertSubscription.findUniqueOrThrow({ where: { id: subs[0].id } });
    expect(sub0.enabled).toBe(true);

    // Back after the hour: at the head's next scheduled attempt (2 h 35 min 5 s after the first) everything arrives,
    // at the per-subscription rate cap (20 a second), in the order it was stored, each with its own id.
    down.setStatuses([]);
    const head = await db.alertDelivery.findFirstOrThrow({ where: { subscriptionId: subs[0].id }, orderBy: { position: "asc" } });
    expect((head.nextAttemptAt.getTime() - t0) / 1000).toBe(9_305);
    state.t = head.nextAttemptAt.getTime();
    for (let second = 0; second < 10 && (await undelivered(subs[0].id)) > 0; second++) {
      await drainOnce(db, deps);
      state.t += 1_000;
    }
    expect(await undelivered(subs[0].id)).toBe(0);
    const arrived = down.received.slice(4);
    expect(arrived.map(tradeIdOf)).toEqual(stored[0]);
    const ids = arrived.map((r) => String(r.headers["webhook-id"]));
    expect(new Set(ids).size).toBe(60);
    expect(ids[0]).toBe(down.received[0].headers["webhook-id"]);
    const rows = await db.alertDelivery.findMany({ where: { subscriptionId: subs[0].id }, orderBy: { position: "asc" } });
    expect(rows.map((r) => [r.status, r.attempts])).toEqual([["delivered", 5], ...Array.from({ length: 59 }, () => ["delivered", 1])]);
    const after = (await scrapeMetrics(deps.now())).body;
    expect(gauge(after, "predmkt_alert_queue_depth")).toBe(0);
    expect(gauge(after, "predmkt_alert_queue_oldest_pending_age_seconds")).toBe(-1);
    for (const r of [down, ...ups]) await r.close();
  }, 180_000);

  it("a receiver that hangs until the deadline holds back no other subscription (the worker)", async () => {
    const hung: IncomingMessage[] = [];
    const hanging: Server = createServer((req) => {
      hung.push(req);
      req.resume();
    });
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
    const healthy = await startReceiver();
    const wallets = [wallet("e0", 0), wallet("e0", 1)];
    const slow = await subscribeTo(`http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hook`, wallets[0]);
    const fast = await subscribeTo(healthy.url, wallets[1]);
    await matchOnce(db);
    const worker = startAlerts({ db, pollMs: 50, queue: { ...LOOPBACK, timeoutMs: 6_000 } });
    try {
      await insertTrade(db, { marketId: "602", usd: 5, wallet: wallets[0] });
      await pollUntil(
        () => hung.length,
        (n) => n >= 1,
        10_000,
        25,
        "the hanging receiver's request",
      );
      const stored = Date.now();
      const id = await insertTrade(db, { marketId: "602", usd: 6, wallet: wallets[1] });
      await pollUntil(
        () => healthy.received.length,
        (n) => n >= 1,
        10_000,
        25,
        "the healthy receiver's delivery",
      );
      expect(tradeIdOf(healthy.received[0])).toBe(id);
      // Delivered while the hanging attempt was still open (it ends only at its 6 s deadline).
      const slowRow = await db.alertDelivery.findFirstOrThrow({ where: { subscriptionId: slow.id } });
      expect(slowRow).toMatchObject({ status: "pending", attempts: 0 });
      expect(healthy.received[0].at - stored).toBeLessThan(6_000);
    } finally {
      hanging.closeAllConnections();
      await worker.stop();
      await new Promise((resolve) => hanging.close(resolve));
      await healthy.close();
      // Nothing of this test is left for another to deliver.
      for (const s of [slow, fast]) {
        await db.alertDelivery.deleteMany({ where: { subscriptionId: s.id } });
        await db.alertSubscription.delete({ where: { id: s.id } });
      }
    }
  }, 60_000);
});
