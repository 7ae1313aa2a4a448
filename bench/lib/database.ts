// The benchmark's database: a throwaway PostgreSQL database when a server is reachable (trust auth on loopback, as in
// CI), dropped at the end; otherwise the server's embedded PGlite, reached through its socket bridge.
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { createApiKey } from "@/lib/auth/api-key";
import type { Tier } from "@/lib/auth/tiers";
import { migratePostgres } from "@/lib/db/migrate-postgres";
import { bridgeUrlFor } from "@/lib/db/tool-client";
import { PrismaClient } from "@/lib/generated/prisma/client";
export { reachable } from "@/scripts/lib/net";

export const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export interface BenchDatabase {
  kind: "postgresql" | "pglite";
  /** Connection string for this process (seeding, keys); for PGlite only valid once the server is up. */
  connectionString: () => string;
  /** Env for the server process. */
  serverEnv: Record<string, string>;
  drop: () => Promise<void>;
}

export async function createPostgresDatabase(name: string): Promise<BenchDatabase> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = Object.assign(new URL(POSTGRES_ADMIN_URL), { pathname: `/${name}` }).toString();
  await migratePostgres(url);
  return {
    kind: "postgresql",
    connectionString: () => url,
    serverEnv: { DATABASE_URL: url },
    drop: async () => {
      const again = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await again.end();
    },
  };
}

export function embeddedDatabase(dataDir: string): BenchDatabase {
  return {
    kind: "pglite",
    connectionString: () => {
      return bridgeUrlFor(path.join(dataDir, "pglite.owner.json"));
    },
    serverEnv: { DATA_DIR: dataDir },
    drop: async () => undefined,
  };
}

export async function createKey(connectionString: string, tier: Tier): Promise<string> {
  const db = new PrismaClient({ adapter: new PrismaPg({ connectionString, max: 1 }) });
  try {
    return (await createApiKey(db, { tier, owner: "bench" })).key;
  } finally {
    await db.$disconnect();
  }
}

/** Runs `work` with one plain pg connection (server-side SQL for seeding and sizes). */
export async function withClient<T>(connectionString: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
