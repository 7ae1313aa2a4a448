// The gateway (Next 16's proxy, Node runtime) in front of every route but static assets.
// - /api/predmkt/*, /api/oracle/*, /api/auth/token, /api/auth/usage: credentials → per-key sliding-window limit → signed gateway header
//   for the route handler. Route handlers verify that header (lib/auth/gateway.ts) and refuse anything else. A request
//   the route already answered with a cached answer that still holds is replayed here instead (lib/api/replay.ts).
// - /api/cron/*, /api/metrics: failed bearer-secret authentications are limited per client address.
// - /api/auth/key-requests: public, the one public API route that takes a POST (it limits itself per address).
// - pages: a per-address budget (they render the same data as the API) and a nonce'd Content-Security-Policy.
// Every response gets the security headers of lib/security/headers.ts. Client addresses: lib/auth/client-address.ts.
import { randomUUID } from "node:crypto";
import { type NextRequest, NextResponse } from "next/server";
import { bearerSecretMatches } from "@/lib/api/cron";
import { ApiError, type ErrorCode, problemResponse } from "@/lib/api/errors";
import { type Authenticated, authenticate, type Credential, extractCredential } from "@/lib/auth/authenticate";
import { clientAddress, viaHttps } from "@/lib/auth/client-address";
import { resolvedDashboardIdentity } from "@/lib/auth/dashboard";
import { dashboardScopeRefusal, dashboardSlice, tokenShare } from "@/lib/auth/dashboard-scope";
import { GATEWAY_HEADER, REQUEST_ID_HEADER, signGatewayHeader } from "@/lib/auth/gateway";
import { consume, type LimitResult, rateLimitHeaders, retryAfterSeconds } from "@/lib/auth/ratelimit";
import { tierLimit } from "@/lib/auth/tiers";
import { operationForPath, operationName, operationPathFor } from "@/lib/api/operations";
import { replayAnswer } from "@/lib/api/replay";
import { createCache } from "@/lib/cache/lru";
import { env } from "@/lib/env";
import { recordUsage } from "@/lib/keys/usage-meter";
import { errorFields, log } from "@/lib/log";
import { observeRequest } from "@/lib/metrics/registry";
import {
  apiSecurityHeaders,
  frameAncestorsFor,
  newNonce,
  pageCsp,
  pageSecurityHeaders,
  TOO_MANY_PAGES_CSP,
  tooManyPagesHtml,
} from "@/lib/security/headers";

// Everything but the build's static files (next.config.ts gives those their headers).
export const config = { matcher: ["/((?!_next/static|_next/image|icon.svg|favicon.ico).*)"] };

const TOKEN_PATH = "/api/auth/token";
const USAGE_PATH = "/api/auth/usage";
const KEY_REQUESTS_PATH = "/api/auth/key-requests";
const CRON_PREFIX = "/api/cron/";
const METRICS_PATH = "/api/metrics";
const STREAM_PATH = "/api/predmkt/stream";

const CORS_HEADERS = {
  // Keys and tokens travel in headers or the query string, never cookies, so any origin may call the API.
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers":
    "X-Request-Id, X-Api-Tier, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit-Policy, RateLimit, Retry-After, Deprecation, Sunset, ETag",
};

function isGated(pathname: string): boolean {
  return /^\/api\/(predmkt|oracle)(\/|$)/.test(pathname) || pathname === TOKEN_PATH || pathname === USAGE_PATH || isAlertsPath(pathname);
}

function allowedMethods(pathname: string): string[] {
  if (isAlertsPath(pathname)) return ALERTS_METHODS;
  if (pathname === TOKEN_PATH || pathname === KEY_REQUESTS_PATH) return ["POST", "OPTIONS"];
  // HEAD of an endless stream has nothing to say, and Next would run the GET handler for it and drop the body without
  // cancelling it: the slot would stay taken with no connection open (docs/stream.md "Slots").
  if (pathname === STREAM_PATH) return ["GET", "OPTIONS"];
  return ["GET", "HEAD", "OPTIONS"];
}

// ---- Alerts (docs/alerts.md): the keyed API's writes. Authenticated and limited like every gated route; the
// bodies of POST and PATCH are capped at MAX_BODY_BYTES. The route answers 405 for a method a path lacks. ----
const ALERTS_METHODS = ["GET", "HEAD", "POST", "PATCH", "DELETE", "OPTIONS"];
function isAlertsPath(pathname: string): boolean {
  return /^\/api\/alerts(\/|$)/.test(pathname);
}
// ---- end alerts ----

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  return response;
}

function fail(
  code: ErrorCode,
  detail: string,
  requestId: string,
  headers: Record<string, string> = {},
  errors?: ApiError["errors"],
): Response {
  return problemResponse(code, detail, requestId, { headers: { ...CORS_HEADERS, ...headers }, errors });
}

/**
 * Reads the body as it streams in and stops at `max` bytes, chunked or not: a declared Content-Length is not needed
 * for the cap to hold. Returns null when the body is larger.
 */
async function readCappedBody(request: NextRequest, max: number): Promise<string | null> {
  const body = request.clone().body;
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      void reader.cancel().catch(() => undefined); // not awaited: the source may still be streaming
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function bodyApiKey(request: NextRequest, text: string): string | undefined {
  if (!(request.headers.get("content-type") ?? "").includes("json")) return undefined;
  try {
    const parsed = JSON.parse(text) as { api_key?: unknown };
    return typeof parsed?.api_key === "string" ? parsed.api_key : undefined;
  } catch {
    return undefined; // the route handler reports the malformed body
  }
}

function rateLimited(result: LimitResult, detail: string, requestId: string, headers: Record<string, string>): Response {
  const retryAfter = retryAfterSeconds(result.reset);
  return fail("rate_limited", `${detail}; retry in ${retryAfter} s.`, requestId, { ...headers, "Retry-After": String(retryAfter) });
}

/**
 * Requests without valid credentials share a per-address budget so keys cannot be guessed at speed. Only failures
 * are counted, and only after the credentials were checked: a valid key is never refused because someone else sent
 * bad ones from (or claiming) the same address.
 */
async function rejectUnauthenticated(error: ApiError, address: string, requestId: string): Promise<Response> {
  const limit = await consume(`ip:${address}`, env.RATE_LIMIT_ANONYMOUS_PER_IP);
  if (!limit.success) {
    return rateLimited(limit, "Too many unauthenticated requests from this address", requestId, rateLimitHeaders(limit, null));
  }
  return fail(error.code, error.message, requestId, error.headers);
}

// Addresses over their cron-failure budget, until their window resets: every cron request from them is refused before
// the secret is compared, so a right guess is no more visible than a wrong one. Bounded (least recently used out
// first); an entry lapses when its window resets.
const MAX_CRON_BLOCKED = 10_000;
const cronBlocked = createCache<{ until: number }>({ max: MAX_CRON_BLOCKED });

async function cronGate(request: NextRequest, address: string, requestId: string): Promise<Response | null> {
  const { pathname } = request.nextUrl;
  const until = cronBlocked.get(address)?.until;
  if (until !== undefined && until > Date.now()) {
    const result = { success: false, limit: env.RATE_LIMIT_CRON_FAILURES_PER_IP, remaining: 0, reset: until, store: "memory" as const };
    return rateLimited(result, "Too many failed cron authentications from this address", requestId, rateLimitHeaders(result, null));
  }
  // The metrics token when metrics are on (else the route answers 404 and a guess has nothing to find).
  const secret = pathname === METRICS_PATH ? env.METRICS_TOKEN : env.CRON_SECRET;
  if (secret && bearerSecretMatches(request.headers.get("authorization"), secret)) return null;
  const limit = await consume(`cron:${address}`, env.RATE_LIMIT_CRON_FAILURES_PER_IP);
  if (limit.success) return null; // the route answers the 401 itself
  cronBlocked.set(address, { until: limit.reset }, { ttl: Math.max(1, limit.reset - Date.now()) });
  return rateLimited(limit, "Too many failed cron authentications from this address", requestId, rateLimitHeaders(limit, null));
}

/** Dashboard pages: a per-address budget and a fresh CSP nonce handed to Next through the request headers. */
async function page(request: NextRequest, forwarded: Headers, address: string, requestId: string, https: boolean): Promise<Response> {
  const { pathname } = request.nextUrl;
  // Link prefetches (an RSC request with Next's prefetch header) render up to the dashboard's loading boundary, which
  // still runs the page's metadata reads: they have their own per-address budget, answered with an empty 429 past it
  // (the router then simply does not prefetch). A navigation, or a document with the same header, is a page view and
  // counts against the page budget. Needs skipProxyUrlNormalize (next.config.ts).
  const prefetch = request.headers.get("rsc") === "1" && request.headers.get("next-router-prefetch") === "1";
  if (prefetch) {
    const limit = await consume(`prefetch:${address}`, env.RATE_LIMIT_PREFETCHES_PER_IP);
    if (!limit.success) {
      return new Response(null, {
        status: 429,
        headers: { "Cache-Control": "no-store", "Retry-After": String(retryAfterSeconds(limit.reset)), "X-Request-Id": requestId },
      });
    }
  } else {
    const limit = await consume(`page:${address}`, env.RATE_LIMIT_PAGES_PER_IP);
    if (!limit.success) {
      const retryAfter = retryAfterSeconds(limit.reset);
      return new Response(tooManyPagesHtml(retryAfter, requestId), {
        status: 429,
        headers: {
          ...pageSecurityHeaders(pathname, TOO_MANY_PAGES_CSP, https),
          "Content-Type": "text/html; charset=utf-8",
          "Cache-Control": "no-store",
          "Retry-After": String(retryAfter),
          "X-Request-Id": requestId,
        },
      });
    }
    // A page view spends the dashboard key's allowance too (never refused by it: the page budget above decides), so the
    // share browser tokens may use (tokenShare) leaves the rest to page renders. Counted only once this process knows
    // the key; not awaited, as a page never waits on the count.
    const dashboardKey = await resolvedDashboardIdentity();
    if (dashboardKey) void consume(`key:${dashboardKey.keyId}`, tierLimit(dashboardKey.tier));
  }
  const csp = pageCsp(newNonce(), frameAncestorsFor(pathname, env.EMBED_FRAME_ANCESTORS), env.NODE_ENV === "development");
  forwarded.set("content-security-policy", csp);
  return withHeaders(NextResponse.next({ request: { headers: forwarded } }), {
    ...pageSecurityHeaders(pathname, csp, https),
    "X-Request-Id": requestId,
  });
}

export async function proxy(request: NextRequest): Promise<Response> {
  const requestId = randomUUID();
  const { pathname } = request.nextUrl;
  const https = viaHttps(request.headers, request.nextUrl, env.TRUST_PROXY);
  const response = await gateway(request, requestId, https);
  // Every answer, from here or from a route handler, carries the browser-protection headers.
  for (const [k, v] of Object.entries(pathname.startsWith("/api/") ? apiSecurityHeaders(https) : {})) {
    if (!response.headers.has(k)) response.headers.set(k, v);
  }
  return response;
}

async function gateway(request: NextRequest, requestId: string, https: boolean): Promise<Response> {
  const { pathname } = request.nextUrl;
  const forwarded = new Headers(request.headers);
  // Only this proxy may vouch for a request: drop whatever a client sent under our internal header names.
  forwarded.delete(GATEWAY_HEADER);
  forwarded.set(REQUEST_ID_HEADER, requestId);
  const address = clientAddress(request.headers);

  if (!pathname.startsWith("/api/")) return page(request, forwarded, address, requestId, https);

  if (request.method === "OPTIONS") {
    return new Response(null, {
      status: 204,
      headers: {
        ...CORS_HEADERS,
        "Access-Control-Allow-Methods": allowedMethods(pathname).join(", "),
        "Access-Control-Allow-Headers": "Authorization, Content-Type, If-None-Match",
        "Access-Control-Max-Age": "600",
        "X-Request-Id": requestId,
      },
    });
  }
  if (!isGated(pathname)) {
    // Every public API route is read-only but the key-request form's.
    const methods = allowedMethods(pathname);
    if (!methods.includes(request.method)) {
      const use = methods.filter((m) => m !== "OPTIONS").join(" or ");
      return fail("method_not_allowed", `${request.method} is not allowed here; use ${use}.`, requestId, { Allow: methods.join(", ") });
    }
    if (pathname.startsWith(CRON_PREFIX) || pathname === METRICS_PATH) {
      const refused = await cronGate(request, address, requestId);
      if (refused) return refused;
    }
    return withHeaders(NextResponse.next({ request: { headers: forwarded } }), { "X-Request-Id": requestId });
  }

  let authenticated: Authenticated;
  try {
    let body = "";
    if (request.method === "POST" || request.method === "PATCH") {
      const declared = Number(request.headers.get("content-length") ?? "0");
      const read = declared > env.MAX_BODY_BYTES ? null : await readCappedBody(request, env.MAX_BODY_BYTES);
      if (read === null) return fail("payload_too_large", `Request body exceeds ${env.MAX_BODY_BYTES} bytes.`, requestId);
      body = read;
    }
    let credential: Credential | null;
    try {
      const fromBody = pathname === TOKEN_PATH && request.method === "POST" ? bodyApiKey(request, body) : undefined;
      credential = extractCredential(request.headers, request.nextUrl.searchParams, fromBody);
    } catch (error) {
      if (error instanceof ApiError) return await rejectUnauthenticated(error, address, requestId);
      throw error;
    }
    if (!credential) {
      return await rejectUnauthenticated(
        new ApiError("missing_credentials", "Send an API key as 'Authorization: Bearer <key>' or '?api_key=', or a token as '?token='."),
        address,
        requestId,
      );
    }
    try {
      authenticated = await authenticate(credential);
    } catch (error) {
      if (error instanceof ApiError) return await rejectUnauthenticated(error, address, requestId);
      throw error;
    }
  } catch (error) {
    log.error("gateway failure", { request_id: requestId, ...errorFields(error) });
    return fail("service_unavailable", "Credentials could not be checked right now; try again shortly.", requestId, { "Retry-After": "5" });
  }

  const { client } = authenticated;
  // Requests refused here never reach a route handler, so their usage is counted here (lib/keys/usage-meter.ts).
  const refusedForKey = (response: Response) => {
    recordUsage(client.keyId, operationForPath(request.method, pathname), response.status);
    return response;
  };
  if (authenticated.dashboard) {
    // A dashboard token is the dashboard, nothing more (lib/auth/dashboard-scope.ts, SECURITY.md "Dashboard tokens").
    // Another address's token counts as a failed credential there, like a guessed one.
    if (authenticated.tokenAddress !== address) {
      return await rejectUnauthenticated(
        new ApiError(
          "invalid_token",
          "This dashboard token was issued to another client address; get a fresh one from /api/dashboard/token.",
        ),
        address,
        requestId,
      );
    }
    // Each address (an IPv6 client per DASHBOARD_IPV6_PREFIX network) gets its own slice, checked before anything
    // shared is charged, so a client past its slice cannot go on draining everybody's budget; then the tokens'
    // share of the key, which leaves DASHBOARD_PAGE_RESERVE_PCT of it to page renders.
    const slice = await consume(`dashboard:${dashboardSlice(address, env.DASHBOARD_IPV6_PREFIX)}`, env.RATE_LIMIT_DASHBOARD_PER_IP);
    const sliceHeaders = { ...rateLimitHeaders(slice, client.tier), ...CORS_HEADERS, "X-Request-Id": requestId };
    if (!slice.success) {
      return refusedForKey(
        rateLimited(slice, `Dashboard requests from this address exceed ${slice.limit} per minute`, requestId, sliceHeaders),
      );
    }
    const refusal = dashboardScopeRefusal(request.method, operationPathFor(pathname), request.nextUrl.searchParams, request.headers);
    if (refusal) return refusedForKey(fail("insufficient_scope", refusal, requestId, sliceHeaders));
    const share = await consume(`dashboard-tokens:${client.keyId}`, tokenShare(tierLimit(client.tier), env.DASHBOARD_PAGE_RESERVE_PCT));
    if (!share.success) {
      return refusedForKey(
        rateLimited(share, "The dashboard's shared allowance for browser requests is spent this minute", requestId, sliceHeaders),
      );
    }
  }
  // A key in its rotation grace spends its successor's window: one allowance between the two (lib/keys/rotation.ts).
  const limit: LimitResult = await consume(`key:${authenticated.allowanceKeyId}`, tierLimit(client.tier));
  const limitHeaders = {
    ...rateLimitHeaders(limit, client.tier),
    ...authenticated.lifecycleHeaders,
    ...CORS_HEADERS,
    "X-Request-Id": requestId,
  };
  if (!limit.success) {
    return refusedForKey(rateLimited(limit, `Rate limit of ${limit.limit} requests per minute exceeded`, requestId, limitHeaders));
  }
  const methods = allowedMethods(pathname);
  if (!methods.includes(request.method)) {
    return refusedForKey(
      fail(
        "method_not_allowed",
        `${request.method} is not allowed here; use ${methods.filter((m) => m !== "OPTIONS").join(" or ")}.`,
        requestId,
        {
          ...limitHeaders,
          Allow: methods.join(", "),
        },
      ),
    );
  }
  // A cached answer the route already gave for this exact request, while its version holds (lib/api/replay.ts).
  const started = performance.now();
  const replayed = await replayAnswer(request, limitHeaders);
  if (replayed) {
    const { response, route, method } = replayed;
    observeRequest(route, method, response.status, (performance.now() - started) / 1000);
    recordUsage(client.keyId, operationName(request.method, { path: route }), response.status);
    return response;
  }
  forwarded.set(GATEWAY_HEADER, signGatewayHeader(client, requestId));
  return withHeaders(NextResponse.next({ request: { headers: forwarded } }), limitHeaders);
}
