// A rotated key and its successor share one allowance during the grace period (through the real gateway, proxy.ts).
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-key";
import { tierLimit } from "@/lib/auth/tiers";
import { closeDb, type Db, getDb } from "@/lib/db/client";
import { proxy } from "@/proxy";
import { inOneWindow } from "@/tests/helpers/rate-window";
import { rotateApiKey } from "./rotation";

let db: Db;
beforeAll(async () => {
  db = await getDb();
});
afterAll(closeDb);

describe("rotation grace", () => {
  it("old and new key together get one key's allowance, not two", async () => {
    const { key: oldKey, record } = await createApiKey(db, { tier: "starter", owner: "rotation-test" });
    const { key: newKey } = await rotateApiKey(db, record.id);
    const limit = tierLimit("starter");
    let served = 0;
    await inOneWindow(async () => {
      for (let i = 0; i < limit + 20; i++) {
        const key = i % 2 === 0 ? oldKey : newKey;
        const response = await proxy(
          new NextRequest("http://localhost/api/predmkt/stats", { headers: { authorization: `Bearer ${key}` } }),
        );
        if (response.status === 200) served++;
        else expect(response.status).toBe(429);
      }
    });
    expect(served).toBe(limit);
  });
});
