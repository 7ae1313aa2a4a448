// The alerts bench's simulated hour (bench/alerts.ts, part 2): the sender on an injected clock (no waiting through a
// backoff), every simulated minute one match per subscription; with `down`, subscription 0's endpoint answers 503
// all hour and comes back after it. Real jitter (Math.random), the real rate cap, the real receiver process.
import { alertQueueStats } from "@/lib/metrics/alert-queue";
import { drainOnce } from "@/lib/alerts/sender";
import type { Db } from "@/lib/db/client";
import {
  catchUp,
  LOOPBACK,
  pathOf,
  retire,
  loadSampler,
  type ReceiverClient,
  storeTrade,
  subscribeAll,
  summary,
  walletOf,
} from "./alerts-common";

const REPORT_AT = [1, 5, 15, 30, 45, 60];

export async function simulatedHour(db: Db, rx: ReceiverClient, phase: number, count: number, down: boolean) {
  const subs = await subscribeAll(db, rx.base, phase, count);
  const downPath = pathOf(phase, 0);
  if (down) await rx.down(downPath, "503");
  const clock = { t: Math.floor(Date.now() / 60_000) * 60_000 };
  const t0 = clock.t;
  const deps = { ...LOOPBACK, now: () => new Date(clock.t) };
  await catchUp(db, deps.now);
  const undelivered = (ids: string[]) =>
    db.alertDelivery.count({ where: { subscriptionId: { in: ids }, status: { in: ["pending", "failed"] } } });
  const stored = new Map<string, { at: number; sub: number }>();
  const downTrades: string[] = [];
  const attemptsAt: number[] = [];
  const downRequests = async () => (await rx.requests())[downPath] ?? 0;
  const attempt = async () => {
    const before = down ? await downRequests() : 0;
    await drainOnce(db, deps);
    if (down && clock.t - t0 < 3_600_000)
      for (let n = before; n < (await downRequests()); n++) attemptsAt.push(Math.round((clock.t - t0) / 100) / 10);
  };
  const depth: Record<string, unknown>[] = [];
  let othersUndeliveredMax = 0;
  const roundMs: number[] = [];
  const load = loadSampler();
  for (let minute = 0; minute < 60; minute++) {
    // Retries of the down head due before this minute, each at its own (jittered) time.
    for (;;) {
      const head = down
        ? await db.alertDelivery.findFirst({
            where: { subscriptionId: subs[0], status: { in: ["pending", "failed"] } },
            orderBy: { position: "asc" },
          })
        : null;
      if (!head || head.nextAttemptAt.getTime() > t0 + minute * 60_000 || head.nextAttemptAt.getTime() <= clock.t) break;
      clock.t = head.nextAttemptAt.getTime();
      await attempt();
    }
    clock.t = t0 + minute * 60_000;
    const started = performance.now();
    for (let i = 0; i < count; i++) {
      const id = await storeTrade(db, walletOf(phase, i), new Date(clock.t));
      stored.set(id, { at: Date.now(), sub: i });
      if (i === 0) downTrades.push(id);
    }
    await catchUp(db, deps.now);
    await attempt();
    roundMs.push(performance.now() - started);
    othersUndeliveredMax = Math.max(othersUndeliveredMax, await undelivered(subs.slice(1)));
    if (REPORT_AT.includes(minute + 1)) {
      const queue = await alertQueueStats(db, deps.now());
      depth.push({
        minute: minute + 1,
        down_subscription: await undelivered([subs[0]]),
        queue_depth: queue.depth,
        oldest_age_s: queue.oldest_pending_age_s,
      });
    }
  }
  const machine = load();
  const receipts = await rx.poll();
  const others = [...stored].filter(([, s]) => s.sub !== 0 || !down);
  const latencies = others.flatMap(([id, s]) => {
    const at = rx.firstReceipt(id);
    return at === undefined ? [] : [at - s.at];
  });
  const result: Record<string, unknown> = {
    down,
    subscriptions: count,
    matches: stored.size,
    others_delivered: latencies.length,
    others_expected: others.length,
    others_undelivered_max_after_a_minute: othersUndeliveredMax,
    others_latency_wall: summary(latencies),
    round_ms: summary(roundMs),
    load: machine,
  };
  if (down) {
    // Back after the hour: at the head's next scheduled attempt everything is sent, at the rate cap, in order.
    await rx.down(downPath, "up");
    const head = await db.alertDelivery.findFirstOrThrow({
      where: { subscriptionId: subs[0], status: { in: ["pending", "failed"] } },
      orderBy: { position: "asc" },
    });
    clock.t = head.nextAttemptAt.getTime();
    const backAt = clock.t;
    const wallStart = performance.now();
    while ((await undelivered([subs[0]])) > 0 && clock.t - backAt < 600_000) {
      await attempt();
      clock.t += 1_000;
    }
    const arrived = (await rx.poll()).filter((r) => r[2] === downPath);
    const order = arrived.map((r) => r[0]);
    result.down_subscription = {
      depth_through_the_hour: depth,
      attempts_in_the_hour_at_s: attemptsAt,
      next_attempt_after_the_hour_s: Math.round((backAt - t0) / 1000),
      emptied_in_simulated_s: Math.round((clock.t - backAt) / 1000),
      emptied_in_wall_ms: Math.round(performance.now() - wallStart),
      delivered: arrived.length,
      stored: downTrades.length,
      in_order: JSON.stringify(order) === JSON.stringify(downTrades),
      distinct_webhook_ids: new Set(arrived.map((r) => r[3])).size,
      still_undelivered: await undelivered([subs[0]]),
      enabled: (await db.alertSubscription.findUniqueOrThrow({ where: { id: subs[0] } })).enabled,
    };
  }
  result.receipts_total = receipts.length;
  await retire(db, subs);
  return result;
}
