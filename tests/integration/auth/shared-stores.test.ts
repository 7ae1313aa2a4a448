// Real PostgreSQL and Redis: two server processes share one database and one rate-limit store, so a key's limit holds
// across them — through self-hosted Redis (REDIS_URL) and through the Upstash REST protocol (local shim over Redis).
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratePostgres } from "@/lib/db/migrate-postgres";
import { startUpstashShim, type UpstashShim } from "@/sim/upstash/server";
import { createTestKey } from "../../helpers/keys";
import { type RunningApp, startApp } from "../../helpers/server";
import { POSTGRES_URL, postgresAvailable, REDIS_URL, redisAvailable } from "../../helpers/services";
import { burstInOneWindow, HELD_LIMITER_CLOCK } from "../../helpers/rate-window";

const servicesUp = (await postgresAvailable()) && (await redisAvailable());

describe.runIf(servicesUp)("PostgreSQL + shared rate-limit store across two server processes", () => {
  const dbName = `predmkt_it_${process.pid}_${Date.now()}`;
  const databaseUrl = Object.assign(new URL(POSTGRES_URL), { pathname: `/${dbName}` }).toString();
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  let shim: UpstashShim;
  const apps: RunningApp[] = [];
  const secrets = { JWT_SECRET: "integration-jwt-secret-0123456789abcdef", CRON_SECRET: "integration-cron-secret-0123456789abcdef" };

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await migratePostgres(databaseUrl);
    shim = await startUpstashShim({ redisUrl: REDIS_URL });
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.stop()));
    await shim?.close();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  });

  async function pair(store: Record<string, string>) {
    // A generous store timeout: this asserts the shared store's exactness, not the outage fallback (tested below).
    const env = { DATABASE_URL: databaseUrl, RATE_LIMIT_STARTER: "20", RATE_LIMIT_STORE_TIMEOUT_MS: "5000", ...secrets, ...store };
    const [a, b] = await Promise.all([startApp({ env }), startApp({ env })]);
    apps.push(a, b);
    return [a, b];
  }

  /** 50 parallel requests with a new key, half through each server; run again if it straddled a window's edge. */
  async function burst(a: RunningApp, b: RunningApp): Promise<{ key: string; statuses: number[] }> {
    let key = "";
    const responses = await burstInOneWindow(async () => {
      key = await createTestKey(a, "starter");
      return Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          fetch(`${(i % 2 ? a : b).url}/api/predmkt/x`, { headers: { authorization: `Bearer ${key}` } }),
        ),
      );
    });
    return { key, statuses: responses.map((r) => r.status) };
  }

  it.each([
    ["self-hosted Redis (REDIS_URL)", () => ({ REDIS_URL })],
    ["Upstash REST", () => ({ UPSTASH_REDIS_REST_URL: shim.url, UPSTASH_REDIS_REST_TOKEN: shim.token })],
  ])("through %s: 50 parallel requests split over two servers → exactly 20 pass", async (_name, store) => {
    const [a, b] = await pair(store());
    const health = await (await fetch(`${a.url}/api/health`)).json();
    expect(health.checks.database).toMatchObject({ ok: true, kind: "postgresql" });
    expect(health.checks.rate_limit_store.ok).toBe(true);
    const { key, statuses } = await burst(a, b);
    expect(statuses.filter((s) => s === 404)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    // The key issued through one server's database is known to the other: one PostgreSQL behind both.
    const token = await (await fetch(`${b.url}/api/auth/token`, { method: "POST", headers: { authorization: `Bearer ${key}` } })).json();
    expect(token.code).toBe("rate_limited");
  });

  it("a token minted by one server is accepted by the other (shared JWT_SECRET)", async () => {
    const [a, b] = await pair({ REDIS_URL });
    const key = await createTestKey(a, "pro");
    const { token } = await (
      await fetch(`${a.url}/api/auth/token`, { method: "POST", headers: { authorization: `Bearer ${key}` } })
    ).json();
    const res = await fetch(`${b.url}/api/predmkt/x?token=${token}`);
    expect(res.status).toBe(404);
    expect(res.headers.get("x-api-tier")).toBe("pro");
  });
});

describe("rate-limit store unreachable", () => {
  let app: RunningApp;
  beforeAll(async () => {
    // Nothing listens on port 9: every store call fails fast, as when Upstash is down.
    // Counted in process then, on a held clock: the test's seven requests fall in one window.
    app = await startApp({
      env: { UPSTASH_REDIS_REST_URL: "http://127.0.0.1:9", UPSTASH_REDIS_REST_TOKEN: "x", RATE_LIMIT_STARTER: "5", ...HELD_LIMITER_CLOCK },
    });
  });
  afterAll(() => app?.stop());

  it("serves requests, still limits per instance, and reports degraded health — never a 500 or a hang", async () => {
    const key = await createTestKey(app, "starter");
    const started = Date.now();
    const statuses = [];
    for (let i = 0; i < 7; i++) {
      const res = await fetch(`${app.url}/api/predmkt/x`, { headers: { authorization: `Bearer ${key}` } });
      statuses.push(res.status);
      expect(res.headers.get("x-ratelimit-limit")).toBe("5");
    }
    expect(statuses).toEqual([404, 404, 404, 404, 404, 429, 429]);
    expect(Date.now() - started).toBeLessThan(10_000);
    const health = await fetch(`${app.url}/api/health`);
    expect(health.status).toBe(200);
    const report = await health.json();
    expect(report).toMatchObject({
      status: "degraded",
      checks: { rate_limit_store: { ok: false, kind: "upstash", error: "unreachable" } },
    });
    // The public health check names no hosts, ports or driver messages.
    expect(JSON.stringify(report)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|fetch failed/);
  });
});
