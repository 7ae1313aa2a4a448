// Whether a key may be used right now, and what its responses must tell the holder about its end. A revoked key, an
// expired one and one rotated out past its grace period are refused with different problem codes, so the holder knows
// whether to ask for a new key, renew, or switch to the successor they were given (README "API keys").
import { ApiError } from "@/lib/api/errors";
import type { KeyIdentity } from "./api-key";

/** Refuses a key that may no longer be used; `subject` names the credential in the message ("API key", "token's API key"). */
export function assertKeyUsable(key: KeyIdentity, subject: string, now = Date.now()): void {
  if (key.status !== "active") throw new ApiError("revoked_api_key", `The ${subject} has been revoked.`);
  if (key.graceEndsAt !== null && key.graceEndsAt <= now) {
    throw new ApiError(
      "key_rotated",
      `The ${subject} was rotated and its grace period ended at ${new Date(key.graceEndsAt).toISOString()}; use the key that replaced it.`,
    );
  }
  if (key.expiresAt !== null && key.expiresAt <= now) {
    throw new ApiError(
      "key_expired",
      `The ${subject} expired at ${new Date(key.expiresAt).toISOString()}; ask the operator to renew it (see /api-access).`,
    );
  }
}

/**
 * Why a key may no longer be used at `now`, or null while it may: the rules of assertKeyUsable, for closing what a key
 * holds open (its streams) rather than refusing a request.
 */
export function keyEndReason(
  key: { status: string; expiresAt: Date | null; graceEndsAt: Date | null },
  now = Date.now(),
): "revoked" | "rotated" | "expired" | null {
  if (key.status !== "active") return "revoked";
  if (key.graceEndsAt !== null && key.graceEndsAt.getTime() <= now) return "rotated";
  if (key.expiresAt !== null && key.expiresAt.getTime() <= now) return "expired";
  return null;
}

/**
 * Headers announcing the key's end: `Deprecation` (RFC 9745, the rotation time as `@<unix seconds>`) while a rotated
 * key is in its grace period, and `Sunset` (RFC 8594, an HTTP date) naming when it stops — the grace end, or the
 * expiry of a key that carries one.
 */
export function keyLifecycleHeaders(key: KeyIdentity): Record<string, string> {
  const headers: Record<string, string> = {};
  if (key.graceEndsAt !== null) {
    headers.Deprecation = `@${Math.floor((key.rotatedAt ?? key.graceEndsAt) / 1000)}`;
  }
  const sunset = minOf(key.graceEndsAt, key.expiresAt);
  if (sunset !== null) headers.Sunset = new Date(sunset).toUTCString();
  return headers;
}

function minOf(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.min(a, b);
}
