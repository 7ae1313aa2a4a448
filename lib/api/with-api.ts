// The route wrapper: every API route handler is `export const GET = withApi(contract, handler)`. It refuses requests
// that did not pass the gateway, checks parameters strictly (lib/api/strict-query.ts: unknown, repeated, control
// characters, over-long, non-decimal numbers), validates path/query/body with the contract's zod schemas, runs the
// handler and turns every thrown error into problem+json. Handlers never catch errors themselves.
import { randomUUID } from "node:crypto";
import type { NextRequest } from "next/server";
import { z } from "zod";
import { env } from "@/lib/env";
import { UUID_PATTERN } from "@/lib/auth/api-key";
import { GATEWAY_HEADER, type GatewayClient, REQUEST_ID_HEADER, verifyGatewayHeader } from "@/lib/auth/gateway";
import { recordUsage } from "@/lib/keys/usage-meter";
import { errorFields, log } from "@/lib/log";
import { CachedAnswer, respondCached } from "./cached-answer";
import type { EndpointContract } from "./contract";
import { isCanonicalQuery } from "./canonical";
import { csvResponse, wantsCsv } from "./csv";
import { ApiError, isUpstreamFailure, type ParameterError, problemResponse, publicDetail } from "./errors";
import { operationName } from "./operations";
import { rememberReplay } from "./replay";
import { checkPathParams, strictQuery } from "./strict-query";
import { observeRequest } from "@/lib/metrics/registry";

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;
/** The widest query/params schema a contract may have, for inferring the other type parameters. */
type AnyQuery = z.ZodObject | undefined;

interface HandlerContext<C extends EndpointContract> {
  request: NextRequest;
  requestId: string;
  /** The key the gateway authenticated; null on public endpoints. */
  client: C["access"] extends "key" ? GatewayClient : GatewayClient | null;
  query: C extends EndpointContract<infer Q> ? (Q extends z.ZodObject ? z.output<Q> : Record<string, never>) : never;
  params: C extends EndpointContract<AnyQuery, infer P> ? (P extends z.ZodObject ? z.output<P> : Record<string, never>) : never;
  body: C extends EndpointContract<AnyQuery, AnyQuery, infer B> ? Output<B> : never;
  /** Response headers the handler may add to (Cache-Control, ...). */
  headers: Headers;
}

/**
 * What a handler returns: the response body its contract declares, a cached answer that builds that body once per
 * version (lib/api/cached-answer.ts), or a ready Response.
 */
type HandlerResult<C extends EndpointContract> =
  C extends EndpointContract<AnyQuery, AnyQuery, z.ZodType | undefined, infer R> ? z.input<R> | CachedAnswer<z.input<R>> | Response : never;

/** A route's handler, as `withApi(contract, handler)` takes it (and lib/api/prerender.ts calls it). */
export type ApiHandler<C extends EndpointContract> = (ctx: HandlerContext<C>) => Promise<HandlerResult<C>>;

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

const MAX_BODY_BYTES = 16 * 1024;

// A nested body field is named by its whole path (`rules[2].min_usd`); a query or path parameter is one name.
function fieldName(path: readonly PropertyKey[]): string {
  return path.map((part, i) => (typeof part === "number" ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`)).join("");
}

function issuesToErrors(issues: z.core.$ZodIssue[], fallback: string): ParameterError[] {
  return issues.flatMap((issue) =>
    // An unknown field is named itself, not the object that holds it.
    issue.code === "unrecognized_keys"
      ? issue.keys.map((key) => ({ parameter: fieldName([...issue.path, key]), detail: "is not a known field" }))
      : [{ parameter: issue.path.length ? fieldName(issue.path) : fallback, detail: issue.message }],
  );
}

/** An answer's cache key: the endpoint and its parameters after validation (defaults filled, values coerced), sorted. */
function answerKey(contract: EndpointContract, params: object, query: object): string {
  const sorted = (o: object) => Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${contract.method} ${contract.path} ${JSON.stringify(sorted(params))} ${JSON.stringify(sorted(query))}`;
}

function checkResponse(contract: EndpointContract, result: unknown): void {
  if (env.NODE_ENV === "production") return; // production trusts the types
  // Catch response-shape drift in development and tests.
  const check = contract.response.safeParse(result);
  if (!check.success) {
    throw new Error(`Response for ${contract.path} does not match its schema: ${z.prettifyError(check.error)}`);
  }
}

/** A handler's cached answer as withApi serves it: its cache key, and the answer whose body is checked when built. */
export interface ServedAnswer {
  key: string;
  answer: CachedAnswer;
  /** The same for every caller with a clock: the gateway may replay it for the same request text (replay.ts). */
  replayable: boolean;
}

/** One place decides how a cached answer is named, checked and shared, for the route and for prerendering alike. */
export function servedAnswer(
  contract: EndpointContract,
  params: object,
  query: object,
  rawQuery: Record<string, string>,
  result: CachedAnswer,
): ServedAnswer {
  // Only canonical parameter sets are written to the shared store; the rest stay in this process (canonical.ts).
  const identity = { ...result.identity, shared: result.identity.shared && isCanonicalQuery(rawQuery) };
  const answer = new CachedAnswer(identity, async () => {
    const body: unknown = await result.build();
    checkResponse(contract, body);
    return body;
  });
  const { current, shared, variant } = result.identity;
  return { key: answerKey(contract, params, query), answer, replayable: Boolean(current && shared && variant === undefined) };
}

/** Lets the gateway replay `served` (whose ETag is `etag`) for this exact request text while its version holds. */
export function rememberServed(url: URL, contract: EndpointContract, served: ServedAnswer, etag: string): void {
  const { current, version } = served.answer.identity;
  if (!served.replayable || !current) return;
  rememberReplay(url, { etag, version, current, route: contract.path, method: contract.method });
}

export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, fallback: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors = issuesToErrors(result.error.issues, fallback);
  const detail = errors.map((e) => `'${e.parameter}': ${e.detail}`).join("; ");
  throw new ApiError("invalid_parameter", `Invalid parameter ${detail}`, { errors });
}

async function readBody(request: NextRequest): Promise<unknown> {
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > MAX_BODY_BYTES) throw new ApiError("payload_too_large", `Request body exceeds ${MAX_BODY_BYTES} bytes.`);
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw new ApiError("payload_too_large", `Request body exceeds ${MAX_BODY_BYTES} bytes.`);
  if (text.trim() === "") return {};
  // HTML forms post url-encoded fields (the /api-access page works without JavaScript); first value wins, as in queries.
  if ((request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/x-www-form-urlencoded")) {
    const fields: Record<string, string> = {};
    for (const [key, value] of new URLSearchParams(text)) if (!(key in fields)) fields[key] = value;
    return fields;
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("invalid_parameter", "Request body is not valid JSON.", {
      errors: [{ parameter: "body", detail: "must be a JSON object" }],
    });
  }
}

const UNAVAILABLE_PATTERNS = [
  /ECONNREFUSED/,
  /ETIMEDOUT/,
  /Connection terminated/i,
  /P1001|P1002|P1017|P2024/,
  /Can't reach database/i,
  /connect ECONNRESET/,
];

/** A thrown non-Error: a string as it is, an object by its `message` and `code` (drivers throw plain objects too). */
function describe(value: unknown): string {
  if (typeof value !== "object" || value === null) return String(value);
  const { message, code } = value as { message?: unknown; code?: unknown };
  return [message, code].filter((part) => typeof part === "string").join(" ");
}

/** Our own database (or another store of ours) is unreachable: a 503, not a 500. */
function isServiceUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && !seen.has(current)) {
    seen.add(current);
    const text =
      current instanceof Error ? `${current.name} ${current.message} ${(current as { code?: string }).code ?? ""}` : describe(current);
    if (UNAVAILABLE_PATTERNS.some((p) => p.test(text))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function errorToResponse(error: unknown, requestId: string, headers?: Headers): Response {
  if (error instanceof ApiError) {
    const merged = new Headers(headers);
    for (const [k, v] of Object.entries(error.headers)) merged.set(k, v);
    // Upstream failures: the full text (URLs, upstream messages) goes to the log, the client reads the role.
    if (isUpstreamFailure(error))
      log.warn("upstream failure", { request_id: requestId, code: error.code, upstream: error.upstream, error: error.message });
    return problemResponse(error.code, publicDetail(error, requestId), requestId, { errors: error.errors, headers: merged });
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
  handler: ApiHandler<C>,
): (request: NextRequest, context: RouteContext) => Promise<Response> {
  return async (request, context) => {
    const incomingId = request.headers.get(REQUEST_ID_HEADER);
    const client = verifyGatewayHeader(request.headers.get(GATEWAY_HEADER), incomingId);
    const started = performance.now();
    const response = await serve(request, context, client, incomingId);
    observeRequest(contract.path, contract.method, response.status, (performance.now() - started) / 1000);
    // Usage per key (lib/keys/usage-meter.ts): an in-memory count, flushed in batches off the request path.
    if (client) recordUsage(client.keyId, operationName(request.method, contract), response.status);
    return response;
  };

  async function serve(
    request: NextRequest,
    context: RouteContext,
    client: GatewayClient | null,
    incomingId: string | null,
  ): Promise<Response> {
    // The proxy sets a fresh UUID on every /api request; anything else (no proxy, odd value) gets a new one.
    const requestId = incomingId && UUID_PATTERN.test(incomingId) ? incomingId : randomUUID();
    const headers = new Headers({ "Cache-Control": "private, no-cache" });
    try {
      if (contract.access === "key" && !client) {
        // Fail closed: only the gateway can vouch for a caller.
        throw new ApiError("missing_credentials", "This endpoint requires an API key or token.");
      }
      const rawParams = (await context?.params) ?? {};
      checkPathParams(rawParams);
      const params = contract.params ? parseOrThrow(contract.params, rawParams, "path") : {};
      const rawQuery = strictQuery(request.nextUrl, contract);
      const query = contract.query ? parseOrThrow(contract.query, rawQuery, "query") : {};
      const body = contract.body ? parseOrThrow(contract.body, await readBody(request), "body") : undefined;
      const csv = wantsCsv(request, contract);
      const result = await handler({ request, requestId, client, query, params, body, headers } as HandlerContext<C>);
      if (result instanceof Response) {
        result.headers.set("X-Request-Id", requestId);
        return result;
      }
      headers.set("X-Request-Id", requestId);
      if (result instanceof CachedAnswer) {
        const served = servedAnswer(contract, params, query, rawQuery, result);
        // CSV is rendered from the answer's body (exports are rare next to JSON reads, so they are not cached).
        if (csv) return csvResponse(contract, (await served.answer.build()) as { data: Record<string, unknown>[] }, headers);
        const response = await respondCached(request, served.key, served.answer, headers);
        // An answer that is the same for every caller may be replayed by the gateway for this exact request text.
        rememberServed(request.nextUrl, contract, served, response.headers.get("ETag")!);
        return response;
      }
      if (contract.successStatus === 204) return new Response(null, { status: 204, headers });
      checkResponse(contract, result);
      if (csv) return csvResponse(contract, result as { data: Record<string, unknown>[] }, headers);
      headers.set("Content-Type", "application/json");
      return new Response(JSON.stringify(result), { status: contract.successStatus ?? 200, headers });
    } catch (error) {
      return errorToResponse(error, requestId);
    }
  }
}
