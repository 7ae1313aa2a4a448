// Issues real API keys in a running test server's database: through the server's PGlite socket bridge (embedded
// mode) or directly in PostgreSQL when the server was started with DATABASE_URL.
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { createApiKey, revokeApiKey } from "@/lib/auth/api-key";
import type { Tier } from "@/lib/auth/tiers";
import { bridgeUrlFor } from "@/lib/db/tool-client";
import { PrismaClient } from "@/lib/generated/prisma/client";
import type { RunningApp } from "./server";

export function connectionStringFor(app: RunningApp & { databaseUrl?: string }): string {
  if (app.databaseUrl) return app.databaseUrl;
  return bridgeUrlFor(path.join(app.dataDir, "pglite.owner.json"));
}

async function withDb<T>(app: RunningApp, work: (db: PrismaClient) => Promise<T>): Promise<T> {
  const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: connectionStringFor(app), max: 1 }) });
  try {
    return await work(db);
  } finally {
    await db.$disconnect();
  }
}

export async function createTestKey(app: RunningApp, tier: Tier = "pro", owner = "integration test"): Promise<string> {
  return withDb(app, async (db) => (await createApiKey(db, { tier, owner })).key);
}

export async function revokeTestKey(app: RunningApp, key: string): Promise<void> {
  await withDb(app, async (db) => void (await revokeApiKey(db, key.slice(0, 12))));
}
