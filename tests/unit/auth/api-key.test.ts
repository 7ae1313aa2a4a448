import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  API_KEY_PATTERN,
  clearKeyCache,
  createApiKey,
  displayPrefix,
  findKeyById,
  findKeyByPlaintext,
  generateApiKey,
  hashApiKey,
  listApiKeys,
  MAX_CACHE_ENTRIES,
  revokeApiKey,
  touchLastUsed,
} from "@/lib/auth/api-key";
import { env } from "@/lib/env";
import { closeDb, type Db, getDb } from "@/lib/db/client";

let db: Db;
beforeAll(async () => {
  db = await getDb();
});
afterAll(closeDb);

describe("key format and hashing", () => {
  it("generates pmk_ + 40 base62 characters, all different", () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey));
    expect(keys.size).toBe(200);
    for (const key of keys) expect(key).toMatch(/^pmk_[0-9A-Za-z]{40}$/);
    expect(API_KEY_PATTERN.test([...keys][0])).toBe(true);
  });

  it("hashes with SHA-256 (hex) deterministically and shows only a short prefix", () => {
    const key = "pmk_" + "a".repeat(40);
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).toBe(hashApiKey(key));
    expect(hashApiKey(key)).not.toBe(hashApiKey(key + "b"));
    expect(displayPrefix(key)).toBe("pmk_aaaaaaaa");
  });
});

describe("key storage and lookup", () => {
  it("stores only the hash and the prefix, never the key", async () => {
    const { key, record } = await createApiKey(db, { tier: "pro", owner: "Acme", useCase: "dashboards", expectedVolume: "10k/day" });
    expect(record.hashedKey).toBe(hashApiKey(key));
    expect(record.prefix).toBe(key.slice(0, 12));
    const rows = await db.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM api_keys WHERE id = '${record.id}'`);
    expect(JSON.stringify(rows)).not.toContain(key);
    expect(rows[0].use_case).toBe("dashboards");
    expect(rows[0].expected_volume).toBe("10k/day");
  });

  it("finds a key by its plaintext and by id; unknown keys resolve to null", async () => {
    const { key, record } = await createApiKey(db, { tier: "starter", owner: "Lookup" });
    clearKeyCache();
    const identity = {
      id: record.id,
      tier: "starter",
      status: "active",
      expiresAt: null,
      rotatedAt: null,
      graceEndsAt: null,
      replacedById: null,
    };
    expect(await findKeyByPlaintext(db, key)).toEqual(identity);
    expect(await findKeyById(db, record.id)).toEqual(identity);
    expect(await findKeyByPlaintext(db, generateApiKey())).toBeNull();
    expect(await findKeyById(db, "not-a-uuid")).toBeNull();
  });

  it("revokes by prefix or id and the lookup sees it once the cache entry expires", async () => {
    const a = await createApiKey(db, { tier: "enterprise", owner: "Revoke A" });
    const b = await createApiKey(db, { tier: "enterprise", owner: "Revoke B" });
    clearKeyCache();
    expect((await findKeyByPlaintext(db, a.key))?.status).toBe("active");
    expect((await revokeApiKey(db, a.record.prefix))?.status).toBe("revoked");
    expect((await revokeApiKey(db, b.record.id))?.revokedAt).toBeInstanceOf(Date);
    expect(await revokeApiKey(db, "pmk_doesnotx")).toBeNull();
    clearKeyCache();
    expect((await findKeyByPlaintext(db, a.key))?.status).toBe("revoked");
    expect((await findKeyById(db, b.record.id))?.status).toBe("revoked");
    const listed = await listApiKeys(db);
    expect(listed.map((k) => k.owner)).toEqual(expect.arrayContaining(["Revoke A", "Revoke B"]));
  });
});

describe("the key lookup cache", () => {
  // A stand-in database that counts its reads: one known key, every other key unknown.
  const KNOWN = generateApiKey();
  const identity = {
    id: "00000000-0000-4000-8000-000000000001",
    tier: "pro",
    status: "active",
    expiresAt: null,
    rotatedAt: null,
    graceEndsAt: null,
    replacedById: null,
  } as const;
  function countingDb() {
    const reads = new Map<string, number>();
    const updates: string[] = [];
    const fake = {
      apiKey: {
        findUnique: async ({ where }: { where: { hashedKey?: string; id?: string } }) => {
          const at = where.hashedKey ?? where.id!;
          reads.set(at, (reads.get(at) ?? 0) + 1);
          return where.hashedKey === hashApiKey(KNOWN) ? identity : null;
        },
        update: async ({ where }: { where: { id: string } }) => {
          updates.push(where.id);
          return {};
        },
      },
    };
    return { db: fake as unknown as Db, reads, updates };
  }
  afterEach(() => vi.useRealTimers());

  it("holds a lookup for KEY_CACHE_TTL_S, then reads the database again", async () => {
    clearKeyCache();
    vi.useFakeTimers({ toFake: ["Date"] });
    const { db: fake, reads } = countingDb();
    const unknownKey = generateApiKey();
    await findKeyByPlaintext(fake, KNOWN);
    await findKeyByPlaintext(fake, unknownKey);
    vi.setSystemTime(Date.now() + env.KEY_CACHE_TTL_S * 1000 - 1);
    expect(await findKeyByPlaintext(fake, KNOWN)).toEqual(identity);
    expect(await findKeyByPlaintext(fake, unknownKey)).toBeNull();
    expect([reads.get(hashApiKey(KNOWN)), reads.get(hashApiKey(unknownKey))]).toEqual([1, 1]);
    vi.setSystemTime(Date.now() + 2);
    await findKeyByPlaintext(fake, KNOWN);
    await findKeyByPlaintext(fake, unknownKey);
    expect([reads.get(hashApiKey(KNOWN)), reads.get(hashApiKey(unknownKey))]).toEqual([2, 2]);
  });

  it("keeps MAX_CACHE_ENTRIES unknown keys apart from known ones: a flood of random keys evicts only random keys", async () => {
    clearKeyCache();
    const { db: fake, reads } = countingDb();
    await findKeyByPlaintext(fake, KNOWN);
    const flood = Array.from({ length: MAX_CACHE_ENTRIES + 1 }, generateApiKey);
    for (const key of flood) await findKeyByPlaintext(fake, key);
    expect(await findKeyByPlaintext(fake, KNOWN)).toEqual(identity);
    expect(reads.get(hashApiKey(KNOWN))).toBe(1);
    await findKeyByPlaintext(fake, flood[0]); // the oldest random key was evicted
    await findKeyByPlaintext(fake, flood.at(-1)!); // the newest was not
    expect([reads.get(hashApiKey(flood[0])), reads.get(hashApiKey(flood.at(-1)!))]).toEqual([2, 1]);
  });

  it("writes a key's last use at most once a minute", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { db: fake, updates } = countingDb();
    const id = crypto.randomUUID();
    touchLastUsed(fake, id);
    vi.setSystemTime(Date.now() + 59_999);
    touchLastUsed(fake, id);
    expect(updates).toEqual([id]);
    vi.setSystemTime(Date.now() + 2);
    touchLastUsed(fake, id);
    expect(updates).toEqual([id, id]);
  });
});
