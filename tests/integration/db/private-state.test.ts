// The real server's local state is private: a DATA_DIR left world-readable (0755, with a 0644 secrets file, as older
// versions made it) is tightened at start, and everything the server then creates under it — PGlite's files and WAL,
// the owner record, the bridge socket (lib/db/bridge.ts) — is readable by its user only.
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningApp, startApp } from "../../helpers/server";
import { createTestKey } from "../../helpers/keys";

let root: string;
let dataDir: string;
let app: RunningApp;

function everything(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const target = path.join(dir, name);
    return lstatSync(target).isDirectory() ? [target, ...everything(target)] : [target];
  });
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), "local-state-"));
  dataDir = path.join(root, "data");
  mkdirSync(dataDir);
  chmodSync(dataDir, 0o755);
  writeFileSync(path.join(dataDir, "left-behind.json"), "{}");
  chmodSync(path.join(dataDir, "left-behind.json"), 0o644);
  // A new install: initdb and the migrations create every file, as they would on a user's machine.
  app = await startApp({ dataDir, env: { PGLITE_DIR: undefined }, freshDatabase: true });
  // A key written through the bridge, so the database has written key hashes (and WAL) by the time modes are read.
  await createTestKey(app, "starter");
}, 180_000);
afterAll(async () => {
  await app?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe("private local state of a running server", () => {
  it("DATA_DIR is 0700 and nothing under it is open to group or other", () => {
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    const paths = everything(dataDir);
    expect(paths.some((p) => p.includes(`${path.sep}pglite${path.sep}`))).toBe(true);
    // The key was written through the bridge a moment ago: its socket is still open (it closes once idle).
    expect(paths).toContain(path.join(dataDir, "bridge", ".s.PGSQL.5432"));
    const open = paths.filter((p) => (lstatSync(p).mode & 0o077) !== 0 && !lstatSync(p).isSymbolicLink());
    expect(open.map((p) => `${path.relative(dataDir, p)} ${(lstatSync(p).mode & 0o777).toString(8)}`)).toEqual([]);
    expect(app.logs()).toMatch(/local state was readable by other users: access removed/);
  });
});
