// Short-lived access tokens for browsers and widgets: HS256 with the algorithm pinned, so `alg: none` and
// algorithm-confusion tokens are rejected by jose before any claim is read.
import { randomUUID } from "node:crypto";
import { decodeJwt, errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { ApiError } from "@/lib/api/errors";
import { env } from "@/lib/env";
import { TIERS, type Tier } from "./tiers";

export const JWT_ISSUER = "predmkt-api";
export const JWT_AUDIENCE = "predmkt-api";
const ALGORITHM = "HS256";

function secretKey(secret = env.JWT_SECRET): Uint8Array {
  return new TextEncoder().encode(secret);
}

interface AccessToken {
  token: string;
  expiresAt: Date;
  expiresIn: number;
}

/** An access token in the OAuth token-response shape both token routes answer with. */
export function tokenResponse({ token, expiresAt, expiresIn }: AccessToken) {
  return { token, token_type: "Bearer" as const, expires_in: expiresIn, expires_at: expiresAt.toISOString() };
}

/**
 * `scope: "dashboard"` marks tokens minted for the public dashboard's browsers: they carry the minting client's address
 * (`addr`, its budget key) and the gateway serves them only from that address, only on what the pages use
 * (lib/auth/dashboard-scope.ts, SECURITY.md "Dashboard tokens").
 */
type TokenScope = "api" | "dashboard";

export async function signAccessToken(
  keyId: string,
  tier: Tier,
  ttlSeconds: number,
  now = Date.now(),
  secret?: string,
  scope: TokenScope = "api",
  address?: string,
): Promise<AccessToken> {
  const issuedAt = Math.floor(now / 1000);
  const expiresAtS = issuedAt + ttlSeconds;
  const token = await new SignJWT({ tier, ...(scope === "api" ? {} : { scope }), ...(address === undefined ? {} : { addr: address }) })
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

interface VerifiedToken {
  keyId: string;
  tier: Tier;
  jti: string;
  scope: TokenScope;
  /** The minting client's address (budget key); dashboard tokens only. */
  address: string | null;
}

export async function verifyAccessToken(token: string, secret?: string): Promise<VerifiedToken> {
  try {
    const { payload } = await jwtVerify(token, secretKey(secret), {
      algorithms: [ALGORITHM],
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      requiredClaims: ["sub", "exp", "jti"],
      // Instances' clocks differ by a little: a token minted on one must not be "not yet valid" on another.
      clockTolerance: 5,
    });
    const tier = payload.tier;
    if (typeof payload.sub !== "string" || typeof payload.jti !== "string" || !TIERS.includes(tier as Tier)) {
      throw new ApiError("invalid_token", "The token's claims are malformed.");
    }
    const scope: TokenScope = payload.scope === "dashboard" ? "dashboard" : "api";
    const address = typeof payload.addr === "string" ? payload.addr : null;
    // A dashboard token without its address would be usable from anywhere: refused as malformed.
    if (scope === "dashboard" && address === null) throw new ApiError("invalid_token", "The token's claims are malformed.");
    return { keyId: payload.sub, tier: tier as Tier, jti: payload.jti, scope, address };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof joseErrors.JWTExpired)
      throw new ApiError("token_expired", "The token has expired; exchange your API key for a new one.");
    throw new ApiError("invalid_token", "The token is invalid.");
  }
}

/**
 * When a token the gateway already verified stops being valid. Read without verifying again: used only to end
 * long-lived answers (a stream) when their credential expires, never to admit a request.
 */
export function verifiedTokenExpiry(token: string): Date | null {
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === "number" ? new Date(exp * 1000) : null;
  } catch {
    return null;
  }
}

/** The scope of a token the gateway already verified (read without verifying again, like verifiedTokenExpiry). */
export function verifiedTokenScope(token: string): TokenScope {
  try {
    return decodeJwt(token).scope === "dashboard" ? "dashboard" : "api";
  } catch {
    return "api";
  }
}

/** Cheap shape test used to tell a JWT from an API key in a Bearer header. */
export function looksLikeJwt(value: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/.test(value);
}
