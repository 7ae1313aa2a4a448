// The durable delivery queue (docs/alerts.md#delivery), a table in our own database (PostgreSQL or the embedded
// PGlite alike). Each match is a row written with its webhook id before any attempt (lib/alerts/match.ts); the
// sender (lib/alerts/sender.ts) attempts only each subscription's oldest undelivered row, so deliveries arrive in
// order per subscription. This module holds the rows: their ids, bodies, the retry schedule and the API's side.
//
// Retries follow Svix's published schedule for Standard Webhooks (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
// 10 h: 27 h 35 min in all) with ±10 % jitter, so the last attempt is at least 24 h after the first; then `dead`.
// A subscription whose attempts have all failed for 24 h is disabled with its reason.
import { createHash, randomUUID } from "node:crypto";
import { ApiError, invalidParameter } from "@/lib/api/errors";
import type { Db } from "@/lib/db/client";
import type { AlertDelivery } from "@/lib/generated/prisma/client";
import { observeAlert } from "@/lib/metrics/registry";
import { type Caller, findOwned } from "./subscriptions";

export const DELIVERY_STATUSES = ["pending", "delivered", "failed", "dead"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Delay before attempt n+1 after n failed attempts (ms): Svix's schedule after the immediate first attempt. */
const RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
const JITTER = 0.1;
export const FAILING_DISABLE_MS = 24 * 3_600_000;
/** The usage meter's operation name for deliveries (docs/alerts.md#usage). */
export const DELIVERY_OPERATION = "DELIVER /api/alerts/{id}";

export type Clock = () => Date;

export function retryDelayMs(failedAttempts: number, random: () => number = Math.random): number | null {
  const base = RETRY_SCHEDULE_MS[failedAttempts - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random()));
}

/** The webhook id of a match: derived from the subscription and what matched, so a re-match can never mint a new one. */
function webhookId(subscriptionId: string, sourceKey: string): string {
  return `msg_${createHash("sha256").update(`${subscriptionId}|${sourceKey}`).digest("base64url").slice(0, 27)}`;
}

interface DeliveryView {
  id: string;
  event_type: string;
  created_at: string;
  status: DeliveryStatus;
  attempts: number;
  last_attempt_at: string | null;
  last_status_code: number | null;
  next_attempt_at: string | null;
}

function deliveryView(d: AlertDelivery): DeliveryView {
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
function webhookBody(eventType: string, at: Date, data: Record<string, unknown>): string {
  return JSON.stringify({ type: eventType, timestamp: at.toISOString(), data });
}

export interface NewDelivery {
  subscriptionId: string;
  sourceKey: string;
  eventType: string;
  data: Record<string, unknown>;
  storedAt: Date;
}

const ENQUEUE_CHUNK = 500;

/**
 * Writes matches (idempotent: a row already written for the same subscription and source is kept as it is), one
 * statement per ENQUEUE_CHUNK rows: the matcher writes a round's matches inside its transaction, and on the embedded
 * database each statement costs milliseconds. Returns how many rows were new.
 */
export async function enqueue(db: Pick<Db, "$executeRawUnsafe">, rows: NewDelivery[], now: Date): Promise<number> {
  let written = 0;
  for (let i = 0; i < rows.length; i += ENQUEUE_CHUNK) {
    const chunk = rows.slice(i, i + ENQUEUE_CHUNK);
    written += await db.$executeRawUnsafe(
      `INSERT INTO alert_deliveries (id, subscription_id, source_key, event_type, body, stored_at, created_at, next_attempt_at)
       SELECT id, subscription_id, source_key, event_type, body, stored_at::timestamptz, $7::timestamptz, $7::timestamptz
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
         AS t(id, subscription_id, source_key, event_type, body, stored_at)
       ON CONFLICT (subscription_id, source_key) DO NOTHING`,
      chunk.map((r) => webhookId(r.subscriptionId, r.sourceKey)),
      chunk.map((r) => r.subscriptionId),
      chunk.map((r) => r.sourceKey),
      chunk.map((r) => r.eventType),
      chunk.map((r) => webhookBody(r.eventType, now, r.data)),
      chunk.map((r) => r.storedAt.toISOString()),
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
