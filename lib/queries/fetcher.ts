// Fetches the keyed JSON API from the browser with the dashboard token, and turns every failure into one typed
// error: problem+json bodies keep their `code`, `detail` and `Retry-After`; network failures become `network`.
import { getDashboardToken, invalidateDashboardToken, TokenUnavailableError } from "./token";

export type QueryParams = Record<string, string | number | boolean | null | undefined>;

export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly retryAfterS: number | null = null,
    readonly requestId: string | null = null,
  ) {
    super(detail);
    this.name = "ApiProblem";
  }

  get rateLimited(): boolean {
    return this.status === 429;
  }

  /** Worth retrying soon: our upstreams or the network hiccuped. Client errors (4xx) are not. */
  get transient(): boolean {
    return this.status === 0 || this.status >= 500;
  }
}

/** Codes after which a fresh token may succeed where the old one failed. */
const TOKEN_CODES = new Set(["token_expired", "invalid_token", "revoked_api_key", "missing_credentials"]);

function retryAfter(response: Response): number | null {
  const value = Number(response.headers.get("retry-after"));
  return Number.isFinite(value) && value > 0 ? value : null;
}

async function toProblem(response: Response): Promise<ApiProblem> {
  let body: { code?: string; detail?: string; request_id?: string } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // a proxy's HTML error page, or an empty body
  }
  return new ApiProblem(
    response.status,
    body.code ?? `http_${response.status}`,
    body.detail ?? response.statusText ?? "Request failed",
    retryAfter(response),
    body.request_id ?? response.headers.get("x-request-id"),
  );
}

export function buildUrl(path: string, params: QueryParams = {}, token?: string): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === "") continue;
    search.set(k, String(v));
  }
  if (token) search.set("token", token);
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

async function once(path: string, params: QueryParams, signal?: AbortSignal): Promise<{ response: Response; token: string }> {
  let token: string;
  try {
    token = await getDashboardToken();
  } catch (error) {
    if (error instanceof TokenUnavailableError)
      throw new ApiProblem(error.status, error.status === 429 ? "rate_limited" : "token_unavailable", error.message, error.retryAfterS);
    throw new ApiProblem(0, "network", "The dashboard is offline or the server cannot be reached.");
  }
  try {
    return { response: await fetch(buildUrl(path, params, token), { signal, cache: "no-store" }), token };
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiProblem(0, "network", "The server cannot be reached right now.");
  }
}

/** GET a keyed endpoint with the dashboard token; one retry with a fresh token when the token is refused. */
export async function apiGet<T>(path: string, params: QueryParams = {}, signal?: AbortSignal): Promise<T> {
  const first = await once(path, params, signal);
  const { token } = first;
  let { response } = first;
  if (response.status === 401) {
    const problem = await toProblem(response);
    if (!TOKEN_CODES.has(problem.code)) throw problem;
    invalidateDashboardToken(token);
    ({ response } = await once(path, params, signal));
  }
  if (!response.ok) throw await toProblem(response);
  return (await response.json()) as T;
}
