// The one error registry: every error the API sends is one of these codes, serialised as RFC 9457
// application/problem+json with `code` and `request_id`.
import { z } from "zod";

export const ERROR_CODES = {
  missing_credentials: { status: 401, title: "Missing credentials" },
  invalid_api_key: { status: 401, title: "Invalid API key" },
  revoked_api_key: { status: 401, title: "Revoked API key" },
  key_expired: { status: 401, title: "API key expired" },
  key_rotated: { status: 401, title: "API key rotated" },
  invalid_token: { status: 401, title: "Invalid token" },
  token_expired: { status: 401, title: "Token expired" },
  insufficient_scope: { status: 403, title: "Insufficient scope" },
  rate_limited: { status: 429, title: "Rate limit exceeded" },
  invalid_parameter: { status: 400, title: "Invalid parameter" },
  limit_exceeded: { status: 403, title: "Plan limit exceeded" },
  not_found: { status: 404, title: "Not found" },
  method_not_allowed: { status: 405, title: "Method not allowed" },
  payload_too_large: { status: 413, title: "Payload too large" },
  request_timeout: { status: 408, title: "Request timeout" },
  upstream_unavailable: { status: 502, title: "Upstream unavailable" },
  upstream_timeout: { status: 504, title: "Upstream timeout" },
  service_unavailable: { status: 503, title: "Service unavailable" },
  internal_error: { status: 500, title: "Internal error" },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
const ErrorCodeSchema = z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]);

export interface ParameterError {
  parameter: string;
  detail: string;
}

export const ProblemSchema = z
  .object({
    type: z.string().describe("URI identifying the problem type"),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: ErrorCodeSchema,
    request_id: z.string(),
    errors: z.array(z.object({ parameter: z.string(), detail: z.string() })).optional(),
  })
  .meta({ id: "Problem", description: "RFC 9457 problem details" });
type Problem = z.infer<typeof ProblemSchema>;

/**
 * The upstreams by the role a client may read in an error (SECURITY.md: a problem names who failed, never a URL or a
 * host — an RPC URL can carry a provider key, and a host says how the deployment is wired).
 */
const UPSTREAM_ROLES = {
  gamma: "Polymarket Gamma API",
  data: "Polymarket Data API",
  clob: "Polymarket CLOB",
  ethereum: "Ethereum RPC",
  polygon: "Polygon RPC",
} as const;
type UpstreamRole = keyof typeof UPSTREAM_ROLES;

interface ApiErrorOptions {
  errors?: ParameterError[];
  headers?: Record<string, string>;
  /** Which upstream failed (upstream_* codes). */
  upstream?: UpstreamRole;
  /** A phrase chosen by our code (never upstream text) that tells the client more than "failed". */
  publicReason?: string;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors?: ParameterError[];
  readonly headers: Record<string, string>;
  readonly upstream?: UpstreamRole;
  readonly publicReason?: string;

  constructor(code: ErrorCode, detail: string, options: ApiErrorOptions = {}) {
    super(detail);
    this.code = code;
    this.status = ERROR_CODES[code].status;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    this.upstream = options.upstream;
    this.publicReason = options.publicReason;
  }
}

/** An upstream failure: `internalDetail` (URLs, upstream messages) goes to the log only, see `publicDetail`. */
export function upstreamError(
  code: "upstream_unavailable" | "upstream_timeout",
  upstream: UpstreamRole,
  internalDetail: string,
  publicReason?: string,
): ApiError {
  return new ApiError(code, internalDetail, { upstream, publicReason });
}

export function isUpstreamFailure(error: ApiError): boolean {
  return error.code === "upstream_unavailable" || error.code === "upstream_timeout";
}

/**
 * What a client reads in `detail`: for an upstream failure the upstream's role and the request id (the log line with
 * the full text carries the same id), for anything else the error's own message.
 */
export function publicDetail(error: ApiError, requestId: string): string {
  if (!isUpstreamFailure(error)) return error.message;
  const who = error.upstream ? `The ${UPSTREAM_ROLES[error.upstream]}` : "An upstream data source";
  const what =
    error.code === "upstream_timeout" ? "did not answer in time" : `failed${error.publicReason ? `: ${error.publicReason}` : ""}`;
  return `${who} ${what}. Request ${requestId}; the service's log has the details.`;
}

export function invalidParameter(parameter: string, detail: string): ApiError {
  return new ApiError("invalid_parameter", `Invalid value for parameter '${parameter}': ${detail}`, {
    errors: [{ parameter, detail }],
  });
}

export function problemBody(code: ErrorCode, detail: string, requestId: string, errors?: ParameterError[]): Problem {
  const { status, title } = ERROR_CODES[code];
  return {
    type: `/docs#error-${code}`,
    title,
    status,
    detail,
    code,
    request_id: requestId,
    ...(errors?.length ? { errors } : {}),
  };
}

/** Builds a problem+json Response. Works in the proxy and in route handlers alike. */
export function problemResponse(
  code: ErrorCode,
  detail: string,
  requestId: string,
  options: { errors?: ParameterError[]; headers?: HeadersInit } = {},
): Response {
  const status = ERROR_CODES[code].status;
  const headers = new Headers(options.headers);
  headers.set("Content-Type", "application/problem+json");
  headers.set("Cache-Control", "no-store");
  headers.set("X-Request-Id", requestId);
  if (status === 401 && !headers.has("WWW-Authenticate")) {
    const error = code === "missing_credentials" ? "" : `, error="invalid_token"`;
    headers.set("WWW-Authenticate", `Bearer realm="api"${error}`);
  }
  return new Response(JSON.stringify(problemBody(code, detail, requestId, options.errors)), { status, headers });
}
