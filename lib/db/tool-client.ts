// A database client for command-line tools (key CLI, demo, tests). The embedded PGlite directory may be owned by a
// running server: then the tool goes through that server's loopback socket bridge instead of opening the files
// itself (a second opener silently corrupts PGlite). Otherwise it opens the database directly and releases it after.
import { readFileSync } from "node:fs";
import { PrismaPg } from "@prisma/adapter-pg";
import { env } from "@/lib/env";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { closeDb, type Db, getDb, liveOwner, type PgliteOwner } from "./client";

export interface ToolDb {
  db: Db;
  via: "postgresql" | "server-bridge" | "embedded";
  close: () => Promise<void>;
}

/** Connection string for the owner's Unix-socket bridge in `socketDir` (node-postgres reads `host` as a socket dir). */
export function bridgeUrl(socketDir: string): string {
  return `postgresql://postgres:postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}`;
}

/** The bridge of the server that owns the embedded database in `dataDir` (tests and benchmarks). */
export function bridgeUrlFor(ownerFilePath: string): string {
  const owner = JSON.parse(readFileSync(ownerFilePath, "utf8")) as PgliteOwner;
  if (!owner.socketDir) throw new Error(`${ownerFilePath} names no bridge`);
  return bridgeUrl(owner.socketDir);
}

export async function openToolDb(): Promise<ToolDb> {
  if (env.DATABASE_URL) {
    const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: env.DATABASE_URL }) });
    return { db, via: "postgresql", close: () => db.$disconnect() };
  }
  const owner = liveOwner();
  if (owner && owner.pid !== process.pid) {
    if (!owner.socketDir) {
      throw new Error(`The embedded database is owned by process ${owner.pid}, which exposes no bridge. Stop it and retry.`);
    }
    // One connection: the bridge serialises statements, and a pool would only queue behind itself.
    const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: bridgeUrl(owner.socketDir), max: 1 }) });
    return { db, via: "server-bridge", close: () => db.$disconnect() };
  }
  const db = await getDb();
  return { db, via: "embedded", close: closeDb };
}
