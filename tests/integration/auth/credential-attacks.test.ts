// Authentication attacks on the real server: forged algorithms, claims and sizes. None may get data, none may 5xx.
import { readFileSync } from "node:fs";
import path from "node:path";
import { SignJWT, UnsecuredJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JWT_AUDIENCE, JWT_ISSUER, signAccessToken } from "@/lib/auth/jwt";
import { createTestKey, revokeTestKey } from "../../helpers/keys";
import { untilRefused } from "../../helpers/poll";
import { type RunningApp, startApp } from "../../helpers/server";

let app: RunningApp;
let key: string;
let keyId: string;
let secret: Uint8Array;

beforeAll(async () => {
  app = await startApp({ env: { KEY_CACHE_TTL_S: "1", RATE_LIMIT_ANONYMOUS_PER_IP: "100000" } });
  key = await createTestKey(app, "pro");
  const { token } = await (
    await fetch(`${app.url}/api/auth/token`, { method: "POST", headers: { authorization: `Bearer ${key}` } })
  ).json();
  keyId = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()).sub;
  secret = new TextEncoder().encode(JSON.parse(readFileSync(path.join(app.dataDir, "secrets.json"), "utf8")).JWT_SECRET);
});
afterAll(() => app?.stop());

const target = () => `${app.url}/api/predmkt/stats`;

async function refused(res: Response, codes: string[] = ["invalid_token"]) {
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  if (res.status !== 431) {
    const body = await res.json();
    expect(codes).toContain(body.code);
  }
}

const claims = (extra: Record<string, unknown> = {}) =>
  new SignJWT({ tier: "enterprise", ...extra }).setIssuer(JWT_ISSUER).setAudience(JWT_AUDIENCE).setSubject(keyId).setJti("attack");

describe("token attacks", () => {
  it("alg: none", async () => {
    const token = new UnsecuredJWT({ tier: "enterprise" })
      .setIssuer(JWT_ISSUER)
      .setAudience(JWT_AUDIENCE)
      .setSubject(keyId)
      .setJti("n")
      .setExpirationTime("1h")
      .encode();
    await refused(await fetch(`${target()}?token=${token}`));
  });

  it("algorithm confusion (HS512, HS384 with the same secret)", async () => {
    for (const alg of ["HS384", "HS512"]) {
      const token = await claims().setExpirationTime("1h").setProtectedHeader({ alg }).sign(secret);
      await refused(await fetch(`${target()}?token=${token}`));
    }
  });

  it("expired, not yet valid, wrong audience, tampered payload", async () => {
    const expired = await signAccessToken(keyId, "pro", 60, Date.now() - 7_200_000, new TextDecoder().decode(secret));
    await refused(await fetch(`${target()}?token=${expired.token}`), ["token_expired"]);
    const future = await claims().setNotBefore("10 min").setExpirationTime("1h").setProtectedHeader({ alg: "HS256" }).sign(secret);
    await refused(await fetch(`${target()}?token=${future}`));
    const audience = await new SignJWT({ tier: "pro" })
      .setIssuer(JWT_ISSUER)
      .setAudience("other")
      .setSubject(keyId)
      .setJti("a")
      .setExpirationTime("1h")
      .setProtectedHeader({ alg: "HS256" })
      .sign(secret);
    await refused(await fetch(`${target()}?token=${audience}`));
    const good = await signAccessToken(keyId, "starter", 600, Date.now(), new TextDecoder().decode(secret));
    const [h, , s] = good.token.split(".");
    const payload = Buffer.from(
      JSON.stringify({ tier: "enterprise", sub: keyId, iss: JWT_ISSUER, aud: JWT_AUDIENCE, jti: "t", exp: 9_999_999_999 }),
    ).toString("base64url");
    await refused(await fetch(`${target()}?token=${h}.${payload}.${s}`));
  });

  it("a correctly signed token for a key id that does not exist", async () => {
    const token = await new SignJWT({ tier: "enterprise" })
      .setIssuer(JWT_ISSUER)
      .setAudience(JWT_AUDIENCE)
      .setSubject("00000000-0000-4000-8000-00000000dead")
      .setJti("g")
      .setExpirationTime("1h")
      .setProtectedHeader({ alg: "HS256" })
      .sign(secret);
    await refused(await fetch(`${target()}?token=${token}`));
  });

  it("the token of a revoked key", async () => {
    const victim = await createTestKey(app, "pro");
    const { token } = await (
      await fetch(`${app.url}/api/auth/token`, { method: "POST", headers: { authorization: `Bearer ${victim}` } })
    ).json();
    await revokeTestKey(app, victim);
    // KEY_CACHE_TTL_S=1 in this server: refused within that second (and a margin).
    await refused(await untilRefused(() => fetch(`${target()}?token=${token}`)), ["revoked_api_key"]);
  });
});

describe("key and header attacks", () => {
  it("a 64 kB Authorization header is refused without a 5xx", async () => {
    const res = await fetch(target(), { headers: { authorization: `Bearer pmk_${"A".repeat(64 * 1024)}` } }).catch((e) => e);
    if (res instanceof Response) await refused(res, ["invalid_api_key"]);
    // Node may also drop the connection for an oversized header block; either way no data and no 5xx.
  });

  it("keys with whitespace, wrong prefix, wrong case or wrong length are invalid", async () => {
    for (const value of [
      ` ${key}`,
      `${key} `,
      key.replace("pmk_", "pk_"),
      key.toUpperCase(),
      key.slice(0, -5),
      `${key}x`,
      "pmk_",
      "Bearer",
      key.replace("pmk_", "PMK_"),
    ]) {
      const res = await fetch(`${target()}?api_key=${encodeURIComponent(value)}`);
      await refused(res, ["invalid_api_key"]);
    }
    const tab = await fetch(target(), { headers: { authorization: `Bearer\t${key}` } });
    await refused(tab, ["invalid_api_key"]);
  });

  it("oversized and malformed bodies on the token exchange", async () => {
    const huge = await fetch(`${app.url}/api/auth/token`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: "x".repeat(1024 * 1024),
    });
    expect(huge.status).toBe(413);
    expect((await huge.json()).code).toBe("payload_too_large");
    for (const body of [
      "{",
      "[]",
      "null",
      '"str"',
      '{"ttl_seconds": "1e9"}',
      '{"ttl_seconds": -5}',
      '{"ttl_seconds": {"$gt": 0}}',
      "\u0000\u0001",
    ]) {
      const res = await fetch(`${app.url}/api/auth/token`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body,
      });
      expect(res.status, body).toBe(400);
      expect((await res.json()).code).toBe("invalid_parameter");
    }
  });
});
