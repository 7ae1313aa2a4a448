// Builds the production app only when its sources changed since the last build of the same output directory.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

export const ROOT = path.resolve(__dirname, "../..");
const SOURCES = ["app", "lib", "components", "proxy.ts", "instrumentation.ts", "next.config.ts", "package-lock.json", "prisma", "public"];

export function sourceHash(): string {
  const hash = createHash("sha256");
  const visit = (p: string) => {
    if (!existsSync(p)) return;
    if (statSync(p).isDirectory()) {
      if (p.endsWith(`${path.sep}generated`)) return;
      for (const entry of readdirSync(p).sort()) visit(path.join(p, entry));
    } else {
      hash.update(path.relative(ROOT, p));
      hash.update(readFileSync(p));
    }
  };
  for (const s of SOURCES) visit(path.join(ROOT, s));
  return hash.digest("hex").slice(0, 16);
}

function withLock<T>(lockDir: string, work: () => T): T {
  const started = Date.now();
  const owner = path.join(lockDir, "pid");
  for (;;) {
    try {
      mkdirSync(lockDir, { recursive: false });
      writeFileSync(owner, String(process.pid));
      break;
    } catch {
      // Another process is building the same output: wait for it rather than build twice. A lock whose builder is
      // gone (killed mid-build: `npm test` stops its background build when a phase fails) is taken over at once.
      if (lockOwnerGone(owner)) {
        rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() - started > 900_000) throw new Error(`timed out waiting for build lock ${lockDir}`);
      execFileSync("sleep", ["1"]);
    }
  }
  try {
    return work();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

function lockOwnerGone(owner: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(owner, "utf8"));
  } catch {
    return false; // just created, its pid not written yet
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** Ensures `distDir` (relative to the project) holds a build of the current sources; returns true if it built. */
export function ensureBuild(distDir: string, log: (line: string) => void = console.log): boolean {
  const hash = sourceHash();
  const stamp = path.join(ROOT, distDir, "SOURCE_HASH");
  const current = () => existsSync(path.join(ROOT, distDir, "BUILD_ID")) && existsSync(stamp) && readFileSync(stamp, "utf8") === hash;
  if (current()) return false;
  mkdirSync(path.dirname(path.join(ROOT, distDir)), { recursive: true });
  return withLock(path.join(ROOT, `${distDir}.lock`), () => {
    if (current()) return false;
    log(`building the app (next build -> ${distDir}) ...`);
    execFileSync(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "build"], {
      cwd: ROOT,
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
    });
    writeFileSync(stamp, hash);
    return true;
  });
}
