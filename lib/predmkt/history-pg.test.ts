// The history statement on PostgreSQL, where rawRows reads it from the pool without the Prisma client's decoding
// (lib/db/client.ts): the row is the one the client gives, and the answer keeps its exact points.
import { vi } from "vitest";

const DB_NAME = vi.hoisted(() => {
  const name = `predmkt_history_rows_${process.pid}`;
  const admin = new URL(process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/test");
  process.env.DATABASE_URL = Object.assign(admin, { pathname: `/${name}` }).toString();
  // A deployment on PostgreSQL must set its secrets (lib/env.ts); these are the tests'.
  process.env.JWT_SECRET ??= "history-test-jwt-secret-0123456789abcdef0123";
  process.env.CRON_SECRET ??= "history-test-cron-secret-0123456789abcdef";
  return name;
});

import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as historyGET } from "@/app/api/predmkt/markets/[id]/history/route";
import { closeDb, getDb, rawRows } from "@/lib/db/client";
import { migratePostgres } from "@/lib/db/migrate-postgres";
import { runPass } from "@/lib/sampler/pass";
import { callJson } from "@/tests/helpers/handler";
import { POSTGRES_URL, postgresAvailable } from "@/tests/helpers/services";
import { event, FakeWorld, market } from "@/tests/unit/sampler/fake-world";
import { historyStatement } from "./history";

const T0 = Date.parse("2026-11-01T00:00:00Z");
const postgresUp = await postgresAvailable();

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe.runIf(postgresUp)("history on PostgreSQL", () => {
  beforeAll(async () => {
    await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${DB_NAME}`);
    await migratePostgres(process.env.DATABASE_URL!);
    const db = await getDb();
    const world = new FakeWorld();
    world.events = [event(1, [market(11, "1", [0.6, 0.4])])];
    expect((await runPass({ db, source: world, now: () => new Date(T0) })).status).toBe("ok");
    const yes = await db.outcome.findFirstOrThrow({ where: { marketId: "11", index: 0 } });
    // A month of hourly rollups before the last pass, one of them a price a float4 cannot hold exactly.
    await db.priceSample.createMany({
      data: [
        // Before the window and still within the hourly tier's 31 days: the series' first point.
        { outcomeId: yes.id, resolutionS: 3600, t: new Date(T0 - 30.5 * 86_400_000), price: 0.9 },
        { outcomeId: yes.id, resolutionS: 3600, t: new Date(T0 - 10 * 86_400_000), price: 0.123456 },
      ],
    });
    world.events[0].markets[0].outcomes[0].price = 0.7;
    world.events[0].markets[0].outcomes[1].price = 0.3;
    expect((await runPass({ db, source: world, now: () => new Date(T0 + 3_600_000) })).status).toBe("ok");
  }, 180_000);

  afterAll(async () => {
    await closeDb();
    await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  });

  it("reads the row the Prisma client reads", async () => {
    const db = await getDb();
    const condition = `0x${(11).toString(16).padStart(64, "0")}`;
    // Twice each: the second execution runs the statement prepared on that connection.
    for (const id of ["11", "999999", condition, "11", "999999", condition]) {
      const { name, sql, params } = historyStatement(id, "30d");
      const [viaClient] = await db.$queryRawUnsafe<Record<string, unknown>[]>(sql, ...params);
      const [viaPool] = await rawRows<Record<string, unknown>>(name, sql, params);
      // The client hands json over as text; the pool parses it (marketHistory takes either).
      const points = typeof viaClient.points === "string" ? JSON.parse(viaClient.points) : viaClient.points;
      expect(viaPool).toEqual({ ...viaClient, points });
      expect(viaPool.as_of).toBeInstanceOf(Date);
    }
  });

  it("answers the exact points", async () => {
    const { status, body } = await callJson(historyGET, "/api/predmkt/markets/11/history?window=30d", { id: "11" });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ market_id: "11", outcome: "Yes", resolution_s: 3600 });
    expect(body.data.points).toEqual([
      { t: (T0 - 30.5 * 86_400_000) / 1000, p: 0.9 },
      { t: (T0 - 10 * 86_400_000) / 1000, p: 0.123456 },
      { t: T0 / 1000, p: 0.6 }, // the first pass's hour, closed by the second
      { t: T0 / 1000 + 3600, p: 0.7 },
    ]);
    expect(body.meta).toMatchObject({ source: "sampled", as_of: new Date(T0 + 3_600_000).toISOString(), window: "30d" });
  });
});
