// Key rotation without downtime: the successor is issued at once with the same tier, owner, use case and expiry, and
// the old key keeps working until the grace period ends (its responses carry Deprecation/Sunset headers, see
// lib/auth/key-lifecycle.ts); after that it answers 401 `key_rotated`. During the grace period both keys spend one
// per-minute window, the successor's (lib/auth/authenticate.ts `allowanceKeyId`): a rotation does not double a key's
// allowance.
import { moveSubscriptionsToSuccessor } from "@/lib/alerts/subscriptions";
import { createApiKey, findApiKey } from "@/lib/auth/api-key";
import type { Db } from "@/lib/db/client";
import type { ApiKey } from "@/lib/generated/prisma/client";

export const DEFAULT_ROTATION_GRACE_MS = 24 * 3_600_000;

export class KeyRotationError extends Error {}

export interface Rotation {
  old: ApiKey;
  key: string;
  record: ApiKey;
}

export async function rotateApiKey(db: Db, prefixOrId: string, graceMs = DEFAULT_ROTATION_GRACE_MS, now = new Date()): Promise<Rotation> {
  const old = await findApiKey(db, prefixOrId);
  if (!old) throw new KeyRotationError(`no key matches '${prefixOrId}'`);
  if (old.status !== "active") throw new KeyRotationError(`key ${old.prefix} is revoked; create a new one instead`);
  if (old.replacedById) throw new KeyRotationError(`key ${old.prefix} was already rotated; rotate its successor instead`);
  if (old.expiresAt && old.expiresAt <= now) throw new KeyRotationError(`key ${old.prefix} has expired; create a new one instead`);
  const issued = await createApiKey(db, {
    tier: old.tier,
    owner: old.owner,
    useCase: old.useCase ?? undefined,
    expectedVolume: old.expectedVolume ?? undefined,
    expiresAt: old.expiresAt,
  });
  const graceEndsAt = new Date(now.getTime() + graceMs);
  // Only an unrotated key is marked: two rotations at once leave one successor in charge and the other refused.
  const marked = await db.apiKey.updateMany({
    where: { id: old.id, replacedById: null },
    data: { replacedById: issued.record.id, rotatedAt: now, graceEndsAt },
  });
  if (marked.count !== 1) {
    await db.apiKey.update({ where: { id: issued.record.id }, data: { status: "revoked", revokedAt: new Date() } });
    throw new KeyRotationError(`key ${old.prefix} was rotated by someone else meanwhile`);
  }
  // Alert subscriptions belong to the key in charge: the successor (docs/alerts.md#subscriptions).
  await moveSubscriptionsToSuccessor(db, old.id, issued.record.id);
  return { old: { ...old, replacedById: issued.record.id, rotatedAt: now, graceEndsAt }, ...issued };
}
