// Requests for API keys: keys are "issued manually by the operator on request; the requester states the use case
// and the expected request volume" (docs/api-decisions.md#api-keys). The public /api-access page files them; the operator decides with
// `npm run keys -- requests | approve | reject` (README "API keys").
import { randomBytes } from "node:crypto";
import { createApiKey } from "@/lib/auth/api-key";
import type { Tier } from "@/lib/auth/tiers";
import type { Db } from "@/lib/db/client";
import type { ApiKey, KeyRequest } from "@/lib/generated/prisma/client";

export const KEY_REQUEST_REFERENCE_PATTERN = /^kr_[0-9a-f]{16}$/;

interface NewKeyRequest {
  name: string;
  email: string;
  useCase: string;
  requestsPerMinute: number;
  requestsPerDay: number;
  desiredTier: Tier;
}

/** A reference the requester can quote; 64 random bits, so references cannot be enumerated. */
export function newKeyRequestReference(): string {
  return `kr_${randomBytes(8).toString("hex")}`;
}

export async function createKeyRequest(db: Db, input: NewKeyRequest): Promise<KeyRequest> {
  return db.keyRequest.create({ data: { ...input, reference: newKeyRequestReference() } });
}

/** Pending requests oldest first (the operator's queue), or every request newest first with `all`. */
export function listKeyRequests(db: Db, options: { all?: boolean } = {}): Promise<KeyRequest[]> {
  return options.all
    ? db.keyRequest.findMany({ orderBy: { createdAt: "desc" } })
    : db.keyRequest.findMany({ where: { status: "pending" }, orderBy: { createdAt: "asc" } });
}

/** Why a decision was refused: the request does not exist, or it was decided before. */
export class KeyRequestDecisionError extends Error {}

async function pendingRequest(db: Db, reference: string): Promise<KeyRequest> {
  const request = await db.keyRequest.findUnique({ where: { reference } });
  if (!request) throw new KeyRequestDecisionError(`no key request '${reference}'`);
  if (request.status !== "pending") {
    const when = request.decidedAt ? ` on ${request.decidedAt.toISOString()}` : "";
    throw new KeyRequestDecisionError(`key request ${reference} was already ${request.status}${when}`);
  }
  return request;
}

/**
 * Claims a pending request for one decision. The conditional update is the guard: of two operators deciding the same
 * request at once, exactly one changes the row; the other is told it was already decided.
 */
async function claim(db: Db, reference: string, data: { status: "approved" | "rejected"; rejectReason?: string }): Promise<KeyRequest> {
  const request = await pendingRequest(db, reference);
  const claimed = await db.keyRequest.updateMany({
    where: { id: request.id, status: "pending" },
    data: { ...data, decidedAt: new Date() },
  });
  if (claimed.count !== 1) return pendingRequest(db, reference); // throws: someone else decided it in between
  return request;
}

interface Approval {
  request: KeyRequest;
  key: string;
  record: ApiKey;
}

/** Issues the key the request asked for (at the operator's tier) and marks the request approved with the key's id. */
export async function approveKeyRequest(db: Db, reference: string, options: { tier: Tier; expiresAt?: Date | null }): Promise<Approval> {
  const request = await claim(db, reference, { status: "approved" });
  let issued: { key: string; record: ApiKey };
  try {
    issued = await createApiKey(db, {
      tier: options.tier,
      owner: `${request.name} <${request.email}>`,
      useCase: request.useCase,
      expectedVolume: `${request.requestsPerMinute}/min, ${request.requestsPerDay}/day`,
      expiresAt: options.expiresAt ?? null,
    });
  } catch (error) {
    // No key was issued: the request goes back to the queue rather than claiming an approval that never happened.
    await db.keyRequest.update({ where: { id: request.id }, data: { status: "pending", decidedAt: null } });
    throw error;
  }
  const approved = await db.keyRequest.update({ where: { id: request.id }, data: { keyId: issued.record.id } });
  return { request: approved, ...issued };
}

export async function rejectKeyRequest(db: Db, reference: string, reason: string): Promise<KeyRequest> {
  const request = await claim(db, reference, { status: "rejected", rejectReason: reason });
  return { ...request, status: "rejected", rejectReason: reason };
}
