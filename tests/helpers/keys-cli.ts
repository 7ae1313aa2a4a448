// Runs the operator's key CLI (scripts/keys.ts) against a running test server's database, as an operator would.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import type { RunningApp } from "./server";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../..");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `extraEnv`: what a deployment on PostgreSQL needs besides DATABASE_URL (JWT_SECRET, CRON_SECRET). */
export async function keysCli(app: RunningApp, args: string[], extraEnv: Record<string, string> = {}): Promise<CliResult> {
  const env = {
    ...process.env,
    DATA_DIR: app.dataDir,
    PGLITE_DIR: "",
    ...(app.databaseUrl ? { DATABASE_URL: app.databaseUrl } : {}),
    ...extraEnv,
  };
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/keys.ts", ...args], {
      cwd: ROOT,
      env,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof failed.code !== "number") throw error;
    return { code: failed.code, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

/** The key a `create`, `approve` or `rotate` printed (stdout holds the key alone). */
export function printedKey(result: CliResult): string {
  if (result.code !== 0) throw new Error(`keys CLI failed (${result.code}): ${result.stderr}`);
  const key = result.stdout.trim();
  if (!/^pmk_[0-9A-Za-z]{40}$/.test(key)) throw new Error(`keys CLI printed no key: ${result.stdout}`);
  return key;
}
