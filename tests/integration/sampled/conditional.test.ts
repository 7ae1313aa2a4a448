// Conditional requests end to end, through the gateway of the production server: a 304 has no body but still
// carries the request id and every rate-limit header, and counts against the key's budget like any request.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Stack, startStack } from "../../helpers/stack";

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
    stack = await startStack({ chains: false });
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
});
