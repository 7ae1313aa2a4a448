// The Prisma CLI's database for `prisma migrate diff`: an in-memory PGlite through pglite-prisma-adapter, with a
// shadow database that can replay our migrations. The adapter sends each migration script through `executeRaw`,
// i.e. PGlite's extended protocol, which refuses several statements in one call ("cannot insert multiple commands
// into a prepared statement"), and its `executeScript` does not wait for the script. Here a parameterless statement
// goes through PGlite's simple protocol (`exec`), which runs a whole script, so `--from-migrations` works offline
// (docs/migrations.md).
import { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";

// The adapter's own copy of the driver-adapter types (it pins a different @prisma/driver-adapter-utils).
type SqlDriverAdapter = Awaited<ReturnType<PrismaPGlite["connect"]>>;
type SqlQuery = Parameters<SqlDriverAdapter["executeRaw"]>[0];

async function scriptCapable(db: PGlite): Promise<SqlDriverAdapter> {
  const adapter = await new PrismaPGlite(db).connect();
  const executeRaw = adapter.executeRaw.bind(adapter);
  adapter.executeRaw = async (query: SqlQuery) => {
    if (query.args.length > 0) return executeRaw(query);
    await db.exec(query.sql);
    return 0;
  };
  adapter.executeScript = async (script: string) => void (await db.exec(script));
  return adapter;
}

export class PrismaCliPGlite extends PrismaPGlite {
  constructor() {
    super(new PGlite());
  }

  override connectToShadowDb(): Promise<SqlDriverAdapter> {
    return scriptCapable(new PGlite());
  }
}
