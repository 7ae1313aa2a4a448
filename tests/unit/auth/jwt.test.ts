import { base64url, SignJWT, UnsecuredJWT } from "jose";
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/api/errors";
import { JWT_AUDIENCE, JWT_ISSUER, signAccessToken, verifyAccessToken } from "@/lib/auth/jwt";
import { env } from "@/lib/env";

const KEY_ID = "2f6c7a8e-9d41-4a55-9f0b-3b8e1c2d4e5f";
const secret = new TextEncoder().encode(env.JWT_SECRET);

async function expectCode(token: string, code: string) {
  const error = await verifyAccessToken(token).catch((e) => e);
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).code).toBe(code);
  expect((error as ApiError).status).toBe(401);
}

function claims() {
  return new SignJWT({ tier: "pro" }).setIssuer(JWT_ISSUER).setAudience(JWT_AUDIENCE).setSubject(KEY_ID).setJti("j1").setIssuedAt();
}

describe("access tokens", () => {
  it("a valid token verifies to its key and tier", async () => {
    const { token, expiresIn, expiresAt } = await signAccessToken(KEY_ID, "pro", 900);
    expect(expiresIn).toBe(900);
    expect(Math.abs(expiresAt.getTime() - (Date.now() + 900_000))).toBeLessThan(2000);
    const verified = await verifyAccessToken(token);
    expect(verified).toMatchObject({ keyId: KEY_ID, tier: "pro" });
  });

  it("rejects an expired token with token_expired", async () => {
    const { token } = await signAccessToken(KEY_ID, "pro", 60, Date.now() - 3_600_000);
    await expectCode(token, "token_expired");
  });

  it("rejects a token not yet valid", async () => {
    const token = await claims()
      .setNotBefore(Math.floor(Date.now() / 1000) + 600)
      .setExpirationTime("1h")
      .setProtectedHeader({ alg: "HS256" })
      .sign(secret);
    await expectCode(token, "invalid_token");
  });

  it("rejects a token signed with another secret", async () => {
    const { token } = await signAccessToken(KEY_ID, "pro", 900, Date.now(), "another-secret-entirely");
    await expectCode(token, "invalid_token");
  });

  it("rejects alg: none", async () => {
    const token = new UnsecuredJWT({ tier: "pro" })
      .setIssuer(JWT_ISSUER)
      .setAudience(JWT_AUDIENCE)
      .setSubject(KEY_ID)
      .setJti("x")
      .setExpirationTime("1h")
      .encode();
    await expectCode(token, "invalid_token");
  });

  it("rejects another HMAC algorithm and RSA/HS confusion", async () => {
    const hs512 = await claims()
      .setExpirationTime("1h")
      .setProtectedHeader({ alg: "HS512" })
      .sign(new TextEncoder().encode(env.JWT_SECRET.repeat(3)));
    await expectCode(hs512, "invalid_token");
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const rs256 = await claims().setExpirationTime("1h").setProtectedHeader({ alg: "RS256" }).sign(privateKey);
    await expectCode(rs256, "invalid_token");
  });

  it("rejects a wrong audience or issuer", async () => {
    const audience = await new SignJWT({ tier: "pro" })
      .setIssuer(JWT_ISSUER)
      .setAudience("someone-else")
      .setSubject(KEY_ID)
      .setJti("a")
      .setExpirationTime("1h")
      .setProtectedHeader({ alg: "HS256" })
      .sign(secret);
    await expectCode(audience, "invalid_token");
    const issuer = await new SignJWT({ tier: "pro" })
      .setIssuer("evil")
      .setAudience(JWT_AUDIENCE)
      .setSubject(KEY_ID)
      .setJti("b")
      .setExpirationTime("1h")
      .setProtectedHeader({ alg: "HS256" })
      .sign(secret);
    await expectCode(issuer, "invalid_token");
  });

  it("rejects a tampered payload (tier raised after signing)", async () => {
    const { token } = await signAccessToken(KEY_ID, "starter", 900);
    const [header, payload, signature] = token.split(".");
    const claimsObject = JSON.parse(new TextDecoder().decode(base64url.decode(payload)));
    claimsObject.tier = "enterprise";
    const forged = [header, base64url.encode(JSON.stringify(claimsObject)), signature].join(".");
    await expectCode(forged, "invalid_token");
  });

  it("rejects an unknown tier claim even when correctly signed", async () => {
    const token = await new SignJWT({ tier: "platinum" })
      .setIssuer(JWT_ISSUER)
      .setAudience(JWT_AUDIENCE)
      .setSubject(KEY_ID)
      .setJti("c")
      .setExpirationTime("1h")
      .setProtectedHeader({ alg: "HS256" })
      .sign(secret);
    await expectCode(token, "invalid_token");
  });

  it("rejects garbage", async () => {
    await expectCode("not.a.jwt", "invalid_token");
    await expectCode("", "invalid_token");
  });
});
