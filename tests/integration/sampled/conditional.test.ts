// Conditional requests end to end, through the gateway of the production server: a 304 has no body but still
// carries the request id and every rate-limit header, and counts against the key's budget like any request.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Stack, startStack } from "../../helpers/stack";

const METRICS_TOKEN = randomBytes(24).toString("base64url");

const RATE_LIMIT_HEADERS = [
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
  "ratelimit-policy",
  "ratelimit",
  "x-api-tier",
];

describe("conditional requests through the gateway", () => {
  let stack: Stack;
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${stack.app.url}${path}`, { headers: { authorization: `Bearer ${stack.key}`, ...headers } });

  beforeAll(async () => {
    stack = await startStack({ chains: false, env: { METRICS_TOKEN } });
    const res = await stack.samplePass();
    expect((await res.json()).data.status).toBe("ok");
  });
  afterAll(() => stack?.stop());

  it("304 with no body, request id and rate-limit headers; counted as a request", async () => {
    const first = await get("/api/predmkt/stats");
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(first.headers.get("cache-control")).toMatch(/^private, max-age=\d+$/);
    const body = await first.text();
    const remaining = Number(first.headers.get("x-ratelimit-remaining"));

    const revalidated = await get("/api/predmkt/stats", { "if-none-match": etag });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe("");
    expect(revalidated.headers.get("etag")).toBe(etag);
    expect(revalidated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(revalidated.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    for (const name of RATE_LIMIT_HEADERS) expect(revalidated.headers.get(name), name).not.toBeNull();
    expect(Number(revalidated.headers.get("x-ratelimit-remaining"))).toBe(remaining - 1);

    const again = await get("/api/predmkt/stats", { "if-none-match": '"something-else"' });
    expect(again.status).toBe(200);
    expect(await again.text()).toBe(body);
    expect(Number(again.headers.get("x-ratelimit-remaining"))).toBe(remaining - 2);
  });

  it("a browser on another origin can read the ETag and send If-None-Match (CORS)", async () => {
    const origin = "https://widget.example";
    const preflight = await fetch(`${stack.app.url}/api/predmkt/stats`, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "GET", "access-control-request-headers": "authorization, if-none-match" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase().split(/,\s*/)).toContain("if-none-match");
    const answer = await get("/api/predmkt/stats", { origin });
    expect(answer.headers.get("access-control-expose-headers")?.toLowerCase().split(/,\s*/)).toContain("etag");
  });

  it("the ETag moves when a pass lands through the cron route", async () => {
    const before = (await get("/api/predmkt/movers?window=1m")).headers.get("etag")!;
    expect((await get("/api/predmkt/movers?window=1m")).headers.get("etag")).toBe(before);
    expect((await (await stack.samplePass()).json()).data.status).toBe("ok");
    const after = await get("/api/predmkt/movers?window=1m", { "if-none-match": before });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(before);
  });

  it("-live answers: a weak ETag per upstream fetch, 304 within the TTL", async () => {
    const slug = stack.sim.summary().samples.multi_market_event_slugs[0];
    const path = `/api/predmkt/events/${slug}/history-live`;
    const first = await get(path);
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    const second = await get(path); // a cache hit: its own version (meta.cache "hit")
    const etag = second.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    expect(second.headers.get("cache-control")).toMatch(/^private, max-age=\d+$/);
    expect((await second.json()).meta.cache).toBe("hit");
    const revalidated = await get(path, { "if-none-match": etag });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe("");
    expect(revalidated.headers.get("x-ratelimit-remaining")).not.toBeNull();
  });
  /** One counter of /api/metrics, e.g. cache lookups of the gateway's replays. */
  async function counter(name: string, labels: Record<string, string>): Promise<number> {
    const text = await (await fetch(`${stack.app.url}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
    const line = text.split("\n").find((l) => l.startsWith(`${name}{`) && wanted.every((w) => l.includes(w)));
    return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : 0;
  }
  const replays = () => counter("predmkt_cache_lookups_total", { layer: "replay", outcome: "hit" });
  const served = (route: string, status: string) => counter("predmkt_http_requests_total", { route, status });

  it("the gateway replays an answer the route gave, with the route's bytes and headers, until the next pass", async () => {
    const path = "/api/predmkt/movers?window=1h&limit=7";
    const byRoute = await get(path);
    expect(byRoute.status).toBe(200);
    const body = await byRoute.text();
    const [replaysBefore, servedBefore] = [await replays(), await served("/api/predmkt/movers", "200")];

    const replayed = await get(path);
    expect(replayed.status).toBe(200);
    expect(await replayed.text()).toBe(body);
    expect(await replays()).toBe(replaysBefore + 1);
    // Counted like any answer (metrics here; usage and the limiter alike).
    expect(await served("/api/predmkt/movers", "200")).toBe(servedBefore + 1);
    const names = (res: Response) => [...res.headers.keys()].filter((n) => !["date", "connection", "keep-alive"].includes(n)).sort();
    expect(names(replayed)).toEqual(names(byRoute));
    for (const name of ["etag", "content-type", "x-api-tier", "access-control-allow-origin", "x-content-type-options"])
      expect(replayed.headers.get(name), name).toBe(byRoute.headers.get(name));
    expect(replayed.headers.get("cache-control")).toMatch(/^private, max-age=\d+$/);
    expect(replayed.headers.get("x-request-id")).not.toBe(byRoute.headers.get("x-request-id"));
    expect(Number(replayed.headers.get("x-ratelimit-remaining"))).toBe(Number(byRoute.headers.get("x-ratelimit-remaining")) - 1);

    // The credentials are not part of the request: a key in the query is the same request.
    const viaQuery = await fetch(`${stack.app.url}${path}&api_key=${stack.key}`);
    expect(await viaQuery.text()).toBe(body);
    const revalidated = await get(path, { "if-none-match": byRoute.headers.get("etag")! });
    expect(revalidated.status).toBe(304);
    expect(await replays()).toBe(replaysBefore + 3);

    // A new pass moves the version: the route answers again (new ETag), and that answer is replayed in turn.
    expect((await (await stack.samplePass()).json()).data.status).toBe("ok");
    const afterPass = await get(path);
    expect(afterPass.headers.get("etag")).not.toBe(byRoute.headers.get("etag"));
    const afterPassBody = await afterPass.text();
    expect(await replays()).toBe(replaysBefore + 3);
    const replayedAgain = await get(path);
    expect(replayedAgain.headers.get("etag")).toBe(afterPass.headers.get("etag"));
    expect(await replayedAgain.text()).toBe(afterPassBody);
    expect(await replays()).toBe(replaysBefore + 4);
  });

  it("what the gateway cannot replay exactly goes to the route: CSV by Accept, other parameters, bad parameters", async () => {
    const path = "/api/predmkt/trades?limit=5";
    expect((await get(path)).headers.get("content-type")).toBe("application/json");
    const before = await replays();
    const csv = await get(path, { accept: "text/csv" });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect((await get("/api/predmkt/trades?limit=6")).status).toBe(200);
    const refused = await get(`${path}&limit=5`);
    expect(refused.status).toBe(400);
    expect(await replays()).toBe(before);
  });
});
