// Starts the real production server (next start) for integration tests, each with its own data directory.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { freePort } from "../../scripts/lib/net";
import { pgliteTemplatePath } from "./pglite-template";
import { pollUntil } from "./poll";

export { freePort };

const ROOT = path.resolve(__dirname, "../..");

export interface RunningApp {
  /** Set when the server runs on PostgreSQL rather than its embedded database. */
  databaseUrl?: string;
  url: string;
  port: number;
  dataDir: string;
  logs: () => string;
  stop: () => Promise<void>;
}

/**
 * A server on a new embedded database starts from the migrated template the unit tests use (pglite-template.ts),
 * unpacked where the server will look for it: initdb and the migrations were about 6 s of a core per server start,
 * some 35 starts a run (docs/testing.md "Each suite once, the Node lines spread across them"). The server still applies any migration the template lacks.
 */
function seedEmbeddedDatabase(dir: string): void {
  const template = pgliteTemplatePath(ROOT);
  if (existsSync(dir) || !existsSync(template)) return;
  mkdirSync(dir, { recursive: true });
  execFileSync("tar", ["-xf", template, "-C", dir], { stdio: "ignore" });
}

export async function startApp(
  options: {
    env?: Record<string, string | undefined>;
    dataDir?: string;
    /** initdb and every migration at start, as on a new install (the default starts from the migrated template). */
    freshDatabase?: boolean;
  } = {},
): Promise<RunningApp> {
  const port = await freePort();
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), "predmkt-app-"));
  const ownsDataDir = !options.dataDir;
  const env: Record<string, string> = {};
  // The test servers run production on the embedded database with generated secrets unless a test gives its own.
  for (const [k, v] of Object.entries({ ...process.env, PGLITE_DIR: undefined, GENERATE_LOCAL_SECRETS: "1", ...options.env }))
    if (v !== undefined) env[k] = v;
  Object.assign(env, {
    NEXT_DIST_DIR: inject("distDir"),
    DATA_DIR: options.env?.DATA_DIR ?? dataDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    NODE_ENV: "production",
  });
  if (options.env?.PGLITE_DIR) env.PGLITE_DIR = options.env.PGLITE_DIR;
  if (!env.DATABASE_URL && !env.PGLITE_DIR && !options.freshDatabase) seedEmbeddedDatabase(path.join(env.DATA_DIR, "pglite"));
  // Node 22+ keeps the compiled code of the server's modules here between starts (ignored by Node 20).
  env.NODE_COMPILE_CACHE ??= path.join(ROOT, ".data", "test", "node-compile-cache");
  let output = "";
  const child: ChildProcess = spawn(
    process.execPath,
    // The production entry (`npm start`): it tells the gateway the TCP peer, as a deployment without a proxy would.
    [path.join(ROOT, "scripts/server.mjs")],
    {
      cwd: ROOT,
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const exited = () => new Error(`server exited (${child.exitCode}):\n${output}`);
  const health = async () => {
    if (child.exitCode !== null) throw exited();
    try {
      return (await fetch(`${url}/api/health`)).status;
    } catch {
      return null; // not listening yet
    }
  };
  await pollUntil(health, (status) => status === 200 || status === 503, 60_000, 150, "/api/health answering").catch((e: Error) => {
    if (child.exitCode !== null) throw exited();
    child.kill("SIGKILL");
    throw new Error(`server did not become ready (${e.message}):\n${output}`);
  });
  return {
    url,
    port,
    dataDir,
    databaseUrl: env.DATABASE_URL,
    logs: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await Promise.race([new Promise((r) => child.once("exit", r)), new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
