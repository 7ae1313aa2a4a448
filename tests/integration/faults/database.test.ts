// Our own database unreachable mid-run: every endpoint answers a 503 problem+json (never a 500, never a hang), and
// the service recovers by itself when the database returns.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratePostgres } from "@/lib/db/migrate-postgres";
import { createTestKey } from "../../helpers/keys";
import { pollUntil } from "../../helpers/poll";
import { type RunningApp, startApp } from "../../helpers/server";
import { POSTGRES_URL, postgresAvailable } from "../../helpers/services";
import { startTcpProxy, type TcpProxy } from "../../helpers/tcp-proxy";

describe.runIf(await postgresAvailable())("database unreachable mid-run", () => {
  const dbName = `predmkt_fault_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  let proxy: TcpProxy;
  let app: RunningApp;
  let key: string;

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    const direct = Object.assign(new URL(POSTGRES_URL), { pathname: `/${dbName}` });
    await migratePostgres(direct.toString());
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const viaProxy = Object.assign(new URL(direct.toString()), { port: String(proxy.port) }).toString();
    app = await startApp({
      env: {
        DATABASE_URL: viaProxy,
        JWT_SECRET: "fault-test-secret-0123456789-abcdefghij",
        CRON_SECRET: "fault-cron-secret-0123456789-abcdefghij",
        KEY_CACHE_TTL_S: "0",
        HEALTH_CACHE_S: "0", // each health check below must see the database as it is now
      },
    });
    key = await createTestKey({ ...app, databaseUrl: direct.toString() });
  });
  afterAll(async () => {
    await app?.stop();
    await proxy?.close();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  });

  const get = (path: string) =>
    fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(20_000) });

  it("503 problem+json while down, 200 again after it returns", async () => {
    expect((await get("/api/predmkt/stats")).status).toBe(200);
    expect((await fetch(`${app.url}/api/health`)).status).toBe(200);

    proxy.cut();
    for (const path of ["/api/predmkt/stats", "/api/predmkt/events", "/api/predmkt/trades"]) {
      const started = Date.now();
      const res = await get(path);
      expect(res.status, path).toBe(503);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect((await res.json()).code).toBe("service_unavailable");
      expect(Date.now() - started).toBeLessThan(15_000);
    }
    const health = await fetch(`${app.url}/api/health`);
    expect(health.status).toBe(503);
    expect((await health.json()).checks.database.ok).toBe(false);

    proxy.restore();
    await pollUntil(
      async () => (await get("/api/predmkt/stats")).status,
      (status) => status === 200,
      10_000,
      250,
      "stats answering 200 again",
    );
    expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
  });
});
