// Prisma CLI configuration, used only at development time for `prisma generate` and `prisma migrate diff`.
// The running app never goes through the CLI: it applies prisma/migrations itself (lib/db/migrate.ts), because the
// CLI's PGlite adapter can record a failed migration as applied and hangs on exit (reference/pglite-embedded.md).
import { defineConfig } from "prisma/config";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";

// The 6.x CLI validates `url = env("DATABASE_URL")` and tries to download a query engine when it is unset.
process.env.DATABASE_URL ??= "postgresql://placeholder@127.0.0.1:5432/placeholder";
process.env.CHECKPOINT_DISABLE ??= "1";

let memoryDb: PGlite | undefined;

export default defineConfig({
  experimental: { adapter: true },
  schema: "prisma/schema",
  migrations: { path: "prisma/migrations" },
  engine: "js",
  // An in-memory PGlite is all `migrate diff --from-empty` needs: no server, no files.
  adapter: async () => new PrismaPGlite((memoryDb ??= new PGlite())) as never,
});
