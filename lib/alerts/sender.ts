// The sender (docs/alerts.md#delivery): claims a subscription's oldest undelivered row with a lease (a crashed
// sender's lease lapses and the row is sent again, same id), attempts it, records the outcome, and goes on to the
// next row of that subscription while they keep succeeding. Only the oldest undelivered row of a subscription is
// ever attempted, so deliveries arrive in order per subscription; a failing one holds the ones behind it and nothing
// else. Two ways to run it: `drainOnce` (the cron route, tests, the bench's simulated clock) delivers everything due
// and returns when done; `startSender` (the self-hosted worker) keeps runs in flight across rounds, so one slow
// receiver (up to ALERTS_TIMEOUT_MS per attempt) never holds back another subscription's next delivery.
import type { Db } from "@/lib/db/client";
import { env } from "@/lib/env";
import type { AlertDelivery, AlertSubscription } from "@/lib/generated/prisma/client";
import { recordUsage } from "@/lib/keys/usage-meter";
import { errorFields, log } from "@/lib/log";
import { observeAlert } from "@/lib/metrics/registry";
import { type Clock, DELIVERY_OPERATION, FAILING_DISABLE_MS, retryDelayMs } from "./deliveries";
import { sendWebhook, type SendOptions, type SendResult } from "./send";
import { signatureHeaders } from "./sign";

const LEASE_MS = 60_000;
const DEFAULT_CONCURRENCY = 16;

export interface QueueDeps extends SendOptions {
  now?: Clock;
  /** Uniform [0, 1): the jitter's draw. */
  random?: () => number;
  /** Replaces the HTTP attempt (tests of the queue alone). */
  send?: (url: string, headers: Record<string, string>, body: string) => Promise<SendResult>;
  /** Deliveries per second one subscription may receive. */
  maxPerSecond?: number;
  /** Subscriptions attempted at once. */
  concurrency?: number;
}

type FullDeps = QueueDeps & Required<Pick<QueueDeps, "now" | "random" | "maxPerSecond">>;

function withDefaults(deps: QueueDeps): FullDeps {
  return { now: () => new Date(), random: Math.random, maxPerSecond: env.ALERTS_MAX_PER_SECOND, ...deps };
}

interface Head {
  id: string;
  subscription_id: string;
}

// Each enabled subscription's oldest undelivered row, when it is due and not held by another sender. Two index seeks
// per subscription (its oldest failed row, its oldest pending one) on (subscription_id, status, position).
const DUE_HEADS = `
  SELECT h.id, h.subscription_id FROM alert_subscriptions s
  JOIN LATERAL (
    SELECT * FROM (
      (SELECT id, subscription_id, position, next_attempt_at, lease_until FROM alert_deliveries
        WHERE subscription_id = s.id AND status = 'failed' ORDER BY position LIMIT 1)
      UNION ALL
      (SELECT id, subscription_id, position, next_attempt_at, lease_until FROM alert_deliveries
        WHERE subscription_id = s.id AND status = 'pending' ORDER BY position LIMIT 1)
    ) x ORDER BY position LIMIT 1
  ) h ON true
  WHERE s.enabled AND h.next_attempt_at <= $1::timestamptz AND (h.lease_until IS NULL OR h.lease_until < $1::timestamptz)`;
const LONGEST_WAITING_FIRST = " ORDER BY h.next_attempt_at, h.position";

async function dueHeads(db: Db, now: Date, subscriptionId?: string): Promise<Head[]> {
  if (subscriptionId) return db.$queryRawUnsafe<Head[]>(`${DUE_HEADS} AND s.id = $2`, now.toISOString(), subscriptionId);
  return db.$queryRawUnsafe<Head[]>(DUE_HEADS + LONGEST_WAITING_FIRST, now.toISOString());
}

/** Takes the lease on a row if nobody holds it; the row as claimed, or null. */
async function claim(db: Db, id: string, now: Date): Promise<AlertDelivery | null> {
  const claimed = await db.alertDelivery.updateMany({
    where: { id, status: { in: ["pending", "failed"] }, OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
    data: { leaseUntil: new Date(now.getTime() + LEASE_MS) },
  });
  if (claimed.count !== 1) return null;
  return db.alertDelivery.findUnique({ where: { id } });
}

// Per-subscription delivery cap (ALERTS_MAX_PER_SECOND), counted in this process over the last second.
const recentSends = new Map<string, number[]>();
function underRateCap(subscriptionId: string, at: number, perSecond: number): boolean {
  const times = (recentSends.get(subscriptionId) ?? []).filter((t) => t > at - 1000);
  recentSends.set(subscriptionId, times);
  return times.length < perSecond;
}
function noteSend(subscriptionId: string, at: number): void {
  const times = recentSends.get(subscriptionId);
  if (times) times.push(at);
  else recentSends.set(subscriptionId, [at]);
}

export interface DrainResult {
  attempted: number;
  delivered: number;
  failed: number;
  dead: number;
}

async function attempt(db: Db, sub: AlertSubscription, row: AlertDelivery, deps: FullDeps) {
  const at = deps.now();
  const headers = signatureHeaders(sub.secret, row.id, at, row.body);
  let result: SendResult;
  try {
    result = deps.send ? await deps.send(sub.url, headers, row.body) : await sendWebhook(sub.url, headers, row.body, deps);
  } catch (error) {
    result = { ok: false, status: null, error: "sender failed", durationMs: 0 };
    log.warn("alert delivery threw", { delivery_id: row.id, ...errorFields(error) });
  }
  const done = deps.now();
  const attempts = row.attempts + 1;
  // Counted in the key's usage like a request (docs/alerts.md#usage): 2xx delivered, else the receiver's status or 502.
  recordUsage(sub.keyId, DELIVERY_OPERATION, result.ok ? 200 : (result.status ?? 502));
  if (result.ok) {
    await db.$transaction([
      db.alertDelivery.update({
        where: { id: row.id },
        data: {
          status: "delivered",
          attempts,
          lastAttemptAt: at,
          lastStatusCode: result.status,
          lastError: null,
          deliveredAt: done,
          leaseUntil: null,
        },
      }),
      db.alertSubscription.updateMany({ where: { id: sub.id, failingSince: { not: null } }, data: { failingSince: null } }),
    ]);
    observeAlert("delivered", row.eventType, (done.getTime() - row.storedAt.getTime()) / 1000);
    return "delivered" as const;
  }
  const delay = retryDelayMs(attempts, deps.random);
  const dead = delay === null;
  await db.alertDelivery.update({
    where: { id: row.id },
    data: {
      status: dead ? "dead" : "failed",
      attempts,
      lastAttemptAt: at,
      lastStatusCode: result.status,
      lastError: result.error,
      nextAttemptAt: dead ? row.nextAttemptAt : new Date(done.getTime() + delay),
      leaseUntil: null,
    },
  });
  observeAlert(dead ? "dead" : "failed", row.eventType);
  const failingSince = sub.failingSince ?? at;
  if (!sub.failingSince) await db.alertSubscription.updateMany({ where: { id: sub.id, failingSince: null }, data: { failingSince: at } });
  if (done.getTime() - failingSince.getTime() >= FAILING_DISABLE_MS) {
    const reason = `Every delivery attempt since ${failingSince.toISOString()} failed (last: ${result.error ?? "unknown"}); disabled after 24 h. Fix the endpoint and PATCH enabled=true.`;
    await db.alertSubscription.update({ where: { id: sub.id }, data: { enabled: false, disabledReason: reason, updatedAt: done } });
    log.warn("alert subscription disabled", { subscription_id: sub.id, failing_since: failingSince.toISOString() });
  }
  return dead ? ("dead" as const) : ("failed" as const);
}

/**
 * One subscription's run: its head, then the rows behind it while they keep succeeding (up to the rate cap), one
 * after another. Ends at a failure, the rate cap, a row another sender holds, or when `stopping()` says so.
 */
async function deliverRun(db: Db, first: Head, deps: FullDeps, result: DrainResult, stopping: () => boolean): Promise<void> {
  let head: Head | undefined = first;
  while (head) {
    const at = deps.now();
    if (!underRateCap(head.subscription_id, at.getTime(), deps.maxPerSecond)) return;
    const row = await claim(db, head.id, at);
    if (!row) return;
    const sub = await db.alertSubscription.findUnique({ where: { id: row.subscriptionId } });
    if (!sub?.enabled) {
      await db.alertDelivery.update({ where: { id: row.id }, data: { leaseUntil: null } });
      return;
    }
    noteSend(sub.id, at.getTime());
    result.attempted++;
    const outcome = await attempt(db, sub, row, deps);
    result[outcome]++;
    if (outcome !== "delivered" || stopping()) return;
    head = (await dueHeads(db, deps.now(), sub.id))[0];
  }
}

/**
 * Delivers what is due and returns when done: every subscription's run, at most `concurrency` subscriptions at
 * once. The round lasts as long as its slowest receiver (up to ALERTS_TIMEOUT_MS): the cron route's way.
 */
export async function drainOnce(db: Db, deps: QueueDeps = {}): Promise<DrainResult> {
  const full = withDefaults(deps);
  const result: DrainResult = { attempted: 0, delivered: 0, failed: 0, dead: 0 };
  const heads = await dueHeads(db, full.now());
  let next = 0;
  const worker = async () => {
    while (next < heads.length) await deliverRun(db, heads[next++], full, result, () => false);
  };
  await Promise.all(Array.from({ length: Math.min(deps.concurrency ?? DEFAULT_CONCURRENCY, heads.length) }, worker));
  return result;
}

export interface Sender {
  /** Starts runs for the due subscriptions that have none in flight, up to the concurrency; does not wait for them. */
  pump: () => Promise<void>;
  /** Resolves when no run is in flight. */
  idle: () => Promise<void>;
  /** Lets the runs in flight finish their current attempt (no further rows) and waits for them. */
  stop: () => Promise<void>;
  /** Totals since the start. */
  totals: DrainResult;
}

/**
 * The self-hosted worker's sender: subscription runs stay in flight across rounds, each subscription at most once,
 * so a round never waits for a slow receiver; a slot freed by a finished run goes to the next due subscription at once.
 */
export function startSender(db: Db, deps: QueueDeps = {}): Sender {
  const full = withDefaults(deps);
  const concurrency = deps.concurrency ?? DEFAULT_CONCURRENCY;
  const totals: DrainResult = { attempted: 0, delivered: 0, failed: 0, dead: 0 };
  const inFlight = new Map<string, Promise<void>>();
  let backlog: Head[] = [];
  let stopped = false;
  const fill = () => {
    while (!stopped && inFlight.size < concurrency && backlog.length) {
      const head = backlog.shift()!;
      if (inFlight.has(head.subscription_id)) continue;
      const run = deliverRun(db, head, full, totals, () => stopped)
        .catch((error: unknown) => log.warn("alert delivery run failed", { subscription_id: head.subscription_id, ...errorFields(error) }))
        .finally(() => {
          inFlight.delete(head.subscription_id);
          fill();
        });
      inFlight.set(head.subscription_id, run);
    }
  };
  const idle = async () => {
    while (inFlight.size) await Promise.all([...inFlight.values()]);
  };
  return {
    pump: async () => {
      if (stopped) return;
      const due = await dueHeads(db, full.now());
      backlog = due.filter((h) => !inFlight.has(h.subscription_id));
      fill();
    },
    idle,
    stop: async () => {
      stopped = true;
      backlog = [];
      await idle();
    },
    totals,
  };
}
