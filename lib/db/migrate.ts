// Applies prisma/migrations in order, recording each in Prisma's own `_prisma_migrations` table with Prisma's
// checksum, so `prisma migrate status` agrees with it. Used in-process for the embedded database at start and by
// `npm run db:migrate` for PostgreSQL. The Prisma CLI is avoided on purpose: with PGlite it can record a failed
// migration as applied, and with adapter-pg 6.19 it trips over catalog types (prisma/orm#27403).
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";

export interface MigrationTarget {
  exec(sql: string): Promise<void>;
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs `work` in one transaction: a failing migration leaves neither its DDL nor its record behind. */
  transaction(work: (tx: Pick<MigrationTarget, "exec" | "query">) => Promise<void>): Promise<void>;
}

const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/** The migration target for an embedded PGlite instance. */
export function pgliteMigrationTarget(db: PGlite): MigrationTarget {
  return {
    exec: async (sql) => void (await db.exec(sql)),
    query: async (sql, params) => (await db.query(sql, params)).rows as never[],
    transaction: (work) =>
      db.transaction(async (tx) =>
        work({
          exec: async (sql) => void (await tx.exec(sql)),
          query: async (sql, params) => (await tx.query(sql, params)).rows as never[],
        }),
      ),
  };
}

export function migrationsDir(): string {
  return path.join(process.cwd(), "prisma", "migrations");
}

export async function applyMigrations(target: MigrationTarget, dir = migrationsDir()): Promise<string[]> {
  await target.exec(MIGRATIONS_TABLE);
  const done = new Set(
    (
      await target.query<{ migration_name: string }>(
        `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
      )
    ).map((r) => r.migration_name),
  );
  const pending = readdirSync(/*turbopackIgnore: true*/ dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(/*turbopackIgnore: true*/ path.join(dir, d.name, "migration.sql")) && !done.has(d.name))
    .map((d) => d.name)
    .sort();
  for (const name of pending) {
    const sql = readFileSync(/*turbopackIgnore: true*/ path.join(dir, name, "migration.sql"), "utf8");
    const checksum = createHash("sha256").update(sql).digest("hex");
    await target.transaction(async (tx) => {
      await tx.exec(sql);
      await tx.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
         VALUES ($1, $2, now(), $3, 1)`,
        [randomUUID(), checksum, name],
      );
    });
  }
  return pending;
}
