// The proof that a request passed the gateway (proxy.ts). The proxy strips any incoming copy of the header and,
// after authenticating and rate-limiting, sets a fresh one signed with a key derived from JWT_SECRET. Route
// handlers verify it and refuse anything else: a forged or replayed header fails the HMAC or the freshness check,
// so skipping the proxy (as in CVE-2025-29927) gets nothing served.
import { createHmac, timingSafeEqual } from "node:crypto";
import { env } from "@/lib/env";
import type { Tier } from "./tiers";

export const GATEWAY_HEADER = "x-predmkt-gateway";
export const REQUEST_ID_HEADER = "x-request-id";
const MAX_AGE_MS = 60_000;

export interface GatewayClient {
  keyId: string;
  tier: Tier;
  via: "api_key" | "token";
}

let derivedKey: Buffer | undefined;
function gatewayKey(): Buffer {
  derivedKey ??= createHmac("sha256", env.JWT_SECRET).update("predmkt-gateway-v1").digest();
  return derivedKey;
}

function sign(payload: string): string {
  return createHmac("sha256", gatewayKey()).update(payload).digest("base64url");
}

// The header carries `issuedAt.keyId.tier.via.signature`; the signature also covers the request id the proxy set in
// X-Request-Id, so a captured header cannot be replayed on another request.
export function signGatewayHeader(client: GatewayClient, requestId: string, now = Date.now()): string {
  const payload = [now, client.keyId, client.tier, client.via].join(".");
  return `${payload}.${sign(`${payload}|${requestId}`)}`;
}

/** Returns the client the gateway authenticated, or null when the header is missing, forged or stale. */
export function verifyGatewayHeader(value: string | null, requestId: string | null, now = Date.now()): GatewayClient | null {
  if (!value || !requestId) return null;
  const parts = value.split(".");
  if (parts.length !== 5) return null;
  const [issuedAt, keyId, tier, via, signature] = parts;
  const expected = Buffer.from(sign(`${parts.slice(0, 4).join(".")}|${requestId}`));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const age = now - Number(issuedAt);
  if (!(age >= -5_000 && age <= MAX_AGE_MS)) return null;
  if (tier !== "starter" && tier !== "pro" && tier !== "enterprise") return null;
  if (via !== "api_key" && via !== "token") return null;
  return { keyId, tier, via };
}
