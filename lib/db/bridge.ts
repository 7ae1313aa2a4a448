// The embedded database's bridge for local tools (key CLI, demo, tests): while the server holds the PGlite files, a
// tool reaches the database through this process over a Unix socket speaking the Postgres protocol. The protocol has
// no authentication here, so the socket is open only while a tool needs it: a tool asks with BRIDGE_SIGNAL
// (lib/db/tool-client.ts), the server opens the socket (0600, in a 0700 directory under the 0700 DATA_DIR) and
// closes it once no tool has been connected for BRIDGE_IDLE_MS. The rest of the time no process can run SQL here.
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { log } from "@/lib/log";

export const BRIDGE_SIGNAL = "SIGUSR2";
export const BRIDGE_IDLE_MS = 10_000;
const IDLE_CHECK_MS = 1_000;
export const BRIDGE_SOCKET = ".s.PGSQL.5432";

interface BridgeOwner {
  pid: number;
  /** Directory holding the bridge socket while it is open; absent when closed. */
  socketDir?: string;
  /** This owner opens its bridge when sent BRIDGE_SIGNAL. */
  bridgeOnRequest?: boolean;
}

function bridgeDir(dataDir: string): string {
  return path.join(dataDir, "bridge");
}

/**
 * Serves the bridge on request for as long as this process owns the database. Returns the function that closes it
 * for good (shutdown).
 */
export function serveBridgeOnRequest(pglite: PGlite, dataDir: string, ownerFile: string): () => Promise<void> {
  const dir = bridgeDir(dataDir);
  const socketPath = path.join(dir, BRIDGE_SOCKET);
  if (socketPath.length > 100) throw new Error(`DATA_DIR is too long for a Unix socket path (${socketPath})`);
  let server: PGLiteSocketServer | null = null;
  let transition: Promise<void> = Promise.resolve();
  let lastWanted = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const writeOwner = (open: boolean) =>
    writeFileSync(
      ownerFile,
      JSON.stringify({ pid: process.pid, bridgeOnRequest: true, ...(open ? { socketDir: dir } : {}) } satisfies BridgeOwner),
      { mode: 0o600 },
    );

  const close = async () => {
    clearInterval(timer);
    timer = undefined;
    const closing = server;
    server = null;
    if (!closing) return;
    if (!stopped) writeOwner(false);
    await closing.stop().catch(() => undefined);
    rmSync(socketPath, { force: true });
    log.info("database bridge closed");
  };

  const open = async () => {
    lastWanted = Date.now();
    if (server || stopped) return;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    rmSync(socketPath, { force: true }); // left by a crashed owner; we hold the owner record now
    const opening = new PGLiteSocketServer({ db: pglite, path: socketPath, maxConnections: 4 });
    await opening.start();
    chmodSync(socketPath, 0o600);
    server = opening;
    writeOwner(true);
    log.info("database bridge opened for a local tool", { idle_close_ms: BRIDGE_IDLE_MS });
    timer = setInterval(() => {
      if (server && server.getStats().activeConnections > 0) lastWanted = Date.now();
      else if (Date.now() - lastWanted >= BRIDGE_IDLE_MS) transition = transition.then(close);
    }, IDLE_CHECK_MS);
    timer.unref();
  };

  const onSignal = () => {
    transition = transition.then(open).catch((error: unknown) => log.warn("database bridge not opened", { error: String(error) }));
  };
  rmSync(socketPath, { force: true });
  writeOwner(false);
  process.on(BRIDGE_SIGNAL, onSignal);
  return async () => {
    stopped = true;
    process.off(BRIDGE_SIGNAL, onSignal);
    await transition;
    await close();
  };
}

/** The owner record as a tool reads it (null when absent or unreadable). */
export function readOwner(ownerFile: string): BridgeOwner | null {
  if (!existsSync(ownerFile)) return null;
  try {
    return JSON.parse(readFileSync(ownerFile, "utf8")) as BridgeOwner;
  } catch {
    return null;
  }
}
