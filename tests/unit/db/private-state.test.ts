// DATA_DIR and everything in it are private to the server's user: created 0700, and a world-readable directory or
// file left by an older version (PGlite's files were 0666, DATA_DIR 0755) is tightened at start.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ensurePrivateDir } from "@/lib/db/private-state";

const mode = (p: string) => statSync(p).mode & 0o777;
let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("private local state", () => {
  it("creates DATA_DIR 0700, whatever the umask", () => {
    root = mkdtempSync(path.join(tmpdir(), "private-state-"));
    const previous = process.umask(0o000);
    try {
      const dir = path.join(root, "data", "nested");
      expect(ensurePrivateDir(dir).tightened).toEqual([]);
      expect(mode(dir)).toBe(0o700);
    } finally {
      process.umask(previous);
    }
  });

  it("removes group and other access from the directory and everything below it, and says what it changed", () => {
    root = mkdtempSync(path.join(tmpdir(), "private-state-"));
    const dir = path.join(root, "data");
    mkdirSync(path.join(dir, "pglite", "base", "1"), { recursive: true });
    writeFileSync(path.join(dir, "pglite", "base", "1", "1259"), "key hashes");
    writeFileSync(path.join(dir, "secrets.json"), "{}");
    writeFileSync(path.join(dir, "already-private"), "x", { mode: 0o600 });
    chmodSync(dir, 0o755);
    chmodSync(path.join(dir, "pglite"), 0o777);
    chmodSync(path.join(dir, "pglite", "base", "1", "1259"), 0o666);
    chmodSync(path.join(dir, "secrets.json"), 0o644);
    symlinkSync("/etc/hostname", path.join(dir, "link"));

    const { tightened } = ensurePrivateDir(dir);
    expect(tightened.sort()).toEqual([".", "pglite", "pglite/base", "pglite/base/1", "pglite/base/1/1259", "secrets.json"].sort());
    expect(mode(dir)).toBe(0o700);
    expect(mode(path.join(dir, "pglite"))).toBe(0o700);
    expect(mode(path.join(dir, "pglite", "base", "1"))).toBe(0o700);
    expect(mode(path.join(dir, "pglite", "base", "1", "1259"))).toBe(0o600);
    expect(mode(path.join(dir, "secrets.json"))).toBe(0o600);
    expect(mode(path.join(dir, "already-private"))).toBe(0o600);
    // A symbolic link is not followed: what it points at keeps its mode.
    expect(statSync("/etc/hostname").mode & 0o044).not.toBe(0);
    expect(ensurePrivateDir(dir).tightened).toEqual([]);
  });

  it("refuses a DATA_DIR that is a file, with a message naming it", () => {
    root = mkdtempSync(path.join(tmpdir(), "private-state-"));
    const file = path.join(root, "not-a-dir");
    writeFileSync(file, "");
    expect(() => ensurePrivateDir(file)).toThrow(/not-a-dir/);
  });
});
