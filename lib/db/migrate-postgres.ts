// Applies prisma/migrations to PostgreSQL over node-postgres, under an advisory lock so two deploys never race.
import pg from "pg";
import { applyMigrations, migrationsDir } from "./migrate";

const MIGRATION_LOCK_ID = 727_001;

export async function migratePostgres(connectionString: string, dir = migrationsDir()): Promise<string[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_ID]);
    const target = {
      exec: async (sql: string) => void (await client.query(sql)),
      query: async <T>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as T[],
    };
    return await applyMigrations(
      {
        ...target,
        transaction: async (work) => {
          await client.query("BEGIN");
          try {
            await work(target);
            await client.query("COMMIT");
          } catch (error) {
            await client.query("ROLLBACK");
            throw error;
          }
        },
      },
      dir,
    );
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_ID]).catch(() => undefined);
    await client.end();
  }
}
