// Usage metering end to end: counts equal the requests made (429s included), a short-lived token's requests are its
// parent key's, totals survive a restart (flushed at shutdown), and two server processes sharing Redis and
// PostgreSQL add up to one set of figures (README "API keys", usage).
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratePostgres } from "@/lib/db/migrate-postgres";
import { createTestKey } from "../../helpers/keys";
import { keysCli } from "../../helpers/keys-cli";
import { type RunningApp, startApp } from "../../helpers/server";
import { POSTGRES_URL, postgresAvailable, REDIS_URL, redisAvailable } from "../../helpers/services";
import { pollUntil } from "../../helpers/poll";
import { burstInOneWindow, HELD_LIMITER_CLOCK } from "../../helpers/rate-window";

interface UsageBody {
  data: {
    key: { id: string; prefix: string; tier: string };
    limit: { requests_per_minute: number; window_s: number };
    current_minute: { start: string; requests: number; rate_limited: number };
    days: {
      date: string;
      requests: number;
      rate_limited: number;
      operations: { operation: string; requests: number; by_status: Record<string, number> }[];
    }[];
  };
}

interface Summary {
  prefix: string;
  requests: number;
  rate_limited: number;
  peak_per_minute: number;
  limit_per_minute: number;
  top_operations: { operation: string; requests: number }[];
}

/** Requests per operation summed over every day of a usage answer. */
function perOperation(body: UsageBody): Record<string, { requests: number; by_status: Record<string, number> }> {
  const out: Record<string, { requests: number; by_status: Record<string, number> }> = {};
  for (const day of body.data.days) {
    for (const op of day.operations) {
      const entry = (out[op.operation] ??= { requests: 0, by_status: { "2xx": 0, "4xx": 0, "429": 0, "5xx": 0 } });
      entry.requests += op.requests;
      for (const [cls, n] of Object.entries(op.by_status)) entry.by_status[cls] += n;
    }
  }
  return out;
}

async function usageOf(app: RunningApp, credential: string): Promise<UsageBody> {
  const res = await fetch(`${app.url}/api/auth/usage`, { headers: { authorization: `Bearer ${credential}` } });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as UsageBody;
}

async function cliUsage(app: RunningApp, target?: string, env: Record<string, string> = {}): Promise<Summary[]> {
  const result = await keysCli(app, ["usage", ...(target ? [target] : []), "--since", "1d", "--json"], env);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Summary[];
}

describe("usage on one server (embedded database, in-memory counters)", () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "predmkt-usage-"));
  // The limiter's clock held: the 45 requests of the limit test count in one window.
  const env = { RATE_LIMIT_STARTER: "40", ...HELD_LIMITER_CLOCK };
  let app: RunningApp;
  let key: string;
  let token: string;

  beforeAll(async () => {
    app = await startApp({ dataDir, env });
    key = await createTestKey(app, "starter", "usage test");
  });
  afterAll(async () => {
    await app?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("counts every request per operation and status class; a token's requests are its parent key's", async () => {
    const exchanged = await fetch(`${app.url}/api/auth/token`, { method: "POST", headers: { authorization: `Bearer ${key}` } });
    expect(exchanged.status).toBe(200);
    token = (await exchanged.json()).token;
    for (let i = 0; i < 5; i++) expect((await fetch(`${app.url}/api/predmkt/nothing-${i}?token=${token}`)).status).toBe(404);
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`${app.url}/api/predmkt/nothing-${i}`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(404);
    }
    const viaKey = await usageOf(app, key);
    expect(viaKey.data.key.prefix).toBe(key.slice(0, 12));
    expect(viaKey.data.limit).toEqual({ requests_per_minute: 40, window_s: 60 });
    const ops = perOperation(viaKey);
    expect(ops["GET /api/{path}"]).toEqual({ requests: 11, by_status: { "2xx": 0, "4xx": 11, "429": 0, "5xx": 0 } });
    expect(ops["POST /api/auth/token"]).toEqual({ requests: 1, by_status: { "2xx": 1, "4xx": 0, "429": 0, "5xx": 0 } });

    // Asked with the token, the answer is the parent key's, and it counts the first usage call too.
    const viaToken = await usageOf(app, token);
    expect(viaToken.data.key.id).toBe(viaKey.data.key.id);
    expect(perOperation(viaToken)["GET /api/{path}"].requests).toBe(11);
    expect(perOperation(viaToken)["GET /api/auth/usage"].by_status["2xx"]).toBe(1);
  });

  it("counts the requests the limiter refuses as 429s", async () => {
    const limited = await createTestKey(app, "starter", "usage limited");
    const statuses: number[] = [];
    for (let i = 0; i < 45; i++) {
      statuses.push((await fetch(`${app.url}/api/predmkt/x`, { headers: { authorization: `Bearer ${limited}` } })).status);
    }
    const refused = statuses.filter((s) => s === 429).length;
    expect(refused).toBe(5);
    // The 429s were all spent, so the usage endpoint itself is refused this minute: the operator's view reads it.
    const [summary] = await pollUntil(
      () => cliUsage(app, limited.slice(0, 12)),
      ([s]) => s.requests === 45,
      20_000,
      500,
    );
    expect(summary.rate_limited).toBe(refused);
    expect(summary.top_operations).toEqual([{ operation: "GET /api/{path}", requests: 45 }]);
  });

  it("totals survive a restart: the last batch is flushed at shutdown", async () => {
    const before = perOperation(await usageOf(app, key));
    await app.stop();
    app = await startApp({ dataDir, env });
    const after = perOperation(await usageOf(app, key));
    expect(after["GET /api/{path}"]).toEqual(before["GET /api/{path}"]);
    expect(after["POST /api/auth/token"]).toEqual(before["POST /api/auth/token"]);
    // The usage call made just before the restart is in too (an answer never counts the request it answers).
    expect(after["GET /api/auth/usage"].requests).toBe(before["GET /api/auth/usage"].requests + 1);
  });
});

const servicesUp = (await postgresAvailable()) && (await redisAvailable());

describe.runIf(servicesUp)("usage across two server processes sharing Redis and PostgreSQL", () => {
  const dbName = `predmkt_usage_${process.pid}_${Date.now()}`;
  const databaseUrl = Object.assign(new URL(POSTGRES_URL), { pathname: `/${dbName}` }).toString();
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  const apps: RunningApp[] = [];
  const secrets = { JWT_SECRET: "integration-jwt-secret-0123456789abcdef", CRON_SECRET: "integration-cron-secret-0123456789abcdef" };
  // The operator's CLI runs with the deployment's settings: its secrets and its tier limits.
  const cliEnv = { ...secrets, RATE_LIMIT_STARTER: "20" };

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await migratePostgres(databaseUrl);
    // Both servers flush every 250 ms instead of 5 s, so the test awaits flushes instead of sitting out the interval.
    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      RATE_LIMIT_STARTER: "20",
      RATE_LIMIT_STORE_TIMEOUT_MS: "5000",
      USAGE_FLUSH_MS: "250",
      ...secrets,
    };
    apps.push(...(await Promise.all([startApp({ env }), startApp({ env })])));
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.stop()));
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  });

  it("50 parallel requests split over both servers: usage is exactly 20 served and 30 refused, keys near the limit first", async () => {
    const [a, b] = apps;
    // The shared store counts on its own clock: a burst that straddled a window's edge is run again with a new key.
    let busy = "";
    const statuses = (
      await burstInOneWindow(async () => {
        busy = await createTestKey(a, "starter", "busy");
        return Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            fetch(`${(i % 2 ? a : b).url}/api/predmkt/x`, { headers: { authorization: `Bearer ${busy}` } }),
          ),
        );
      })
    ).map((r) => r.status);
    const quiet = await createTestKey(a, "starter", "quiet");
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    for (let i = 0; i < 3; i++)
      expect((await fetch(`${b.url}/api/predmkt/x`, { headers: { authorization: `Bearer ${quiet}` } })).status).toBe(404);

    // Both processes push their counts into one Redis hash; whichever flushes next moves it into PostgreSQL.
    const summaries = await pollUntil(
      () => cliUsage(a, undefined, cliEnv),
      (list) =>
        list.find((s) => s.prefix === busy.slice(0, 12))?.requests === 50 &&
        list.find((s) => s.prefix === quiet.slice(0, 12))?.requests === 3,
      30_000,
      500,
    );
    const busyRow = summaries.find((s) => s.prefix === busy.slice(0, 12))!;
    expect(busyRow.rate_limited).toBe(30);
    expect(busyRow.limit_per_minute).toBe(20);
    expect(summaries.findIndex((s) => s.prefix === busy.slice(0, 12))).toBeLessThan(
      summaries.findIndex((s) => s.prefix === quiet.slice(0, 12)),
    );
    // And nothing more arrives later: each count was moved to the database once. A request on each server with a third
    // key marks a later flush of each: a flush moves all a process holds at once, so when both marks are in the
    // database, anything either server still held of the others is too.
    const marker = await createTestKey(a, "starter", "marker");
    for (const server of apps)
      expect((await fetch(`${server.url}/api/predmkt/x`, { headers: { authorization: `Bearer ${marker}` } })).status).toBe(404);
    const settled = await pollUntil(
      () => cliUsage(a, undefined, cliEnv),
      (list) => list.find((s) => s.prefix === marker.slice(0, 12))?.requests === 2,
      30_000,
      250,
      "a flush of each server after the counts were in",
    );
    expect(settled.find((s) => s.prefix === busy.slice(0, 12))!.requests).toBe(50);
    expect(settled.find((s) => s.prefix === quiet.slice(0, 12))!.requests).toBe(3);
  });
});
