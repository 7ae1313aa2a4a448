// Prisma CLI configuration, used only at development time for `prisma generate` and `prisma migrate diff`
// (`npm run db:diff`, docs/migrations.md). The running app never goes through the CLI: it applies prisma/migrations
// itself (lib/db/migrate.ts), because the CLI's PGlite adapter can record a failed migration as applied and hangs on
// exit (docs/upstream-facts.md#pglite).
import { defineConfig } from "prisma/config";
import { PrismaCliPGlite } from "./scripts/lib/pglite-prisma-cli";

// The 6.x CLI validates `url = env("DATABASE_URL")` and tries to download a query engine when it is unset.
process.env.DATABASE_URL ??= "postgresql://placeholder@127.0.0.1:5432/placeholder";
process.env.CHECKPOINT_DISABLE ??= "1";

export default defineConfig({
  experimental: { adapter: true },
  schema: "prisma/schema",
  migrations: { path: "prisma/migrations" },
  engine: "js",
  // In-memory PGlite databases are all `migrate diff` needs: no server, no files; the shadow one replays migrations.
  adapter: async () => new PrismaCliPGlite() as never,
});
