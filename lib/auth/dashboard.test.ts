// The dashboard's internal key and the tokens minted for browsers, plus the same-origin route that serves them.
import { PEER_HEADER, PEER_PROOF_HEADER } from "./client-address";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clearKeyCache, revokeApiKey } from "@/lib/auth/api-key";
import { closeDb, type Db, getDb } from "@/lib/db/client";
import { authenticate } from "./authenticate";
import { DASHBOARD_KEY_OWNER, mintDashboardToken, resetDashboardIdentity } from "./dashboard";
import { verifyAccessToken } from "./jwt";
import { inOneWindow } from "@/tests/helpers/rate-window";

let db: Db;
beforeAll(async () => {
  db = await getDb();
});
afterAll(closeDb);

describe("dashboard credentials", () => {
  it("creates one enterprise key on first use, even for concurrent callers, and reuses it", async () => {
    // First use: no dashboard key yet, whatever this file's other tests created (they run in any order).
    await db.apiKey.deleteMany({ where: { owner: DASHBOARD_KEY_OWNER } });
    clearKeyCache();
    resetDashboardIdentity();
    const tokens = await Promise.all([
      mintDashboardToken("198.51.100.9"),
      mintDashboardToken("198.51.100.9"),
      mintDashboardToken("198.51.100.9"),
    ]);
    const keys = await db.apiKey.findMany({ where: { owner: DASHBOARD_KEY_OWNER } });
    expect(keys).toHaveLength(1);
    expect(keys[0].tier).toBe("enterprise");
    for (const t of tokens) {
      const verified = await verifyAccessToken(t.token);
      expect(verified).toMatchObject({ keyId: keys[0].id, tier: "enterprise" });
      expect(t).toMatchObject({ token_type: "Bearer", expires_in: 300 });
      expect(Date.parse(t.expires_at) - Date.now()).toBeGreaterThan(290_000);
    }
    resetDashboardIdentity();
    await mintDashboardToken("198.51.100.9");
    expect(await db.apiKey.count({ where: { owner: DASHBOARD_KEY_OWNER } })).toBe(1);
  });

  it("tokens pass the gateway's authentication as the dashboard key", async () => {
    const { token } = await mintDashboardToken("198.51.100.9");
    const authenticated = await authenticate({ kind: "token", value: token });
    expect(authenticated).toMatchObject({ client: { tier: "enterprise", via: "token" }, dashboard: true });
  });

  it("after the key is revoked its tokens die and a fresh key is provisioned", async () => {
    const before = await mintDashboardToken("198.51.100.9");
    const key = await db.apiKey.findFirstOrThrow({ where: { owner: DASHBOARD_KEY_OWNER, status: "active" } });
    await revokeApiKey(db, key.id);
    clearKeyCache();
    await expect(authenticate({ kind: "token", value: before.token })).rejects.toMatchObject({ code: "revoked_api_key" });
    resetDashboardIdentity();
    const after = await mintDashboardToken("198.51.100.9");
    const { client, dashboard } = await authenticate({ kind: "token", value: after.token });
    expect(client.keyId).not.toBe(key.id);
    expect(dashboard).toBe(true);
    expect(await db.apiKey.count({ where: { owner: DASHBOARD_KEY_OWNER, status: "active" } })).toBe(1);
  });
});

describe("GET /api/dashboard/token", () => {
  // As scripts/server.mjs does: the connection's address in the internal header, with this process's proof.
  const proof = "test-peer-proof";
  (globalThis as { __predmktPeerProof?: string }).__predmktPeerProof = proof;
  const call = async (ip: string) => {
    const { GET } = await import("@/app/api/dashboard/token/route");
    const headers = { [PEER_HEADER]: ip, [PEER_PROOF_HEADER]: proof, "x-forwarded-for": "203.0.113.1" };
    return GET(new NextRequest("http://localhost/api/dashboard/token", { headers }), {
      params: Promise.resolve({}),
    });
  };

  it("answers a token with Cache-Control: no-store and no key material", async () => {
    const response = await call("198.51.100.1");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(["expires_at", "expires_in", "token", "token_type"]);
    expect(JSON.stringify(body)).not.toMatch(/pmk_/);
    await expect(verifyAccessToken(body.token)).resolves.toMatchObject({ tier: "enterprise" });
  });

  it("limits tokens per client address with a 429 and Retry-After", async () => {
    const ip = "198.51.100.77";
    // The 61 requests are counted in one limiter window (the clock held), so a minute turning over cannot reset it.
    await inOneWindow(async () => {
      for (let i = 0; i < 60; i++) expect((await call(ip)).status).toBe(200);
      const limited = await call(ip);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect((await limited.json()).code).toBe("rate_limited");
      expect((await call("198.51.100.78")).status).toBe(200);
    });
  });
});
