// A database client for command-line tools (key CLI, demo, tests). The embedded PGlite directory may be owned by a
// running server: then the tool goes through that server's socket bridge (opened on request) instead of opening the files
// itself (a second opener silently corrupts PGlite). Otherwise it opens the database directly and releases it after.
import { existsSync } from "node:fs";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { env } from "@/lib/env";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { BRIDGE_SIGNAL, BRIDGE_SOCKET, readOwner } from "./bridge";
import { closeDb, type Db, getDb, liveOwner, ownerFile } from "./client";

interface ToolDb {
  db: Db;
  via: "postgresql" | "server-bridge" | "embedded";
  close: () => Promise<void>;
}

/** Connection string for the owner's Unix-socket bridge in `socketDir` (node-postgres reads `host` as a socket dir). */
function bridgeUrl(socketDir: string): string {
  return `postgresql://postgres:postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}`;
}

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Asks the server named in `ownerFilePath` to open its bridge (lib/db/bridge.ts) and waits until the socket is there;
 * returns the socket's directory. The bridge stays open while a tool is connected and BRIDGE_IDLE_MS after.
 * Synchronous (a short poll) so that callers building a connection string need not change.
 */
export function requestBridge(ownerFilePath: string, timeoutMs = 10_000): string {
  const owner = readOwner(ownerFilePath);
  if (!owner) throw new Error(`${ownerFilePath}: no running server owns the embedded database`);
  if (!owner.bridgeOnRequest && !owner.socketDir) {
    throw new Error(`The embedded database is owned by process ${owner.pid}, which exposes no bridge. Stop it and retry.`);
  }
  if (owner.bridgeOnRequest) process.kill(owner.pid, BRIDGE_SIGNAL);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = readOwner(ownerFilePath);
    if (now?.socketDir && existsSync(path.join(now.socketDir, BRIDGE_SOCKET))) return now.socketDir;
    if (Date.now() > deadline) throw new Error(`process ${owner.pid} did not open its database bridge within ${timeoutMs} ms`);
    sleepSync(25);
  }
}

/** The bridge of the server that owns the embedded database in `dataDir` (tests and benchmarks). */
export function bridgeUrlFor(ownerFilePath: string): string {
  return bridgeUrl(requestBridge(ownerFilePath));
}

export async function openToolDb(): Promise<ToolDb> {
  if (env.DATABASE_URL) {
    const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: env.DATABASE_URL }) });
    return { db, via: "postgresql", close: () => db.$disconnect() };
  }
  const owner = liveOwner();
  if (owner && owner.pid !== process.pid) {
    // One connection: the bridge serialises statements, and a pool would only queue behind itself.
    const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: bridgeUrlFor(ownerFile()), max: 1 }) });
    return { db, via: "server-bridge", close: () => db.$disconnect() };
  }
  const db = await getDb();
  return { db, via: "embedded", close: closeDb };
}
