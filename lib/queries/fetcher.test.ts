// The browser data layer with a stubbed fetch: token caching and renewal, problem+json parsing, retry on an expired
// token, and the refresh back-off on 429 and upstream failures.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

type Handler = (url: string) => Response | Promise<Response>;

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}
function problem(code: string, status: number, headers: Record<string, string> = {}): Response {
  return new Response(
    JSON.stringify({ type: `/docs#error-${code}`, title: code, status, detail: `detail of ${code}`, code, request_id: "r-1" }),
    {
      status,
      headers: { "content-type": "application/problem+json", ...headers },
    },
  );
}

async function load(handler: Handler) {
  vi.resetModules();
  const calls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string) => (calls.push(String(input)), handler(String(input)))),
  );
  const fetcher = await import("./fetcher");
  const token = await import("./token");
  const hooks = await import("./use-api");
  return { ...fetcher, ...token, ...hooks, calls };
}

let issued = 0;
const tokenResponse = (expiresIn = 300) => json({ token: `tok${++issued}`, token_type: "Bearer", expires_in: expiresIn, expires_at: "x" });

beforeEach(() => {
  issued = 0;
  vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("dashboard token provider", () => {
  it("fetches one token for concurrent callers and reuses it until 30 s before expiry", async () => {
    const m = await load((url) => (url.startsWith("/api/dashboard/token") ? tokenResponse(300) : json({})));
    expect(await Promise.all([m.getDashboardToken(), m.getDashboardToken()])).toEqual(["tok1", "tok1"]);
    vi.setSystemTime(Date.now() + 269_000);
    expect(await m.getDashboardToken()).toBe("tok1");
    vi.setSystemTime(Date.now() + 2_000);
    expect(await m.getDashboardToken()).toBe("tok2");
    expect(m.calls.filter((c) => c.startsWith("/api/dashboard/token"))).toHaveLength(2);
  });

  it("reports a rate-limited token route with its Retry-After", async () => {
    const m = await load(() => problem("rate_limited", 429, { "retry-after": "7" }));
    const error = await m.apiGet<never>("/api/predmkt/stats").catch((e: unknown) => e as InstanceType<typeof m.ApiProblem>);
    expect(error).toBeInstanceOf(m.ApiProblem);
    expect(error.status).toBe(429);
    expect(error.retryAfterS).toBe(7);
  });
});

describe("apiGet", () => {
  it("sends the token as ?token= with the query, and never an api_key", async () => {
    const m = await load((url) => (url.startsWith("/api/dashboard/token") ? tokenResponse() : json({ data: [1], meta: {} })));
    await expect(m.apiGet("/api/predmkt/events", { q: "a b", category: undefined, limit: 20 })).resolves.toEqual({ data: [1], meta: {} });
    const call = m.calls.find((c) => c.startsWith("/api/predmkt/events"))!;
    expect(call).toBe("/api/predmkt/events?q=a+b&limit=20&token=tok1");
    expect(call).not.toContain("api_key");
  });

  it("on 401 token_expired drops the token, fetches a new one and retries once", async () => {
    const m = await load((url) => {
      if (url.startsWith("/api/dashboard/token")) return tokenResponse();
      return url.includes("token=tok1") ? problem("token_expired", 401) : json({ data: "ok", meta: {} });
    });
    await expect(m.apiGet("/api/predmkt/stats")).resolves.toEqual({ data: "ok", meta: {} });
    expect(m.calls.filter((c) => c.startsWith("/api/predmkt/stats"))).toEqual([
      "/api/predmkt/stats?token=tok1",
      "/api/predmkt/stats?token=tok2",
    ]);
  });

  it("parses problem+json into a typed error and does not retry other 4xx", async () => {
    const m = await load((url) => (url.startsWith("/api/dashboard/token") ? tokenResponse() : problem("not_found", 404)));
    const error = await m.apiGet<never>("/api/predmkt/events/nope").catch((e: unknown) => e as InstanceType<typeof m.ApiProblem>);
    expect(error).toMatchObject({ status: 404, code: "not_found", detail: "detail of not_found", requestId: "r-1" });
    expect(error.transient).toBe(false);
    expect(m.calls.filter((c) => c.startsWith("/api/predmkt"))).toHaveLength(1);
  });

  it("turns a network failure into a transient `network` problem", async () => {
    const m = await load((url) => {
      if (url.startsWith("/api/dashboard/token")) return tokenResponse();
      throw new TypeError("Failed to fetch");
    });
    const error = await m.apiGet<never>("/api/predmkt/stats").catch((e: unknown) => e as InstanceType<typeof m.ApiProblem>);
    expect(error).toMatchObject({ status: 0, code: "network" });
    expect(error.transient).toBe(true);
  });
});

describe("refresh back-off", () => {
  it("waits Retry-After on 429, doubles on upstream failures up to 5 min, else polls normally", async () => {
    const m = await load(() => json({}));
    const limited = new m.ApiProblem(429, "rate_limited", "slow down", 12);
    expect(m.nextRefreshMs(5_000, limited, 1)).toBe(12_000);
    expect(m.nextRefreshMs(30_000, limited, 1)).toBe(30_000);
    const upstream = new m.ApiProblem(502, "upstream_unavailable", "down");
    expect(m.nextRefreshMs(10_000, upstream, 1)).toBe(10_000);
    expect(m.nextRefreshMs(10_000, upstream, 3)).toBe(40_000);
    expect(m.nextRefreshMs(10_000, upstream, 20)).toBe(300_000);
    expect(m.nextRefreshMs(10_000, null, 0)).toBe(10_000);
    expect(m.nextRefreshMs(undefined, null, 0)).toBe(false);
  });
});
