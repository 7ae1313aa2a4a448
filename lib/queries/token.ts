// The browser's credentials for the keyed API: a short-lived JWT from the same-origin /api/dashboard/token route.
// No API key ever reaches the browser. One token is shared by every query on the page; it is renewed ahead of expiry
// (RENEW_BEFORE_MS) by a timer and on demand, and dropped when the API says it expired or is invalid.

const TOKEN_ROUTE = "/api/dashboard/token";
/** Renew this long before expiry, so a request in flight never carries a token that expires on the way. */
const RENEW_BEFORE_MS = 30_000;

interface HeldToken {
  token: string;
  /** Local clock: receipt time + expires_in, so a skewed browser clock does not matter. */
  expiresAt: number;
}

let held: HeldToken | null = null;
let pending: Promise<HeldToken> | null = null;
let renewTimer: ReturnType<typeof setTimeout> | null = null;

export class TokenUnavailableError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly retryAfterS: number | null,
  ) {
    super(message);
    this.name = "TokenUnavailableError";
  }
}

function scheduleRenewal(token: HeldToken): void {
  if (typeof window === "undefined") return;
  if (renewTimer) clearTimeout(renewTimer);
  const delay = Math.max(1_000, token.expiresAt - RENEW_BEFORE_MS - Date.now());
  renewTimer = setTimeout(() => {
    renewTimer = null;
    // Background renewal: a failure here is retried by the next request that needs the token.
    fetchToken().catch(() => undefined);
  }, delay);
}

async function fetchToken(): Promise<HeldToken> {
  pending ??= (async () => {
    try {
      const response = await fetch(TOKEN_ROUTE, { cache: "no-store", credentials: "same-origin" });
      if (!response.ok) {
        const retryAfter = Number(response.headers.get("retry-after"));
        throw new TokenUnavailableError(
          response.status === 429 ? "Too many visitors from this address right now." : "The dashboard could not get access right now.",
          response.status,
          Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
        );
      }
      const body = (await response.json()) as { token: string; expires_in: number };
      const next = { token: body.token, expiresAt: Date.now() + body.expires_in * 1000 };
      held = next;
      scheduleRenewal(next);
      return next;
    } finally {
      pending = null;
    }
  })();
  return pending;
}

/** A token valid for at least RENEW_BEFORE_MS more; concurrent callers share one fetch. */
export async function getDashboardToken(): Promise<string> {
  if (held && held.expiresAt - RENEW_BEFORE_MS > Date.now()) return held.token;
  return (await fetchToken()).token;
}

/** Drop `token` (the API refused it) so the next call fetches a fresh one; a newer token is kept. */
export function invalidateDashboardToken(token: string): void {
  if (held?.token === token) held = null;
}
