// `npm run db:migrate`: applies prisma/migrations to DATABASE_URL (PostgreSQL). The embedded database needs no
// command: the server migrates it in-process at start.
import { migratePostgres } from "@/lib/db/migrate-postgres";
import { env } from "@/lib/env";

async function main() {
  if (!env.DATABASE_URL) {
    console.log("DATABASE_URL is not set: the embedded database is migrated automatically when the server starts.");
    return;
  }
  const applied = await migratePostgres(env.DATABASE_URL);
  console.log(applied.length ? `applied ${applied.length} migration(s): ${applied.join(", ")}` : "database is up to date");
}

main().catch((error) => {
  console.error(`migration failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
