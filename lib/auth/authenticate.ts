// Credential handling for the gateway: where credentials come from, and what they resolve to.
import { ApiError } from "@/lib/api/errors";
import { getDb } from "@/lib/db/client";
import { API_KEY_PATTERN, findKeyById, findKeyByPlaintext, touchLastUsed } from "./api-key";
import type { GatewayClient } from "./gateway";
import { looksLikeJwt, verifyAccessToken } from "./jwt";
import { assertKeyUsable, keyLifecycleHeaders } from "./key-lifecycle";

export type Credential = { kind: "api_key"; value: string } | { kind: "token"; value: string };

const MAX_CREDENTIAL_LENGTH = 4096;

/**
 * The Authorization header wins over query parameters. A Bearer value is a JWT when it has the JWT shape, otherwise
 * an API key. `bodyApiKey` is only consulted for the token exchange.
 */
export function extractCredential(headers: Headers, query: URLSearchParams, bodyApiKey?: string): Credential | null {
  const authorization = headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
    if (!match) throw new ApiError("invalid_api_key", "The Authorization header must be 'Bearer <API key or token>'.");
    const value = match[1];
    return looksLikeJwt(value) ? { kind: "token", value } : { kind: "api_key", value };
  }
  const apiKey = query.get("api_key");
  if (apiKey !== null) return { kind: "api_key", value: apiKey };
  const token = query.get("token");
  if (token !== null) return { kind: "token", value: token };
  if (bodyApiKey !== undefined) return { kind: "api_key", value: bodyApiKey };
  return null;
}

export interface Authenticated {
  client: GatewayClient;
  /** Dashboard tokens are shared by every visitor of the public dashboard. */
  dashboard: boolean;
  /** The client address a dashboard token was minted for (null otherwise): the gateway serves it from there only. */
  tokenAddress: string | null;
  /**
   * The key whose per-minute window this request spends: the key itself, or for a key in its rotation grace period
   * its successor's, so the old and the new key share one allowance instead of doubling it (lib/keys/rotation.ts).
   */
  allowanceKeyId: string;
  /** `Deprecation` / `Sunset` for a key in its rotation grace period or with an expiry (lib/auth/key-lifecycle.ts). */
  lifecycleHeaders: Record<string, string>;
}

export async function authenticate(credential: Credential): Promise<Authenticated> {
  if (credential.value.length > MAX_CREDENTIAL_LENGTH) {
    throw new ApiError(credential.kind === "api_key" ? "invalid_api_key" : "invalid_token", "The credential is too long.");
  }
  const db = await getDb();
  if (credential.kind === "api_key") {
    if (!API_KEY_PATTERN.test(credential.value)) throw new ApiError("invalid_api_key", "The API key is malformed.");
    const key = await findKeyByPlaintext(db, credential.value);
    if (!key) throw new ApiError("invalid_api_key", "The API key is not recognised.");
    assertKeyUsable(key, "API key");
    touchLastUsed(db, key.id);
    return {
      client: { keyId: key.id, tier: key.tier, via: "api_key" },
      dashboard: false,
      tokenAddress: null,
      allowanceKeyId: key.replacedById ?? key.id,
      lifecycleHeaders: keyLifecycleHeaders(key),
    };
  }
  const verified = await verifyAccessToken(credential.value);
  // The parent key is checked on every use: revoking it kills its tokens within the key-cache TTL.
  const key = await findKeyById(db, verified.keyId);
  if (!key) throw new ApiError("invalid_token", "The token's API key no longer exists.");
  assertKeyUsable(key, "API key this token was issued for");
  touchLastUsed(db, key.id);
  return {
    client: { keyId: key.id, tier: key.tier, via: "token" },
    dashboard: verified.scope === "dashboard",
    tokenAddress: verified.address,
    allowanceKeyId: key.replacedById ?? key.id,
    lifecycleHeaders: keyLifecycleHeaders(key),
  };
}
