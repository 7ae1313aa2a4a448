import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
  revokeApiKey,
} from "@/lib/auth/api-key";
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
