import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { applyMigrations, migrationsDir, pgliteMigrationTarget } from "@/lib/db/migrate";
import { migratePostgres } from "@/lib/db/migrate-postgres";
import { readdirSync } from "node:fs";
import { POSTGRES_URL, postgresAvailable } from "../../helpers/services";

const expected = readdirSync(migrationsDir(), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();

describe("migrations", () => {
  it("apply cleanly to an empty embedded PGlite, once", async () => {
    const db = new PGlite();
    const target = pgliteMigrationTarget(db);
    expect(await applyMigrations(target)).toEqual(expected);
    expect(await applyMigrations(target)).toEqual([]);
    const tables = await db.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'");
    expect(tables.rows.map((r) => r.table_name)).toContain("api_keys");
    await db.close();
  });
});

describe.runIf(await postgresAvailable())("migrations on real PostgreSQL", () => {
  const dbName = `predmkt_migrate_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${dbName}`;
  afterAll(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  });

  it("apply cleanly to an empty database, once, and record Prisma-compatible rows", async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    expect(await migratePostgres(url.toString())).toEqual(expected);
    expect(await migratePostgres(url.toString())).toEqual([]);
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    const rows = await client.query("SELECT migration_name, checksum, finished_at FROM _prisma_migrations ORDER BY migration_name");
    expect(rows.rows.map((r) => r.migration_name)).toEqual(expected);
    for (const row of rows.rows) {
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
    }
    await client.end();
  });
});
