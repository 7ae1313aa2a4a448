// API keys: `pmk_` + 40 random base62 characters. Only the SHA-256 hash is stored, plus a short display prefix so an
// operator can tell keys apart in listings. Lookups are cached per process for KEY_CACHE_TTL_S (≤ 60 s), which bounds
// how late a revocation takes effect.
import { createHash, randomBytes } from "node:crypto";
import { processCache } from "@/lib/cache/lru";
import { env } from "@/lib/env";
import type { Db } from "@/lib/db/client";
import type { ApiKey } from "@/lib/generated/prisma/client";
import type { Tier } from "./tiers";

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const API_KEY_PREFIX = "pmk_";
const KEY_BODY_LENGTH = 40;
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const API_KEY_PATTERN = /^pmk_[0-9A-Za-z]{32,64}$/;

export function generateApiKey(): string {
  let body = "";
  while (body.length < KEY_BODY_LENGTH) {
    for (const byte of randomBytes(64)) {
      // Rejection sampling keeps every base62 character equally likely (248 = 4 × 62).
      if (byte < 248 && body.length < KEY_BODY_LENGTH) body += BASE62[byte % 62];
    }
  }
  return API_KEY_PREFIX + body;
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}

interface NewKeyInput {
  tier: Tier;
  owner: string;
  useCase?: string;
  expectedVolume?: string;
  /** When the key stops working (401 `key_expired`); none by default. */
  expiresAt?: Date | null;
}

/** Creates a key and returns the plaintext once; it is never stored or shown again. */
export async function createApiKey(db: Db, input: NewKeyInput): Promise<{ key: string; record: ApiKey }> {
  for (let attempt = 0; ; attempt++) {
    const key = generateApiKey();
    try {
      const record = await db.apiKey.create({
        data: {
          hashedKey: hashApiKey(key),
          prefix: displayPrefix(key),
          tier: input.tier,
          owner: input.owner,
          useCase: input.useCase,
          expectedVolume: input.expectedVolume,
          expiresAt: input.expiresAt ?? null,
        },
      });
      return { key, record };
    } catch (error) {
      // A display-prefix collision (1 in 62^8) is retried with a fresh key.
      if (attempt < 3 && /Unique constraint|P2002/.test(String(error))) continue;
      throw error;
    }
  }
}

export async function listApiKeys(db: Db): Promise<ApiKey[]> {
  return db.apiKey.findMany({ orderBy: { createdAt: "asc" } });
}

/** A key by display prefix (`pmk_AbCd1234`) or id, or null. */
export function findApiKey(db: Db, prefixOrId: string): Promise<ApiKey | null> {
  const isUuid = UUID_PATTERN.test(prefixOrId);
  return db.apiKey.findFirst({ where: isUuid ? { id: prefixOrId } : { prefix: prefixOrId } });
}

/** Revokes by display prefix (`pmk_AbCd1234`) or id. Returns the revoked record, or null if none matched. */
export async function revokeApiKey(db: Db, prefixOrId: string): Promise<ApiKey | null> {
  const existing = await findApiKey(db, prefixOrId);
  if (!existing) return null;
  if (existing.status === "revoked") return existing;
  return db.apiKey.update({ where: { id: existing.id }, data: { status: "revoked", revokedAt: new Date() } });
}

export interface KeyIdentity {
  id: string;
  tier: Tier;
  status: "active" | "revoked";
  /** Unix ms; null when the key never expires. */
  expiresAt: number | null;
  /** Unix ms of the rotation, and of the end of its grace period; null when never rotated. */
  rotatedAt: number | null;
  graceEndsAt: number | null;
  /** The key that replaced this one by rotation (null when never rotated). */
  replacedById: string | null;
}

/** Lookups kept per cache (known keys, unknown keys), least recently used out first. */
export const MAX_CACHE_ENTRIES = 10_000;
/** Last use is written at most this often per key. */
const TOUCH_EVERY_MS = 60_000;

type Lookup = { identity: KeyIdentity | null };
// Unknown keys are cached too, so guessing cannot hammer the database, but apart from real keys: a flood of random
// keys can only evict other random keys, never turn every real key's next request into a database lookup at once.
const known = processCache<Lookup>("api-keys:known", { max: MAX_CACHE_ENTRIES });
const unknown = processCache<Lookup>("api-keys:unknown", { max: MAX_CACHE_ENTRIES });
// Key ids whose last use was written in the past minute; bounded like the lookups (an id evicted early is only
// written again sooner).
const touched = processCache<{ at: number }>("api-keys:touched", { max: MAX_CACHE_ENTRIES, ttlMs: TOUCH_EVERY_MS });

async function cached(cacheKey: string, load: () => Promise<KeyIdentity | null>): Promise<KeyIdentity | null> {
  const hit = known.get(cacheKey) ?? unknown.get(cacheKey);
  if (hit) return hit.identity;
  const identity = await load();
  known.delete(cacheKey);
  unknown.delete(cacheKey);
  // Read per lookup; 0 turns the cache off (lru-cache would read a TTL of 0 as "never lapses").
  const ttl = env.KEY_CACHE_TTL_S * 1000;
  if (ttl > 0) (identity ? known : unknown).set(cacheKey, { identity }, { ttl });
  return identity;
}

const IDENTITY_FIELDS = {
  id: true,
  tier: true,
  status: true,
  expiresAt: true,
  rotatedAt: true,
  graceEndsAt: true,
  replacedById: true,
} as const;
type IdentityRow = Pick<ApiKey, keyof typeof IDENTITY_FIELDS>;

const toIdentity = (k: IdentityRow | null): KeyIdentity | null =>
  k
    ? {
        id: k.id,
        tier: k.tier,
        status: k.status,
        expiresAt: k.expiresAt?.getTime() ?? null,
        rotatedAt: k.rotatedAt?.getTime() ?? null,
        graceEndsAt: k.graceEndsAt?.getTime() ?? null,
        replacedById: k.replacedById,
      }
    : null;

export function findKeyByPlaintext(db: Db, key: string): Promise<KeyIdentity | null> {
  const hashed = hashApiKey(key);
  return cached(`h:${hashed}`, async () =>
    toIdentity(await db.apiKey.findUnique({ where: { hashedKey: hashed }, select: IDENTITY_FIELDS })),
  );
}

export function findKeyById(db: Db, id: string): Promise<KeyIdentity | null> {
  if (!UUID_PATTERN.test(id)) return Promise.resolve(null);
  return cached(`i:${id}`, async () => toIdentity(await db.apiKey.findUnique({ where: { id }, select: IDENTITY_FIELDS })));
}

/** Records last use at most once a minute per key, off the request path. */
export function touchLastUsed(db: Db, id: string): void {
  if (touched.has(id)) return;
  const now = Date.now();
  touched.set(id, { at: now });
  db.apiKey.update({ where: { id }, data: { lastUsedAt: new Date(now) } }).catch(() => touched.delete(id));
}

export function clearKeyCache(): void {
  known.clear();
  unknown.clear();
}
