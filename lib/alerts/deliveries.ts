// The durable delivery queue (docs/alerts.md#delivery), a table in our own database (PostgreSQL or the embedded
// PGlite alike). Each match is a row written with its webhook id before any attempt (lib/alerts/match.ts); a sender
// claims a subscription's oldest undelivered row with a lease (a crashed sender's lease lapses and the row is sent
// again, same id), attempts it, and records the outcome. Only the oldest undelivered row of a subscription is ever
// attempted, so deliveries arrive in order per subscription; a failing one holds the ones behind it.
//
// Retries follow Svix's published schedule for Standard Webhooks (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
// 10 h: 27 h 35 min in all) with ±10 % jitter, so the last attempt is at least 24 h after the first; then `dead`.
// A subscription whose attempts have all failed for 24 h is disabled with its reason.
import { createHash, randomUUID } from "node:crypto";
import { ApiError, invalidParameter } from "@/lib/api/errors";
import type { Db } from "@/lib/db/client";
import { env } from "@/lib/env";
import type { AlertDelivery, AlertSubscription } from "@/lib/generated/prisma/client";
import { recordUsage } from "@/lib/keys/usage-meter";
import { errorFields, log } from "@/lib/log";
import { observeAlert } from "@/lib/metrics/registry";
import { sendWebhook, type SendOptions, type SendResult } from "./send";
import { signatureHeaders } from "./sign";
import { type Caller, findOwned } from "./subscriptions";

export const DELIVERY_STATUSES = ["pending", "delivered", "failed", "dead"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Delay before attempt n+1 after n failed attempts (ms): Svix's schedule after the immediate first attempt. */
export const RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
export const JITTER = 0.1;
export const FAILING_DISABLE_MS = 24 * 3_600_000;
const LEASE_MS = 60_000;
/** The usage meter's operation name for deliveries (docs/alerts.md#usage). */
export const DELIVERY_OPERATION = "DELIVER /api/alerts/{id}";

export type Clock = () => Date;

export interface QueueDeps extends SendOptions {
  now?: Clock;
  /** Uniform [0, 1): the jitter's draw. */
  random?: () => number;
  /** Replaces the HTTP attempt (tests of the queue alone). */
  send?: (url: string, headers: Record<string, string>, body: string) => Promise<SendResult>;
  /** Deliveries per second one subscription may receive. */
  maxPerSecond?: number;
  concurrency?: number;
}

export function retryDelayMs(failedAttempts: number, random: () => number = Math.random): number | null {
  const base = RETRY_SCHEDULE_MS[failedAttempts - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/** The webhook id of a match: derived from the subscription and what matched, so a re-match can never mint a new one. */
export function webhookId(subscriptionId: string, sourceKey: string): string {
  return `msg_${createHash("sha256").update(`${subscriptionId}|${sourceKey}`).digest("base64url").slice(0, 27)}`;
}

export interface DeliveryView {
  id: string;
  event_type: string;
  created_at: string;
  status: DeliveryStatus;
  attempts: number;
  last_attempt_at: string | null;
  last_status_code: number | null;
  next_attempt_at: string | null;
}

export function deliveryView(d: AlertDelivery): DeliveryView {
  const open = d.status === "pending" || d.status === "failed";
  return {
    id: d.id,
    event_type: d.eventType,
    created_at: d.createdAt.toISOString(),
    status: d.status as DeliveryStatus,
    attempts: d.attempts,
    last_attempt_at: d.lastAttemptAt?.toISOString() ?? null,
    last_status_code: d.lastStatusCode,
    next_attempt_at: open ? d.nextAttemptAt.toISOString() : null,
  };
}

/** The JSON body sent (Standard Webhooks' recommended envelope: type, timestamp, data). */
export function webhookBody(eventType: string, at: Date, data: Record<string, unknown>): string {
  return JSON.stringify({ type: eventType, timestamp: at.toISOString(), data });
}

export interface NewDelivery {
  subscriptionId: string;
  sourceKey: string;
  eventType: string;
  data: Record<string, unknown>;
  storedAt: Date;
}

/** Writes matches (idempotent: a row already written for the same subscription and source is kept as it is). */
export async function enqueue(db: Pick<Db, "$executeRawUnsafe">, rows: NewDelivery[], now: Date): Promise<number> {
  let written = 0;
  for (const r of rows) {
    written += await db.$executeRawUnsafe(
      `INSERT INTO alert_deliveries (id, subscription_id, source_key, event_type, body, stored_at, created_at, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz, $7::timestamptz)
       ON CONFLICT (subscription_id, source_key) DO NOTHING`,
      webhookId(r.subscriptionId, r.sourceKey),
      r.subscriptionId,
      r.sourceKey,
      r.eventType,
      webhookBody(r.eventType, now, r.data),
      r.storedAt.toISOString(),
      now.toISOString(),
    );
  }
  return written;
}

// ---- the API's side ----

export async function listDeliveries(
  db: Db,
  caller: Caller,
  id: string,
  query: { status?: DeliveryStatus; limit: number; cursor?: string },
): Promise<{ data: DeliveryView[]; meta: { count: number; limit: number; next_cursor: string | null } }> {
  const sub = await findOwned(db, caller, id);
  const rows = await db.alertDelivery.findMany({
    where: {
      subscriptionId: sub.id,
      ...(query.status ? { status: query.status } : {}),
      ...(query.cursor ? { position: { lt: BigInt(query.cursor) } } : {}),
    },
    orderBy: { position: "desc" },
    take: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  const next = rows.length > query.limit ? page[page.length - 1].position.toString() : null;
  return { data: page.map(deliveryView), meta: { count: page.length, limit: query.limit, next_cursor: next } };
}

export async function retryDelivery(db: Db, caller: Caller, id: string, deliveryId: string, now = new Date()): Promise<DeliveryView> {
  const sub = await findOwned(db, caller, id);
  const found = await db.alertDelivery.findFirst({ where: { id: deliveryId, subscriptionId: sub.id } });
  if (!found) throw new ApiError("not_found", `No delivery '${deliveryId}' for subscription '${sub.id}'.`);
  if (found.status === "delivered") throw invalidParameter("delivery_id", "was already delivered");
  const updated = await db.alertDelivery.update({
    where: { id: found.id },
    data: { status: found.status === "dead" ? "failed" : found.status, nextAttemptAt: now, leaseUntil: null },
  });
  return deliveryView(updated);
}

export async function sendTestEvent(db: Db, caller: Caller, id: string, now = new Date()): Promise<DeliveryView> {
  const sub = await findOwned(db, caller, id);
  const sourceKey = `test:${randomUUID()}`;
  await enqueue(
    db,
    [{ subscriptionId: sub.id, sourceKey, eventType: "test", data: { subscription_id: sub.id, message: "test event" }, storedAt: now }],
    now,
  );
  observeAlert("queued", "test");
  const row = await db.alertDelivery.findUniqueOrThrow({ where: { id: webhookId(sub.id, sourceKey) } });
  return deliveryView(row);
}

// ---- the sender's side ----

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

async function dueHeads(db: Db, now: Date, subscriptionId?: string): Promise<Head[]> {
  if (subscriptionId) return db.$queryRawUnsafe<Head[]>(`${DUE_HEADS} AND s.id = $2`, now.toISOString(), subscriptionId);
  return db.$queryRawUnsafe<Head[]>(DUE_HEADS, now.toISOString());
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

async function attempt(db: Db, sub: AlertSubscription, row: AlertDelivery, deps: Required<Pick<QueueDeps, "now" | "random">> & QueueDeps) {
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
 * Delivers what is due: every subscription's head, then its next rows while they keep succeeding (up to the rate
 * cap), subscriptions in parallel (at most `concurrency` at once), each subscription's rows one after another.
 */
export async function drainOnce(db: Db, deps: QueueDeps = {}): Promise<DrainResult> {
  const full = { now: deps.now ?? (() => new Date()), random: deps.random ?? Math.random, ...deps };
  const perSecond = deps.maxPerSecond ?? env.ALERTS_MAX_PER_SECOND;
  const result: DrainResult = { attempted: 0, delivered: 0, failed: 0, dead: 0 };
  const heads = await dueHeads(db, full.now());
  let next = 0;
  const worker = async () => {
    while (next < heads.length) {
      let head: Head | undefined = heads[next++];
      while (head) {
        const at = full.now();
        if (!underRateCap(head.subscription_id, at.getTime(), perSecond)) break;
        const row = await claim(db, head.id, at);
        if (!row) break;
        const sub = await db.alertSubscription.findUnique({ where: { id: row.subscriptionId } });
        if (!sub?.enabled) {
          await db.alertDelivery.update({ where: { id: row.id }, data: { leaseUntil: null } });
          break;
        }
        noteSend(sub.id, at.getTime());
        result.attempted++;
        const outcome = await attempt(db, sub, row, full);
        result[outcome]++;
        if (outcome !== "delivered") break;
        head = (await dueHeads(db, full.now(), sub.id))[0];
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(deps.concurrency ?? 16, heads.length) }, worker));
  return result;
}

/** Queue depth and the oldest undelivered row's age, for /api/health and the metrics. */
export async function queueStats(db: Db, now = new Date()): Promise<{ depth: number; oldest_pending_age_s: number | null; dead: number }> {
  const rows = await db.$queryRawUnsafe<{ depth: bigint | number; oldest: Date | null; dead: bigint | number }[]>(
    `SELECT count(*) FILTER (WHERE status IN ('pending','failed')) AS depth,
            min(created_at) FILTER (WHERE status IN ('pending','failed')) AS oldest,
            count(*) FILTER (WHERE status = 'dead') AS dead
     FROM alert_deliveries`,
  );
  const r = rows[0];
  return {
    depth: Number(r?.depth ?? 0),
    oldest_pending_age_s: r?.oldest ? Math.max(0, Math.round((now.getTime() - new Date(r.oldest).getTime()) / 1000)) : null,
    dead: Number(r?.dead ?? 0),
  };
}
