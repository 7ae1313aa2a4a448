// The one Prisma client. Without DATABASE_URL it runs on embedded PGlite under DATA_DIR, migrated in-process at
// start; with DATABASE_URL it runs on PostgreSQL through adapter-pg (migrated by `npm run db:migrate`).
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { applyMigrations, pgliteMigrationTarget } from "./migrate";
import { ensurePrivateDir } from "./private-state";

export type Db = PrismaClient;

interface DbState {
  client: Promise<Db>;
  pglite?: PGlite;
  /** On PostgreSQL: the Prisma client's own connection pool (rawRows). */
  pool?: pg.Pool;
  close: () => Promise<void>;
}

// Kept on globalThis: Next can evaluate this module in more than one bundle (proxy, routes, instrumentation) and in
// dev reloads it; a second PGlite on the same directory silently corrupts it.
const globalForDb = globalThis as unknown as { __predmktDb?: DbState };

export function pgliteDir(): string {
  return env.PGLITE_DIR ?? path.join(env.DATA_DIR, "pglite");
}

export function ownerFile(): string {
  return path.join(env.DATA_DIR, "pglite.owner.json");
}

interface PgliteOwner {
  pid: number;
  /** Directory holding the owner's Unix-socket bridge (`.s.PGSQL.5432`) while it is open (lib/db/bridge.ts). */
  socketDir?: string;
  /** The owner opens its bridge when a tool asks (lib/db/bridge.ts). */
  bridgeOnRequest?: boolean;
}

/** The live process that owns the embedded database directory, if any. */
export function liveOwner(): PgliteOwner | null {
  if (!existsSync(ownerFile())) return null;
  try {
    const owner = JSON.parse(readFileSync(ownerFile(), "utf8")) as PgliteOwner;
    if (owner.pid === process.pid) return owner;
    process.kill(owner.pid, 0);
    return owner;
  } catch {
    return null;
  }
}

// PGlite runs SQL synchronously in WASM: a chain of statements would starve timers and sockets. Yielding to the
// event loop before each statement keeps the HTTP server responsive (docs/upstream-facts.md#pglite-and-prisma).
function yieldBetweenStatements(db: PGlite): void {
  const query = db.query.bind(db);
  const exec = db.exec.bind(db);
  db.query = (async (...args: Parameters<PGlite["query"]>) => {
    await yieldToEventLoop();
    return query(...args);
  }) as PGlite["query"];
  db.exec = async (...args: Parameters<PGlite["exec"]>) => {
    await yieldToEventLoop();
    return exec(...args);
  };
}

function makePrivate(dir: string): void {
  const { tightened } = ensurePrivateDir(dir);
  if (tightened.length) log.warn("local state was readable by other users: access removed", { dir, paths: tightened.slice(0, 20) });
}

async function openEmbedded(): Promise<DbState> {
  const dir = pgliteDir();
  const inMemory = dir.startsWith("memory://");
  if (!inMemory) {
    const owner = liveOwner();
    if (owner && owner.pid !== process.pid) {
      throw new Error(
        `The embedded database ${dir} is owned by process ${owner.pid}. ` +
          "Stop it, or reach the database through it (the key CLI does this automatically).",
      );
    }
    // Private local state (lib/db/private-state.ts): checked before PGlite opens anything; this process creates
    // nothing others should read, so its own new files and directories are private from here on.
    process.umask(0o077);
    makePrivate(env.DATA_DIR);
    writeFileSync(ownerFile(), JSON.stringify({ pid: process.pid } satisfies PgliteOwner), { mode: 0o600 });
  }
  // An in-memory database may start from a dump of a migrated one (PGLITE_TEMPLATE, made by the unit tests' global
  // setup): initdb and the migrations cost seconds of CPU per database; the migrations below still add what it lacks.
  const template = inMemory && env.PGLITE_TEMPLATE ? { loadDataDir: new Blob([readFileSync(env.PGLITE_TEMPLATE)]) } : undefined;
  const pglite = inMemory ? await PGlite.create(template) : await PGlite.create(dir);
  log.info("embedded database opened", { dir: inMemory ? "memory" : dir });
  await applyMigrations(pgliteMigrationTarget(pglite));
  // PGlite's file system layer creates its files 0666 whatever the umask: once they exist (and the migrations have
  // added theirs), they lose group/other access; files it creates later sit in these 0700 directories.
  if (!inMemory) makePrivate(dir);
  yieldBetweenStatements(pglite);
  const client = new PrismaClient({
    // pglite-prisma-adapter 0.6.1 is typed against driver-adapter-utils 6.10; the runtime contract is the same.
    adapter: new PrismaPGlite(pglite) as unknown as PrismaPg,
  });
  const state: DbState = {
    client: Promise.resolve(client),
    pglite,
    close: async () => {
      await client.$disconnect();
      await pglite.close();
      if (!inMemory && liveOwner()?.pid === process.pid) rmSync(ownerFile(), { force: true });
    },
  };
  return state;
}

function openPostgres(connectionString: string): DbState {
  // The pool the adapter would make itself, made here so that rawRows can lend it (one pool, one set of connections).
  const pool = new pg.Pool({ connectionString });
  const client = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  return { client: Promise.resolve(client), pool, close: () => client.$disconnect() };
}

function open(): DbState {
  if (env.DATABASE_URL) return openPostgres(env.DATABASE_URL);
  const pending = openEmbedded();
  const state: DbState = {
    client: pending.then((s) => s.client),
    close: async () => (await pending).close(),
  };
  pending.then((s) => (state.pglite = s.pglite)).catch(() => undefined);
  return state;
}

function state(): DbState {
  if (!globalForDb.__predmktDb) {
    globalForDb.__predmktDb = open();
    // A failed open (e.g. another owner) must not be cached forever: the next call retries.
    globalForDb.__predmktDb.client.catch(() => {
      globalForDb.__predmktDb = undefined;
    });
  }
  return globalForDb.__predmktDb;
}

export function getDb(): Promise<Db> {
  return state().client;
}

/** The embedded PGlite instance when running embedded (for the socket bridge and tests); otherwise undefined. */
export async function getEmbeddedPglite(): Promise<PGlite | undefined> {
  const s = state();
  await s.client;
  return s.pglite;
}

/**
 * Rows of one raw statement on a hot read path. On PostgreSQL it goes straight to the Prisma client's pool, as a
 * named prepared statement (`name`: one per SQL text): the client's own work around a raw statement (its query
 * engine, result decoding) cost about 0.45 ms of CPU against 0.3 ms for the whole pg round trip, and PostgreSQL
 * planned the history statement anew each time (as long as it ran); prepared, each connection plans it once
 * (bench/README.md "First read after a pass, and history"). Values come as pg decodes them: only for statements
 * whose columns are text, int4, float8, timestamptz (a Date) or json, which both paths return alike.
 */
export async function rawRows<T>(name: string, sql: string, params: unknown[]): Promise<T[]> {
  const s = state();
  const db = await s.client;
  if (s.pool) return (await s.pool.query({ name, text: sql, values: params })).rows as T[];
  return db.$queryRawUnsafe<T[]>(sql, ...params);
}

export async function closeDb(): Promise<void> {
  const s = globalForDb.__predmktDb;
  globalForDb.__predmktDb = undefined;
  if (s) await s.close();
}
