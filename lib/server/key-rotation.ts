// Key rotation as every process runs it (the key CLI today): the keys service's rotation (lib/keys/rotation.ts) with
// the listeners that move what other services hold per key to the successor, in the rotation's transaction. Wired
// here, in the composition root, so that lib/keys imports no service above it (docs/architecture.md "Layers").
import { moveSubscriptionsToSuccessor } from "@/lib/alerts/subscriptions";
import type { Db } from "@/lib/db/client";
import { DEFAULT_ROTATION_GRACE_MS, type Rotation, rotateApiKey, type RotationListener } from "@/lib/keys/rotation";

export const rotationListeners: readonly RotationListener[] = [
  // Alert subscriptions belong to the key in charge: the successor (docs/alerts.md#subscriptions).
  (tx, { oldKeyId, newKeyId }) => moveSubscriptionsToSuccessor(tx, oldKeyId, newKeyId),
];

export function rotateKey(db: Db, prefixOrId: string, graceMs = DEFAULT_ROTATION_GRACE_MS, now = new Date()): Promise<Rotation> {
  return rotateApiKey(db, prefixOrId, graceMs, now, rotationListeners);
}
