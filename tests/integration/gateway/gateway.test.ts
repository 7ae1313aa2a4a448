// The gateway end to end on the real production server with its embedded database.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestKey, revokeTestKey } from "../../helpers/keys";
import { untilRefused } from "../../helpers/poll";
import { type RunningApp, startApp } from "../../helpers/server";
import { HELD_LIMITER_CLOCK } from "../../helpers/rate-window";

let app: RunningApp;
let proKey: string;

beforeAll(async () => {
  // The limiter's clock held: the tests that count a key's requests to its limit never meet a window's edge.
  app = await startApp({
    env: { RATE_LIMIT_STARTER: "20", RATE_LIMIT_ANONYMOUS_PER_IP: "1000", KEY_CACHE_TTL_S: "1", ...HELD_LIMITER_CLOCK },
  });
  proKey = await createTestKey(app, "pro");
});
afterAll(() => app?.stop());

const RATE_HEADERS = ["x-api-tier", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "ratelimit-policy", "ratelimit"];

async function expectProblem(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  const body = await res.json();
  expect(body).toMatchObject({
    type: expect.any(String),
    title: expect.any(String),
    status,
    detail: expect.any(String),
    code,
    request_id: expect.any(String),
  });
  expect(res.headers.get("x-request-id")).toBe(body.request_id);
  return body;
}

describe("credentials", () => {
  it("no credentials → 401 missing_credentials with WWW-Authenticate", async () => {
    for (const path of ["/api/predmkt/stats", "/api/oracle/summary", "/api/predmkt/events/some-event/activity-live"]) {
      const res = await fetch(app.url + path);
      await expectProblem(res, 401, "missing_credentials");
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer realm="api"/);
    }
  });

  it("unknown, malformed and revoked keys → 401 with their own codes", async () => {
    await expectProblem(
      await fetch(`${app.url}/api/predmkt/x`, { headers: { authorization: `Bearer pmk_${"x".repeat(40)}` } }),
      401,
      "invalid_api_key",
    );
    await expectProblem(await fetch(`${app.url}/api/predmkt/x`, { headers: { authorization: "Bearer pm_short" } }), 401, "invalid_api_key");
    await expectProblem(await fetch(`${app.url}/api/predmkt/x`, { headers: { authorization: "Basic abc" } }), 401, "invalid_api_key");
    await expectProblem(await fetch(`${app.url}/api/predmkt/x?api_key=${encodeURIComponent(" " + proKey)}`), 401, "invalid_api_key");
    const key = await createTestKey(app, "starter");
    expect((await fetch(`${app.url}/api/predmkt/x`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(404);
    await revokeTestKey(app, key);
    // KEY_CACHE_TTL_S=1 in this server: refused within that second (and a margin).
    const res = await untilRefused(() => fetch(`${app.url}/api/predmkt/x`, { headers: { authorization: `Bearer ${key}` } }));
    await expectProblem(res, 401, "revoked_api_key");
    expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("the key works as a Bearer header and as ?api_key=; the header wins over the query", async () => {
    const viaHeader = await fetch(`${app.url}/api/predmkt/x`, { headers: { authorization: `Bearer ${proKey}` } });
    expect(viaHeader.status).toBe(404);
    expect(viaHeader.headers.get("x-api-tier")).toBe("pro");
    const viaQuery = await fetch(`${app.url}/api/predmkt/x?api_key=${proKey}`);
    expect(viaQuery.status).toBe(404);
    const starter = await createTestKey(app, "starter");
    const both = await fetch(`${app.url}/api/predmkt/x?api_key=${starter}`, { headers: { authorization: `Bearer ${proKey}` } });
    expect(both.headers.get("x-api-tier")).toBe("pro");
    const badHeaderGoodQuery = await fetch(`${app.url}/api/predmkt/x?api_key=${proKey}`, {
      headers: { authorization: `Bearer pmk_${"y".repeat(40)}` },
    });
    await expectProblem(badHeaderGoodQuery, 401, "invalid_api_key");
  });

  it("a forged internal gateway header gets nothing served", async () => {
    const forged = {
      "x-predmkt-gateway": `${Date.now()}.00000000-0000-4000-8000-000000000000.enterprise.api_key.AAAA`,
      "x-request-id": "forged",
      "x-middleware-subrequest": "proxy:proxy:proxy:proxy:proxy",
    };
    await expectProblem(await fetch(`${app.url}/api/auth/token`, { method: "POST", headers: forged }), 401, "missing_credentials");
    await expectProblem(await fetch(`${app.url}/api/predmkt/stats`, { headers: forged }), 401, "missing_credentials");
  });
});

describe("errors and headers", () => {
  it("every authenticated response carries the rate-limit headers and X-Request-Id, errors too", async () => {
    const notFound = await fetch(`${app.url}/api/predmkt/no/such/path`, { headers: { authorization: `Bearer ${proKey}` } });
    await expectProblem(notFound, 404, "not_found");
    for (const h of RATE_HEADERS) expect(notFound.headers.get(h), h).toBeTruthy();
    expect(notFound.headers.get("ratelimit-policy")).toBe('"apikey";q=600;w=60');
    const wrongMethod = await fetch(`${app.url}/api/predmkt/stats`, { method: "DELETE", headers: { authorization: `Bearer ${proKey}` } });
    await expectProblem(wrongMethod, 405, "method_not_allowed");
    expect(wrongMethod.headers.get("allow")).toContain("GET");
    for (const h of RATE_HEADERS) expect(wrongMethod.headers.get(h), h).toBeTruthy();
    const getToken = await fetch(`${app.url}/api/auth/token`, { headers: { authorization: `Bearer ${proKey}` } });
    await expectProblem(getToken, 405, "method_not_allowed");
  });

  it("unknown paths outside the gated areas are 404 problem+json too; writes to public routes are 405", async () => {
    await expectProblem(await fetch(`${app.url}/api/nothing-here`), 404, "not_found");
    for (const path of ["/api/health", "/api/ping", "/api/openapi.json", "/api/dashboard/token"]) {
      const res = await fetch(`${app.url}${path}`, { method: "POST" });
      await expectProblem(res, 405, "method_not_allowed");
      expect(res.headers.get("allow")).toContain("GET");
    }
  });

  it("health and the OpenAPI document need no key", async () => {
    const health = await fetch(`${app.url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({
      status: "ok",
      checks: { database: { ok: true, kind: "pglite" }, rate_limit_store: { ok: true, kind: "memory" } },
    });
    const doc = await (await fetch(`${app.url}/api/openapi.json`)).json();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)[0]).toBe("/api/auth/token");
    expect(doc.components.securitySchemes).toHaveProperty("ApiKeyBearer");
    expect(doc.components.schemas).toHaveProperty("Problem");
    expect(doc.components.headers).toHaveProperty("X-RateLimit-Limit");
  });

  it("CORS preflight is answered for browser widgets", async () => {
    const res = await fetch(`${app.url}/api/predmkt/stats`, {
      method: "OPTIONS",
      headers: { origin: "https://example.org", "access-control-request-method": "GET" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")).toContain("Authorization");
  });
});

describe("rate limits", () => {
  it("50 parallel requests on a key with limit 20 → exactly 20 pass, the rest 429 with Retry-After", async () => {
    const key = await createTestKey(app, "starter");
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => fetch(`${app.url}/api/predmkt/x`, { headers: { authorization: `Bearer ${key}` } })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 404)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    const limited = responses.find((r) => r.status === 429)!;
    const body = await expectProblem(limited, 429, "rate_limited");
    expect(body.detail).toContain("20");
    const retryAfter = Number(limited.headers.get("retry-after"));
    const reset = Number(limited.headers.get("x-ratelimit-reset"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Retry-After points at the window reset the other headers announce.
    expect(Math.abs(Math.ceil(Date.now() / 1000) + retryAfter - reset)).toBeLessThanOrEqual(2);
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(limited.headers.get("x-ratelimit-limit")).toBe("20");
  });

  it("requests without valid credentials are limited per client address; a right key is still served", async () => {
    // One trusted proxy in front (TRUST_PROXY=1): the X-Forwarded-For entry it appended is the client.
    const limited = await startApp({
      env: { TRUST_PROXY: "1", RATE_LIMIT_ANONYMOUS_PER_IP: "5", RATE_LIMIT_DASHBOARD_PER_IP: "3", ...HELD_LIMITER_CLOCK },
    });
    try {
      const validKey = await createTestKey(limited, "pro");
      // Only the rightmost X-Forwarded-For entry (added by the proxy in front of us) counts: varying the entries a
      // client prepends buys no fresh budget.
      const from = (i: number, address = "198.51.100.7") => ({ "x-forwarded-for": `10.0.0.${i}, ${address}` });
      const statuses = [];
      for (let i = 0; i < 8; i++) {
        statuses.push(
          (await fetch(`${limited.url}/api/predmkt/x`, { headers: { authorization: `Bearer pmk_${String(i).repeat(40)}`, ...from(i) } }))
            .status,
        );
      }
      expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
      expect(statuses.slice(5)).toEqual([429, 429, 429]);
      const anonymous = await fetch(`${limited.url}/api/predmkt/x`, { headers: from(9) });
      expect(anonymous.status).toBe(429);
      expect(Number(anonymous.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      // The guessing budget only ever counts failed credentials: a valid key from that address is served.
      const rightKey = await fetch(`${limited.url}/api/predmkt/x`, {
        headers: { authorization: `Bearer ${validKey}`, ...from(10) },
      });
      expect(rightKey.status).toBe(404);
      // Another address is unaffected.
      const elsewhere = await fetch(`${limited.url}/api/predmkt/x`, {
        headers: { authorization: `Bearer pmk_${"Z".repeat(40)}`, "x-forwarded-for": "203.0.113.9" },
      });
      expect(elsewhere.status).toBe(401);

      // Dashboard tokens are shared by every visitor: each address gets its own slice of the dashboard key.
      const { token } = await (await fetch(`${limited.url}/api/dashboard/token`, { headers: { "x-forwarded-for": "192.0.2.50" } })).json();
      const dash = [];
      for (let i = 0; i < 5; i++)
        dash.push(
          (await fetch(`${limited.url}/api/predmkt/stats?token=${token}`, { headers: { "x-forwarded-for": "192.0.2.50" } })).status,
        );
      expect(dash).toEqual([200, 200, 200, 429, 429]);
      // Tokens are bound to the address that minted them: another visitor uses its own.
      const other = { "x-forwarded-for": "192.0.2.51" };
      expect((await fetch(`${limited.url}/api/predmkt/stats?token=${token}`, { headers: other })).status).toBe(401);
      const { token: own } = await (await fetch(`${limited.url}/api/dashboard/token`, { headers: other })).json();
      const otherVisitor = await fetch(`${limited.url}/api/predmkt/stats?token=${own}`, { headers: other });
      expect(otherVisitor.status).toBe(200);
    } finally {
      await limited.stop();
    }
  });
});

describe("token exchange", () => {
  it("exchanges a key for a JWT that works as ?token= and as a Bearer value, counting against the key", async () => {
    const key = await createTestKey(app, "starter");
    const res = await fetch(`${app.url}/api/auth/token`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ ttl_seconds: 120 }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.json();
    expect(body).toMatchObject({ token: expect.any(String), token_type: "Bearer", expires_in: 120 });
    expect(Math.abs(Date.parse(body.expires_at) - (Date.now() + 120_000))).toBeLessThan(3000);
    expect(Number(res.headers.get("x-ratelimit-remaining"))).toBe(19);

    const viaQuery = await fetch(`${app.url}/api/predmkt/x?token=${body.token}`);
    expect(viaQuery.status).toBe(404);
    expect(viaQuery.headers.get("x-api-tier")).toBe("starter");
    expect(Number(viaQuery.headers.get("x-ratelimit-remaining"))).toBe(18);
    const viaBearer = await fetch(`${app.url}/api/predmkt/x`, { headers: { authorization: `Bearer ${body.token}` } });
    expect(Number(viaBearer.headers.get("x-ratelimit-remaining"))).toBe(17);

    // A token cannot mint tokens.
    await expectProblem(await fetch(`${app.url}/api/auth/token?token=${body.token}`, { method: "POST" }), 401, "invalid_token");
    // Revoking the key kills its tokens.
    await revokeTestKey(app, key);
    await expectProblem(await untilRefused(() => fetch(`${app.url}/api/predmkt/x?token=${body.token}`)), 401, "revoked_api_key");
  });

  it("accepts the key in the JSON body or the query; default ttl 900; bounds enforced", async () => {
    const viaBody = await fetch(`${app.url}/api/auth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ api_key: proKey }),
    });
    expect(viaBody.status).toBe(200);
    expect((await viaBody.json()).expires_in).toBe(900);
    const viaQuery = await fetch(`${app.url}/api/auth/token?api_key=${proKey}`, { method: "POST" });
    expect(viaQuery.status).toBe(200);
    for (const ttl of [59, 3601, "abc"]) {
      const res = await fetch(`${app.url}/api/auth/token`, {
        method: "POST",
        headers: { authorization: `Bearer ${proKey}`, "content-type": "application/json" },
        body: JSON.stringify({ ttl_seconds: ttl }),
      });
      const problem = await expectProblem(res, 400, "invalid_parameter");
      expect(problem.errors[0].parameter).toBe("ttl_seconds");
    }
    const malformed = await fetch(`${app.url}/api/auth/token`, {
      method: "POST",
      headers: { authorization: `Bearer ${proKey}`, "content-type": "application/json" },
      body: "{not json",
    });
    await expectProblem(malformed, 400, "invalid_parameter");
    const huge = await fetch(`${app.url}/api/auth/token`, {
      method: "POST",
      headers: { authorization: `Bearer ${proKey}`, "content-type": "application/json" },
      body: JSON.stringify({ pad: "x".repeat(100_000) }),
    });
    await expectProblem(huge, 413, "payload_too_large");
  });

  it("expired and tampered tokens are refused with their codes", async () => {
    const { signAccessToken } = await import("@/lib/auth/jwt");
    const { readFileSync } = await import("node:fs");
    const secret = JSON.parse(readFileSync(`${app.dataDir}/secrets.json`, "utf8")).JWT_SECRET as string;
    const expired = await signAccessToken("00000000-0000-4000-8000-000000000000", "pro", 60, Date.now() - 3_600_000, secret);
    await expectProblem(await fetch(`${app.url}/api/predmkt/x?token=${expired.token}`), 401, "token_expired");
    const res = await fetch(`${app.url}/api/auth/token`, { method: "POST", headers: { authorization: `Bearer ${proKey}` } });
    const { token } = await res.json();
    const tampered = token.slice(0, -3) + (token.endsWith("A") ? "BBB" : "AAA");
    await expectProblem(await fetch(`${app.url}/api/predmkt/x?token=${tampered}`), 401, "invalid_token");
  });
});
