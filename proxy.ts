// The API gateway (Next 16's proxy, Node runtime) for /api/predmkt/*, /api/oracle/* and /api/auth/token:
// credentials → per-key sliding-window limit → signed gateway header for the route handler. Route handlers verify
// that header (lib/auth/gateway.ts) and refuse requests that did not come through here.
import { randomUUID } from "node:crypto";
import { type NextRequest, NextResponse } from "next/server";
import { ApiError, type ErrorCode, problemResponse } from "@/lib/api/errors";
import { type Authenticated, authenticate, clientIp, type Credential, extractCredential } from "@/lib/auth/authenticate";
import { GATEWAY_HEADER, REQUEST_ID_HEADER, signGatewayHeader } from "@/lib/auth/gateway";
import { consume, type LimitResult, rateLimitHeaders, retryAfterSeconds } from "@/lib/auth/ratelimit";
import { tierLimit } from "@/lib/auth/tiers";
import { env } from "@/lib/env";
import { errorFields, log } from "@/lib/log";

export const config = { matcher: ["/api/:path*"] };

const TOKEN_PATH = "/api/auth/token";
const MAX_TOKEN_BODY_BYTES = 16 * 1024;

const CORS_HEADERS = {
  // Keys and tokens travel in headers or the query string, never cookies, so any origin may call the API.
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers":
    "X-Request-Id, X-Api-Tier, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit-Policy, RateLimit, Retry-After",
};

function isGated(pathname: string): boolean {
  return /^\/api\/(predmkt|oracle)(\/|$)/.test(pathname) || pathname === TOKEN_PATH;
}

function allowedMethods(pathname: string): string[] {
  return pathname === TOKEN_PATH ? ["POST", "OPTIONS"] : ["GET", "HEAD", "OPTIONS"];
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  return response;
}

function fail(code: ErrorCode, detail: string, requestId: string, headers: Record<string, string> = {}, errors?: ApiError["errors"]): Response {
  return problemResponse(code, detail, requestId, { headers: { ...CORS_HEADERS, ...headers }, errors });
}

async function bodyApiKey(request: NextRequest): Promise<string | undefined> {
  if (request.method !== "POST" || request.nextUrl.pathname !== TOKEN_PATH) return undefined;
  if (!(request.headers.get("content-type") ?? "").includes("json")) return undefined;
  if (Number(request.headers.get("content-length") ?? "0") > MAX_TOKEN_BODY_BYTES) return undefined;
  try {
    const parsed = JSON.parse(await request.clone().text()) as { api_key?: unknown };
    return typeof parsed?.api_key === "string" ? parsed.api_key : undefined;
  } catch {
    return undefined; // the route handler reports the malformed body
  }
}

function rateLimited(result: LimitResult, detail: string, requestId: string, headers: Record<string, string>): Response {
  const retryAfter = retryAfterSeconds(result.reset);
  return fail("rate_limited", `${detail}; retry in ${retryAfter} s.`, requestId, { ...headers, "Retry-After": String(retryAfter) });
}

// Addresses that spent their unauthenticated budget are remembered here until their window resets, so they are refused
// before any key lookup: over budget, neither a wrong nor a right guess reaches the database.
const blockedAddresses = new Map<string, number>();
const MAX_BLOCKED_ADDRESSES = 10_000;

function blockedResponse(address: string, requestId: string): Response | null {
  const until = blockedAddresses.get(address);
  if (until === undefined) return null;
  if (until <= Date.now()) {
    blockedAddresses.delete(address);
    return null;
  }
  const result = { success: false, limit: env.RATE_LIMIT_ANONYMOUS_PER_IP, remaining: 0, reset: until, store: "memory" as const };
  return rateLimited(result, "Too many unauthenticated requests from this address", requestId, rateLimitHeaders(result, null));
}

/** Requests without valid credentials share a per-address budget so keys cannot be guessed at speed. */
async function rejectUnauthenticated(error: ApiError, address: string, requestId: string): Promise<Response> {
  const limit = await consume(`ip:${address}`, env.RATE_LIMIT_ANONYMOUS_PER_IP);
  if (!limit.success) {
    if (blockedAddresses.size >= MAX_BLOCKED_ADDRESSES) blockedAddresses.clear();
    blockedAddresses.set(address, limit.reset);
    return rateLimited(limit, "Too many unauthenticated requests from this address", requestId, rateLimitHeaders(limit, null));
  }
  return fail(error.code, error.message, requestId, error.headers);
}

export async function proxy(request: NextRequest): Promise<Response> {
  const requestId = randomUUID();
  const { pathname } = request.nextUrl;
  const forwarded = new Headers(request.headers);
  // Only this proxy may vouch for a request: drop whatever a client sent under our internal header names.
  forwarded.delete(GATEWAY_HEADER);
  forwarded.set(REQUEST_ID_HEADER, requestId);

  if (request.method === "OPTIONS") {
    return new Response(null, {
      status: 204,
      headers: {
        ...CORS_HEADERS,
        "Access-Control-Allow-Methods": allowedMethods(pathname).join(", "),
        "Access-Control-Allow-Headers": "Authorization, Content-Type",
        "Access-Control-Max-Age": "600",
        "X-Request-Id": requestId,
      },
    });
  }
  if (!isGated(pathname)) {
    // Every public API route is read-only.
    if (!["GET", "HEAD"].includes(request.method)) {
      return fail("method_not_allowed", `${request.method} is not allowed here; use GET.`, requestId, { Allow: "GET, HEAD, OPTIONS" });
    }
    return withHeaders(NextResponse.next({ request: { headers: forwarded } }), { "X-Request-Id": requestId });
  }

  const address = clientIp(request.headers);
  const blocked = blockedResponse(address, requestId);
  if (blocked) return blocked;

  let authenticated: Authenticated;
  try {
    if (Number(request.headers.get("content-length") ?? "0") > MAX_TOKEN_BODY_BYTES) {
      return fail("payload_too_large", `Request body exceeds ${MAX_TOKEN_BODY_BYTES} bytes.`, requestId);
    }
    let credential: Credential | null;
    try {
      credential = extractCredential(request.headers, request.nextUrl.searchParams, await bodyApiKey(request));
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
  const limit: LimitResult = await consume(`key:${client.keyId}`, tierLimit(client.tier));
  const limitHeaders = { ...rateLimitHeaders(limit, client.tier), ...CORS_HEADERS, "X-Request-Id": requestId };
  if (!limit.success) {
    return rateLimited(limit, `Rate limit of ${limit.limit} requests per minute exceeded`, requestId, limitHeaders);
  }
  if (authenticated.dashboard) {
    // Every dashboard visitor shares one key: each address also gets its own slice, so one scraper holding a
    // dashboard token cannot spend everybody's budget.
    const slice = await consume(`dashboard:${address}`, env.RATE_LIMIT_DASHBOARD_PER_IP);
    if (!slice.success) {
      return rateLimited(slice, `Dashboard requests from this address exceed ${slice.limit} per minute`, requestId, limitHeaders);
    }
  }
  const methods = allowedMethods(pathname);
  if (!methods.includes(request.method)) {
    return fail("method_not_allowed", `${request.method} is not allowed here; use ${methods.filter((m) => m !== "OPTIONS").join(" or ")}.`, requestId, {
      ...limitHeaders,
      Allow: methods.join(", "),
    });
  }
  forwarded.set(GATEWAY_HEADER, signGatewayHeader(client, requestId));
  return withHeaders(NextResponse.next({ request: { headers: forwarded } }), limitHeaders);
}
