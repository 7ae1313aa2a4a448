// Key rotation without downtime: the successor is issued at once with the same tier, owner, use case and expiry, and
// the old key keeps working until the grace period ends (its responses carry Deprecation/Sunset headers, see
// lib/auth/key-lifecycle.ts); after that it answers 401 `key_rotated`. During the grace period both keys spend one
// per-minute window, the successor's (lib/auth/authenticate.ts `allowanceKeyId`): a rotation does not double a key's
// allowance.
//
// What other services hold per key (alert subscriptions) moves to the successor through listeners the composition
// root passes in (lib/server/key-rotation.ts), inside the rotation's one transaction: the successor, the old key's
// mark and every move commit together or not at all (docs/architecture.md "Layers": lib/keys imports no service above it).
import { createApiKey, findApiKey } from "@/lib/auth/api-key";
import type { Db } from "@/lib/db/client";
import type { ApiKey } from "@/lib/generated/prisma/client";

export const DEFAULT_ROTATION_GRACE_MS = 24 * 3_600_000;

export class KeyRotationError extends Error {}

/** Moves what a service holds for the old key to its successor, with the rotation's transaction client. */
export type RotationListener = (tx: Db, rotation: { oldKeyId: string; newKeyId: string }) => Promise<unknown>;

export interface Rotation {
  old: ApiKey;
  key: string;
  record: ApiKey;
}

export async function rotateApiKey(
  db: Db,
  prefixOrId: string,
  graceMs = DEFAULT_ROTATION_GRACE_MS,
  now = new Date(),
  listeners: readonly RotationListener[] = [],
): Promise<Rotation> {
  const old = await findApiKey(db, prefixOrId);
  if (!old) throw new KeyRotationError(`no key matches '${prefixOrId}'`);
  if (old.status !== "active") throw new KeyRotationError(`key ${old.prefix} is revoked; create a new one instead`);
  if (old.replacedById) throw new KeyRotationError(`key ${old.prefix} was already rotated; rotate its successor instead`);
  if (old.expiresAt && old.expiresAt <= now) throw new KeyRotationError(`key ${old.prefix} has expired; create a new one instead`);
  const graceEndsAt = new Date(now.getTime() + graceMs);
  // One transaction: a crash or a failing listener leaves no successor, no mark and nothing moved.
  const issued = await db.$transaction(
    async (client) => {
      const tx = client as unknown as Db;
      const created = await createApiKey(tx, {
        tier: old.tier,
        owner: old.owner,
        useCase: old.useCase ?? undefined,
        expectedVolume: old.expectedVolume ?? undefined,
        expiresAt: old.expiresAt,
      });
      // Only an unrotated key is marked: two rotations at once leave one successor in charge and the other refused.
      const marked = await tx.apiKey.updateMany({
        where: { id: old.id, replacedById: null },
        data: { replacedById: created.record.id, rotatedAt: now, graceEndsAt },
      });
      if (marked.count !== 1) throw new KeyRotationError(`key ${old.prefix} was rotated by someone else meanwhile`);
      for (const listener of listeners) await listener(tx, { oldKeyId: old.id, newKeyId: created.record.id });
      return created;
    },
    { timeout: 30_000, maxWait: 10_000 },
  );
  return { old: { ...old, replacedById: issued.record.id, rotatedAt: now, graceEndsAt }, ...issued };
}
