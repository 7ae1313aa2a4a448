// The sender (docs/alerts.md#delivery): claims a subscription's oldest undelivered row with a lease (a crashed
// sender's lease lapses and the row is sent again, same id), attempts it, records the outcome, and goes on to the
// next row of that subscription while they keep succeeding. Only the oldest undelivered row of a subscription is
// ever attempted, so deliveries arrive in order per subscription; a failing one holds the ones behind it and nothing
// else. Two ways to run it: `drainOnce` (the cron route, tests, the bench's simulated clock) delivers everything due
// and returns when done; `startSender` (the self-hosted worker) keeps runs in flight across rounds, so one slow
// receiver (up to ALERTS_TIMEOUT_MS per attempt) never holds back another subscription's next delivery.
import type { Db } from "@/lib/db/client";
import { env } from "@/lib/env";
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

async function dueHeads(db: Db, now: Date): Promise<Head[]> {
  return db.$queryRawUnsafe<Head[]>(DUE_HEADS + LONGEST_WAITING_FIRST, now.toISOString());
}

/** A claimed row with what its attempt needs of its subscription. */
interface Claimed {
  id: string;
  subscriptionId: string;
  eventType: string;
  body: string;
  attempts: number;
  storedAt: Date;
  nextAttemptAt: Date;
  url: string;
  secret: string;
  keyId: string;
  failingSince: Date | null;
}

// Claims a subscription's oldest undelivered row when it is due, nobody holds it and the subscription is enabled, and
// returns it with the subscription's target, secret and key: one statement per delivery (the embedded database pays
// several milliseconds a statement under load, docs/alerts.md "Measured"). The head is found by the two index seeks
// of DUE_HEADS; a head that is not yet due is never skipped for a later row. Two senders racing for the same row:
// the second's UPDATE re-checks the lease after the first commits and claims nothing.
const CLAIM_HEAD = `
  UPDATE alert_deliveries d SET lease_until = $3::timestamptz
  FROM alert_subscriptions s
  WHERE d.id = (
      SELECT id FROM (
        (SELECT id, position FROM alert_deliveries WHERE subscription_id = $1 AND status = 'failed' ORDER BY position LIMIT 1)
        UNION ALL
        (SELECT id, position FROM alert_deliveries WHERE subscription_id = $1 AND status = 'pending' ORDER BY position LIMIT 1)
      ) x ORDER BY position LIMIT 1)
    AND s.id = d.subscription_id AND s.enabled
    AND d.next_attempt_at <= $2::timestamptz AND (d.lease_until IS NULL OR d.lease_until < $2::timestamptz)
  RETURNING d.id, d.subscription_id, d.event_type, d.body, d.attempts, d.stored_at, d.next_attempt_at,
    s.url, s.secret, s.key_id::text AS key_id, s.failing_since`;

interface ClaimedRow {
  id: string;
  subscription_id: string;
  event_type: string;
  body: string;
  attempts: number | bigint;
  stored_at: Date | string;
  next_attempt_at: Date | string;
  url: string;
  secret: string;
  key_id: string;
  failing_since: Date | string | null;
}

async function claimHead(db: Db, subscriptionId: string, now: Date): Promise<Claimed | null> {
  const rows = await db.$queryRawUnsafe<ClaimedRow[]>(
    CLAIM_HEAD,
    subscriptionId,
    now.toISOString(),
    new Date(now.getTime() + LEASE_MS).toISOString(),
  );
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.id,
    subscriptionId: r.subscription_id,
    eventType: r.event_type,
    body: r.body,
    attempts: Number(r.attempts),
    storedAt: new Date(r.stored_at),
    nextAttemptAt: new Date(r.next_attempt_at),
    url: r.url,
    secret: r.secret,
    keyId: r.key_id,
    failingSince: r.failing_since === null ? null : new Date(r.failing_since),
  };
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

async function attempt(db: Db, row: Claimed, deps: FullDeps) {
  const at = deps.now();
  const headers = signatureHeaders(row.secret, row.id, at, row.body);
  let result: SendResult;
  try {
    result = deps.send ? await deps.send(row.url, headers, row.body) : await sendWebhook(row.url, headers, row.body, deps);
  } catch (error) {
    result = { ok: false, status: null, error: "sender failed", durationMs: 0 };
    log.warn("alert delivery threw", { delivery_id: row.id, ...errorFields(error) });
  }
  const done = deps.now();
  const attempts = row.attempts + 1;
  // Counted in the key's usage like a request (docs/alerts.md#usage): 2xx delivered, else the receiver's status or 502.
  recordUsage(row.keyId, DELIVERY_OPERATION, result.ok ? 200 : (result.status ?? 502));
  if (result.ok) {
    const delivered = db.alertDelivery.updateMany({
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
    });
    // A success ends the subscription's run of failures; one statement when there was none.
    if (row.failingSince)
      await db.$transaction([
        delivered,
        db.alertSubscription.updateMany({ where: { id: row.subscriptionId, failingSince: { not: null } }, data: { failingSince: null } }),
      ]);
    else await delivered;
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
  const failingSince = row.failingSince ?? at;
  if (!row.failingSince)
    await db.alertSubscription.updateMany({ where: { id: row.subscriptionId, failingSince: null }, data: { failingSince: at } });
  if (done.getTime() - failingSince.getTime() >= FAILING_DISABLE_MS) {
    const reason = `Every delivery attempt since ${failingSince.toISOString()} failed (last: ${result.error ?? "unknown"}); disabled after 24 h. Fix the endpoint and PATCH enabled=true.`;
    await db.alertSubscription.update({
      where: { id: row.subscriptionId },
      data: { enabled: false, disabledReason: reason, updatedAt: done },
    });
    log.warn("alert subscription disabled", { subscription_id: row.subscriptionId, failing_since: failingSince.toISOString() });
  }
  return dead ? ("dead" as const) : ("failed" as const);
}

/**
 * One subscription's run: its head, then the rows behind it while they keep succeeding (up to the rate cap), one
 * after another. Ends at a failure, the rate cap, a head not due or held by another sender, a disabled
 * subscription, or when `stopping()` says so.
 */
async function deliverRun(db: Db, subscriptionId: string, deps: FullDeps, result: DrainResult, stopping: () => boolean): Promise<void> {
  for (;;) {
    const at = deps.now();
    if (!underRateCap(subscriptionId, at.getTime(), deps.maxPerSecond)) return;
    const row = await claimHead(db, subscriptionId, at);
    if (!row) return;
    noteSend(subscriptionId, at.getTime());
    result.attempted++;
    const outcome = await attempt(db, row, deps);
    result[outcome]++;
    if (outcome !== "delivered" || stopping()) return;
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
    while (next < heads.length) await deliverRun(db, heads[next++].subscription_id, full, result, () => false);
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
      const run = deliverRun(db, head.subscription_id, full, totals, () => stopped)
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
