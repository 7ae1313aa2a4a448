// The public dashboard's credentials. Visitors need no key, but the API behind the dashboard is keyed, so the server
// holds one internal key (owner "__dashboard__", enterprise tier) and mints short-lived JWTs for it; browsers only ever
// see those tokens. The key's plaintext is discarded at creation: only its id is needed to sign tokens, so there is no
// secret to leak into a page. An operator may instead pin an existing key with DASHBOARD_API_KEY (its plaintext stays
// on the server). Revoking the dashboard key kills every token in every open browser within KEY_CACHE_TTL_S; the next
// token request then provisions a fresh internal key.
import { env } from "@/lib/env";
import { ApiError } from "@/lib/api/errors";
import { getDb } from "@/lib/db/client";
import { createApiKey, findKeyByPlaintext } from "./api-key";
import { signAccessToken, tokenResponse } from "./jwt";
import type { Tier } from "./tiers";

export const DASHBOARD_KEY_OWNER = "__dashboard__";
const DASHBOARD_KEY_TIER: Tier = "enterprise";
/** Five minutes: short enough that a token copied out of a browser is soon useless, long enough to renew rarely. */
const DASHBOARD_TOKEN_TTL_S = 300;
/** How long the resolved key id is trusted in this process before the database is asked again (revocation). */
const IDENTITY_TTL_MS = 30_000;

interface DashboardIdentity {
  keyId: string;
  tier: Tier;
}

const globalForDashboard = globalThis as unknown as {
  __predmktDashboardKey?: { identity: Promise<DashboardIdentity>; expires: number };
};

async function resolveIdentity(): Promise<DashboardIdentity> {
  const db = await getDb();
  if (env.DASHBOARD_API_KEY) {
    const key = await findKeyByPlaintext(db, env.DASHBOARD_API_KEY);
    if (!key || key.status !== "active") {
      throw new ApiError("service_unavailable", "The dashboard's configured API key (DASHBOARD_API_KEY) is unknown or revoked.");
    }
    return { keyId: key.id, tier: key.tier };
  }
  // Oldest active one wins, so two processes that both created a key on first use settle on the same id.
  const existing = await db.apiKey.findFirst({
    where: { owner: DASHBOARD_KEY_OWNER, status: "active" },
    orderBy: { createdAt: "asc" },
    select: { id: true, tier: true },
  });
  if (existing) return { keyId: existing.id, tier: existing.tier };
  const { record } = await createApiKey(db, {
    tier: DASHBOARD_KEY_TIER,
    owner: DASHBOARD_KEY_OWNER,
    useCase: "Public dashboard: the server mints short-lived browser tokens for this key; its plaintext was discarded.",
    expectedVolume: "dashboard visitors",
  });
  return { keyId: record.id, tier: record.tier };
}

/** The dashboard key's id and tier, creating the key on first use; concurrent callers share one lookup. */
function dashboardIdentity(now = Date.now()): Promise<DashboardIdentity> {
  const cached = globalForDashboard.__predmktDashboardKey;
  if (cached && cached.expires > now) return cached.identity;
  const identity = resolveIdentity();
  globalForDashboard.__predmktDashboardKey = { identity, expires: now + IDENTITY_TTL_MS };
  // A failed lookup must not be cached: the next request tries again.
  identity.catch(() => {
    if (globalForDashboard.__predmktDashboardKey?.identity === identity) globalForDashboard.__predmktDashboardKey = undefined;
  });
  return identity;
}

/** The OAuth token-response shape (its contract, TokenResponseSchema in lib/api/endpoints/auth.ts, checks it). */
interface DashboardToken {
  token: string;
  token_type: "Bearer";
  expires_in: number;
  expires_at: string;
}

/**
 * A fresh JWT for the browser at `address` (the client's budget key, lib/auth/client-address.ts), in the same flat
 * shape as POST /api/auth/token answers. The token names that address and the gateway serves it from there only.
 */
export async function mintDashboardToken(address: string, ttlSeconds = DASHBOARD_TOKEN_TTL_S): Promise<DashboardToken> {
  const { keyId, tier } = await dashboardIdentity();
  return tokenResponse(await signAccessToken(keyId, tier, ttlSeconds, Date.now(), undefined, "dashboard", address));
}

/**
 * The dashboard key when this process resolved it before (a token was minted here), else null. Page renders count
 * against the key through this without ever creating it (lib/auth/dashboard-scope.ts); a lapsed entry still names the
 * key (after a revocation it only counts a dead key's window, which nothing reads).
 */
export async function resolvedDashboardIdentity(): Promise<DashboardIdentity | null> {
  const cached = globalForDashboard.__predmktDashboardKey;
  if (!cached) return null;
  try {
    return await cached.identity;
  } catch {
    return null;
  }
}

/** Forget the cached key id (tests, or after a revocation was observed). */
export function resetDashboardIdentity(): void {
  globalForDashboard.__predmktDashboardKey = undefined;
}
