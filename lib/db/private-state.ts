// DATA_DIR holds the embedded database (API key hashes, also in its WAL), the generated secrets and the bridge socket
// that gives full SQL: only the user the server runs as may read or write any of it (SECURITY.md, "Local state").
// Checked at start: the directory is created 0700 and whatever group/other access it or its contents have is taken
// away; if that cannot be done (another user owns them), the server refuses to start and says what to run.
import { chmodSync, lstatSync, mkdirSync, readdirSync, type Stats } from "node:fs";
import path from "node:path";

const PRIVATE_DIR_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;
const GROUP_OR_OTHER = 0o077;
/** Deep enough for PGlite's tree (base/<db>/<relfilenode>, pg_wal/...); nothing under DATA_DIR nests deeper. */
const MAX_DEPTH = 6;

interface TightenReport {
  /** Paths whose mode was narrowed (relative to the directory). */
  tightened: string[];
}

function refuse(target: string, stats: Stats, why: string): never {
  throw new Error(
    `${target} is ${why} (mode ${(stats.mode & 0o777).toString(8)}, owner uid ${stats.uid}) and this process (uid ` +
      `${process.getuid?.()}) cannot make it private. DATA_DIR holds the API key hashes and secrets: run ` +
      `\`chown -R $(id -u) '${target}' && chmod -R go-rwx '${target}'\` as its owner, or point DATA_DIR elsewhere.`,
  );
}

function tighten(target: string, stats: Stats, relative: string, report: TightenReport): void {
  const wanted = stats.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
  if ((stats.mode & GROUP_OR_OTHER) === 0) return;
  const uid = process.getuid?.();
  if (uid !== undefined && uid !== 0 && stats.uid !== uid) refuse(target, stats, "readable by other users and owned by another");
  try {
    chmodSync(target, (stats.mode & 0o700) | wanted);
  } catch {
    refuse(target, stats, "readable by other users");
  }
  report.tightened.push(relative || ".");
}

function walk(dir: string, relative: string, depth: number, report: TightenReport): void {
  if (depth > MAX_DEPTH) return;
  for (const name of readdirSync(dir)) {
    const target = path.join(dir, name);
    const stats = lstatSync(target);
    // Symbolic links are not followed (their own mode means nothing); sockets and files alike lose group/other access.
    if (stats.isSymbolicLink()) continue;
    const child = path.join(relative, name);
    tighten(target, stats, child, report);
    if (stats.isDirectory()) walk(target, child, depth + 1, report);
  }
}

/** Creates `dir` 0700 if missing, then removes group/other access from it and everything below it. */
export function ensurePrivateDir(dir: string): TightenReport {
  const report: TightenReport = { tightened: [] };
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const stats = lstatSync(dir);
  if (!stats.isDirectory()) throw new Error(`DATA_DIR ${dir} is not a directory`);
  tighten(dir, stats, "", report);
  walk(dir, "", 1, report);
  return report;
}
