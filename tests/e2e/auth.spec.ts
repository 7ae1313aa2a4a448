// The browser never holds an API key: it gets short-lived JWTs from /api/dashboard/token, renews them before they
// expire, and recovers when the API says a token has expired.
import { randomUUID } from "node:crypto";
import { decodeJwt, SignJWT } from "jose";
import { api, jwtSecret } from "./stack";
import { API_KEY_PATTERN, expect, expectNoKeyInSource, open, test } from "./fixtures";

test("no page's source or traffic carries an API key; API calls carry a JWT", async ({ page, traffic }) => {
  for (const path of ["/", "/movers", "/whales", "/oracle", "/docs", "/trades"]) {
    await open(page, path);
    await expectNoKeyInSource(page);
  }
  // The tape follows the live stream (EventSource cannot send headers): opened with the token in the URL.
  await expect.poll(() => traffic.apiCalls.some((u) => u.pathname === "/api/predmkt/stream")).toBe(true);
  const call = traffic.apiCalls.find((u) => u.pathname === "/api/predmkt/stream")!;
  expect(call.searchParams.get("token")).toMatch(/^eyJ/);
  expect(call.toString()).not.toMatch(API_KEY_PATTERN);
  expect(traffic.tokenFetches).toBeGreaterThan(0);
  const token = await (await page.request.get("/api/dashboard/token")).json();
  expect(token.token_type).toBe("Bearer");
  expect(token.expires_in).toBeLessThanOrEqual(300);
});

test("the token route answers no-store tokens for the dashboard key", async ({ request }) => {
  const response = await request.get("/api/dashboard/token");
  expect(response.status()).toBe(200);
  expect(response.headers()["cache-control"]).toBe("no-store");
  const body = await response.json();
  const claims = decodeJwt(body.token);
  expect(claims.tier).toBe("enterprise");
  expect((claims.exp as number) - (claims.iat as number)).toBe(300);
  expect(Date.parse(body.expires_at)).toBe((claims.exp as number) * 1000);
});

test("a token is renewed before it expires", async ({ page, traffic }) => {
  let served = 0;
  const tokens: string[] = [];
  await page.route("**/api/dashboard/token", async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    tokens.push(body.token);
    // The first token claims to expire in 32 s: the client must renew it about 30 s early, i.e. right away.
    if (served++ === 0) body.expires_in = 32;
    await route.fulfill({ response, json: body });
  });
  await open(page, "/");
  await expect.poll(() => traffic.tokenFetches, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
  const call = page.waitForRequest((r) => r.url().includes("/api/predmkt/events?"));
  await page.getByLabel("Sort by").selectOption("volume");
  const used = new URL((await call).url()).searchParams.get("token");
  expect(used).toBe(tokens[tokens.length - 1]);
  expect(used).not.toBe(tokens[0]);
});

test("an expired token is replaced and the request retried", async ({ page, traffic }) => {
  const real = await (await page.request.get("/api/dashboard/token")).json();
  const { sub, tier } = decodeJwt(real.token);
  const past = Math.floor(Date.now() / 1000) - 600;
  const expired = await new SignJWT({ tier })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer("predmkt-api")
    .setAudience("predmkt-api")
    .setSubject(sub!)
    .setJti(randomUUID())
    .setIssuedAt(past)
    .setNotBefore(past)
    .setExpirationTime(past + 300)
    .sign(new TextEncoder().encode(jwtSecret()));

  let served = 0;
  await page.route("**/api/dashboard/token", async (route) => {
    // The first token the page gets has already expired (as after a laptop slept through its renewal).
    if (served++ === 0)
      return route.fulfill({
        json: { token: expired, token_type: "Bearer", expires_in: 300, expires_at: new Date(Date.now() + 300_000).toISOString() },
      });
    return route.continue();
  });
  const byLiquidity = await api<{ data: { title: string }[] }>("/api/predmkt/events?order=liquidity&limit=20");
  await open(page, "/");
  const refusal = page.waitForResponse((r) => r.status() === 401 && r.url().includes("/api/predmkt/events?"));
  const retried = page.waitForResponse((r) => r.status() === 200 && r.url().includes("/api/predmkt/events?"));
  await page.getByLabel("Sort by").selectOption("liquidity");
  expect(new URL((await refusal).url()).searchParams.get("token")).toBe(expired);
  expect((await (await refusal).json()).code).toBe("token_expired");
  expect(new URL((await retried).url()).searchParams.get("token")).not.toBe(expired);
  await expect(page.getByTestId("events-table").locator("tbody tr").first().getByRole("link")).toHaveText(byLiquidity.data[0].title);
  expect(traffic.tokenFetches).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId("query-notice")).toHaveCount(0);
});
