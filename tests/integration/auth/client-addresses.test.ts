// Findings 1-3 against the real server (scripts/server.mjs, as `npm start` runs it): who the client is, and budgets
// in the right order. A second client is a second loopback source address (127.0.0.2).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestKey } from "../../helpers/keys";
import { request } from "../../helpers/http";
import { type RunningApp, startApp } from "../../helpers/server";
import { HELD_LIMITER_CLOCK } from "../../helpers/rate-window";

const badKey = (i: number) => `Bearer pmk_${String(i % 10).repeat(40)}`;

describe("TRUST_PROXY=none (the default): the address is the connection's", () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp({
      env: {
        RATE_LIMIT_ANONYMOUS_PER_IP: "5",
        RATE_LIMIT_DASHBOARD_PER_IP: "5",
        RATE_LIMIT_ENTERPRISE: "12",
        KEY_CACHE_TTL_S: "30",
        ...HELD_LIMITER_CLOCK,
      },
    });
  });
  afterAll(() => app?.stop());

  it("forged X-Forwarded-For, X-Real-IP and peer headers buy no fresh budget", async () => {
    const statuses = [];
    for (let i = 0; i < 8; i++) {
      const res = await request(`${app.url}/api/predmkt/stats`, {
        headers: {
          authorization: badKey(i),
          "x-forwarded-for": `203.0.113.${i}`,
          "x-real-ip": `198.51.100.${i}`,
          "x-predmkt-peer": `192.0.2.${i}`,
          "x-predmkt-peer-proof": "guessed",
        },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    // Another connection address has its own budget.
    expect(
      (await request(`${app.url}/api/predmkt/stats`, { localAddress: "127.0.0.2", headers: { authorization: badKey(1) } })).status,
    ).toBe(401);
  });

  it("a valid key is served after a bad-key flood from its own address", async () => {
    const key = await createTestKey(app, "pro");
    // 127.0.0.1 spent its guessing budget in the test above; flood some more.
    for (let i = 0; i < 20; i++) await request(`${app.url}/api/predmkt/stats`, { headers: { authorization: badKey(i) } });
    const res = await request(`${app.url}/api/predmkt/stats`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    // ... while a bad key from there still waits.
    expect((await request(`${app.url}/api/predmkt/stats`, { headers: { authorization: badKey(3) } })).status).toBe(429);
  });

  it("one address past its dashboard slice leaves the dashboard working for another address", async () => {
    const { token } = JSON.parse((await request(`${app.url}/api/dashboard/token`, { localAddress: "127.0.0.3" })).body);
    const first = [];
    // The shared key allows 12/min. The first client keeps going far past its slice of 5.
    for (let i = 0; i < 30; i++)
      first.push((await request(`${app.url}/api/predmkt/stats?token=${token}`, { localAddress: "127.0.0.3" })).status);
    expect(first.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(first.slice(5))).toEqual(new Set([429]));
    // A token is bound to the address that minted it: the other visitor gets its own (and not the first one's).
    expect((await request(`${app.url}/api/predmkt/stats?token=${token}`, { localAddress: "127.0.0.4" })).status).toBe(401);
    const own = JSON.parse((await request(`${app.url}/api/dashboard/token`, { localAddress: "127.0.0.4" })).body).token;
    const second = await request(`${app.url}/api/predmkt/stats?token=${own}`, { localAddress: "127.0.0.4" });
    expect(second.status).toBe(200);
  });
});

describe("TRUST_PROXY=1 (one proxy in front, e.g. nginx)", () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp({ env: { TRUST_PROXY: "1", RATE_LIMIT_ANONYMOUS_PER_IP: "4", ...HELD_LIMITER_CLOCK } });
  });
  afterAll(() => app?.stop());

  const from = (xff: string, i = 0) =>
    request(`${app.url}/api/predmkt/stats`, { headers: { authorization: badKey(i), "x-forwarded-for": xff } });

  it("the address the proxy appended is used; what the client prepended is not", async () => {
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await from(`10.9.9.${i}, 198.51.100.20`, i)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    expect((await from("198.51.100.21")).status).toBe(401);
  });

  it("equivalent spellings of one address share one budget; an IPv6 /64 is one client", async () => {
    const v4 = ["198.51.100.30", "::ffff:198.51.100.30", "198.51.100.30:5555", "[::ffff:198.51.100.30]:80", "198.51.100.30"];
    expect(await Promise.all(v4.map(async (a, i) => (await from(a, i)).status))).toContain(429);
    const sequential = [];
    for (const [i, a] of [
      "2001:db8:5:6::1",
      "2001:db8:5:6::2",
      "2001:db8:5:6:ffff::9",
      "[2001:db8:5:6::10]:443",
      "2001:db8:5:6::11",
    ].entries()) {
      sequential.push((await from(a, i)).status);
    }
    expect(sequential).toEqual([401, 401, 401, 401, 429]);
    expect((await from("2001:db8:5:7::1")).status).toBe(401);
  });

  it("one /48 with dashboard tokens: 100 of its /64s mint and spend, and the network gets one slice a minute", async () => {
    const via = (i: number) => ({ headers: { "x-forwarded-for": `2001:db8:48:${(i + 1).toString(16)}::1` } });
    const minted: Record<number, number> = {};
    const tokens: { i: number; token: string }[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await request(`${app.url}/api/dashboard/token`, via(i));
      minted[res.status] = (minted[res.status] ?? 0) + 1;
      if (res.status === 200) tokens.push({ i, token: JSON.parse(res.body).token });
    }
    const served: Record<number, number> = {};
    for (let round = 0; round < 3; round++) {
      for (const { i, token } of tokens) {
        const res = await request(`${app.url}/api/predmkt/stats?token=${token}`, via(i));
        served[res.status] = (served[res.status] ?? 0) + 1;
      }
    }
    console.log(`one /48, 100 /64s, within one minute: tokens ${JSON.stringify(minted)}; requests ${JSON.stringify(served)}`);
    // DASHBOARD_TOKEN_PER_IP_PER_MINUTE and RATE_LIMIT_DASHBOARD_PER_IP (60 each), per /48 for IPv6.
    expect(minted).toEqual({ 200: 60, 429: 40 });
    expect(served).toEqual({ 200: 60, 429: tokens.length * 3 - 60 });
    // Another /48 has its own.
    const other = { headers: { "x-forwarded-for": "2001:db8:49:1::1" } };
    const { token } = JSON.parse((await request(`${app.url}/api/dashboard/token`, other)).body);
    expect((await request(`${app.url}/api/predmkt/stats?token=${token}`, other)).status).toBe(200);
  }, 120_000);
});
