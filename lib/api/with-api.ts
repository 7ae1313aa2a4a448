// The route wrapper: every API route handler is `export const GET = withApi(contract, handler)`. It refuses requests
// that did not pass the gateway, validates path/query/body with the contract's zod schemas, runs the handler and
// turns every thrown error into problem+json. Handlers never catch errors themselves.
/* eslint-disable @typescript-eslint/no-explicit-any -- conditional-type inference over contract generics */
import { randomUUID } from "node:crypto";
import type { NextRequest } from "next/server";
import { z } from "zod";
import { env } from "@/lib/env";
import { UUID_PATTERN } from "@/lib/auth/api-key";
import { GATEWAY_HEADER, type GatewayClient, REQUEST_ID_HEADER, verifyGatewayHeader } from "@/lib/auth/gateway";
import { errorFields, log } from "@/lib/log";
import type { EndpointContract } from "./contract";
import { ApiError, type ParameterError, problemResponse } from "./errors";

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerContext<C extends EndpointContract> {
  request: NextRequest;
  requestId: string;
  /** The key the gateway authenticated; null on public endpoints. */
  client: C extends EndpointContract<any, any, any, any, infer A> ? (A extends "key" ? GatewayClient : GatewayClient | null) : never;
  query: C extends EndpointContract<infer Q, any, any, any, any> ? (Q extends z.ZodObject ? z.output<Q> : Record<string, never>) : never;
  params: C extends EndpointContract<any, infer P, any, any, any> ? (P extends z.ZodObject ? z.output<P> : Record<string, never>) : never;
  body: C extends EndpointContract<any, any, infer B, any, any> ? Output<B> : never;
  /** Response headers the handler may add to (Cache-Control, ...). */
  headers: Headers;
}

/** What a handler returns: the response body its contract declares, or a ready Response. */
export type HandlerResult<C extends EndpointContract> = C extends EndpointContract<any, any, any, infer R, any> ? z.input<R> | Response : never;

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

const MAX_BODY_BYTES = 16 * 1024;

function issuesToErrors(issues: z.core.$ZodIssue[], fallback: string): ParameterError[] {
  return issues.map((issue) => ({
    parameter: issue.path.length ? String(issue.path[0]) : fallback,
    detail: issue.message,
  }));
}

function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, fallback: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors = issuesToErrors(result.error.issues, fallback);
  const detail = errors.map((e) => `'${e.parameter}': ${e.detail}`).join("; ");
  throw new ApiError("invalid_parameter", `Invalid parameter ${detail}`, { errors });
}

// First value wins for repeated query parameters (`?limit=1&limit=2` reads 1).
function queryObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of url.searchParams) if (!(key in out)) out[key] = value;
  return out;
}

async function readJsonBody(request: NextRequest): Promise<unknown> {
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > MAX_BODY_BYTES) throw new ApiError("payload_too_large", `Request body exceeds ${MAX_BODY_BYTES} bytes.`);
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw new ApiError("payload_too_large", `Request body exceeds ${MAX_BODY_BYTES} bytes.`);
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("invalid_parameter", "Request body is not valid JSON.", {
      errors: [{ parameter: "body", detail: "must be a JSON object" }],
    });
  }
}

const UNAVAILABLE_PATTERNS = [/ECONNREFUSED/, /ETIMEDOUT/, /Connection terminated/i, /P1001|P1002|P1017|P2024/, /Can't reach database/i, /connect ECONNRESET/];

/** Our own database (or another store of ours) is unreachable: a 503, not a 500. */
export function isServiceUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && !seen.has(current)) {
    seen.add(current);
    const text = current instanceof Error ? `${current.name} ${current.message} ${(current as { code?: string }).code ?? ""}` : String(current);
    if (UNAVAILABLE_PATTERNS.some((p) => p.test(text))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export function errorToResponse(error: unknown, requestId: string, headers?: Headers): Response {
  if (error instanceof ApiError) {
    const merged = new Headers(headers);
    for (const [k, v] of Object.entries(error.headers)) merged.set(k, v);
    return problemResponse(error.code, error.message, requestId, { errors: error.errors, headers: merged });
  }
  if (isServiceUnavailable(error)) {
    log.warn("service unavailable", { request_id: requestId, ...errorFields(error) });
    return problemResponse("service_unavailable", "A backing service is unreachable; try again shortly.", requestId, {
      headers: new Headers({ "Retry-After": "5" }),
    });
  }
  log.error("unhandled error", { request_id: requestId, ...errorFields(error) });
  return problemResponse("internal_error", "An internal error occurred.", requestId);
}

export function withApi<C extends EndpointContract>(
  contract: C,
  handler: (ctx: HandlerContext<C>) => Promise<HandlerResult<C>>,
): (request: NextRequest, context: RouteContext) => Promise<Response> {
  return async (request, context) => {
    const incomingId = request.headers.get(REQUEST_ID_HEADER);
    const client = verifyGatewayHeader(request.headers.get(GATEWAY_HEADER), incomingId);
    // The proxy sets a fresh UUID on every /api request; anything else (no proxy, odd value) gets a new one.
    const requestId = incomingId && UUID_PATTERN.test(incomingId) ? incomingId : randomUUID();
    const headers = new Headers({ "Cache-Control": "private, no-cache" });
    try {
      if (contract.access === "key" && !client) {
        // Fail closed: only the gateway can vouch for a caller.
        throw new ApiError("missing_credentials", "This endpoint requires an API key or token.");
      }
      const rawParams = context?.params ? await context.params : {};
      const params = contract.params ? parseOrThrow(contract.params, rawParams, "path") : {};
      const query = contract.query ? parseOrThrow(contract.query, queryObject(request.nextUrl), "query") : {};
      const body = contract.body ? parseOrThrow(contract.body, await readJsonBody(request), "body") : undefined;
      const result = await handler({ request, requestId, client, query, params, body, headers } as HandlerContext<C>);
      if (result instanceof Response) {
        result.headers.set("X-Request-Id", requestId);
        return result;
      }
      if (env.NODE_ENV !== "production") {
        // Catch response-shape drift in development and tests; production trusts the types.
        const check = contract.response.safeParse(result);
        if (!check.success) {
          throw new Error(`Response for ${contract.path} does not match its schema: ${z.prettifyError(check.error)}`);
        }
      }
      headers.set("Content-Type", "application/json");
      headers.set("X-Request-Id", requestId);
      return new Response(JSON.stringify(result), { status: 200, headers });
    } catch (error) {
      return errorToResponse(error, requestId);
    }
  };
}
