// Short-lived access tokens for browsers and widgets: HS256 with the algorithm pinned, so `alg: none` and
// algorithm-confusion tokens are rejected by jose before any claim is read.
import { randomUUID } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { ApiError } from "@/lib/api/errors";
import { env } from "@/lib/env";
import { TIERS, type Tier } from "./tiers";

export const JWT_ISSUER = "predmkt-api";
export const JWT_AUDIENCE = "predmkt-api";
const ALGORITHM = "HS256";

function secretKey(secret = env.JWT_SECRET): Uint8Array {
  return new TextEncoder().encode(secret);
}

export interface AccessToken {
  token: string;
  expiresAt: Date;
  expiresIn: number;
}

export async function signAccessToken(keyId: string, tier: Tier, ttlSeconds: number, now = Date.now(), secret?: string): Promise<AccessToken> {
  const issuedAt = Math.floor(now / 1000);
  const expiresAtS = issuedAt + ttlSeconds;
  const token = await new SignJWT({ tier })
    .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
    .setIssuer(JWT_ISSUER)
    .setAudience(JWT_AUDIENCE)
    .setSubject(keyId)
    .setJti(randomUUID())
    .setIssuedAt(issuedAt)
    .setNotBefore(issuedAt)
    .setExpirationTime(expiresAtS)
    .sign(secretKey(secret));
  return { token, expiresAt: new Date(expiresAtS * 1000), expiresIn: ttlSeconds };
}

export interface VerifiedToken {
  keyId: string;
  tier: Tier;
  jti: string;
}

export async function verifyAccessToken(token: string, secret?: string): Promise<VerifiedToken> {
  try {
    const { payload } = await jwtVerify(token, secretKey(secret), {
      algorithms: [ALGORITHM],
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      requiredClaims: ["sub", "exp", "jti"],
    });
    const tier = payload.tier;
    if (typeof payload.sub !== "string" || typeof payload.jti !== "string" || !TIERS.includes(tier as Tier)) {
      throw new ApiError("invalid_token", "The token's claims are malformed.");
    }
    return { keyId: payload.sub, tier: tier as Tier, jti: payload.jti };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof joseErrors.JWTExpired) throw new ApiError("token_expired", "The token has expired; exchange your API key for a new one.");
    throw new ApiError("invalid_token", "The token is invalid.");
  }
}

/** Cheap shape test used to tell a JWT from an API key in a Bearer header. */
export function looksLikeJwt(value: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/.test(value);
}
