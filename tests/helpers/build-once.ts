// Vitest global setup for integration tests: builds the production app once per source state into its own
// directory (.next-test/<hash>), so a rebuild never replaces files under a server another run is using.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";

const ROOT = path.resolve(__dirname, "../..");
const SOURCES = ["app", "lib", "components", "proxy.ts", "instrumentation.ts", "next.config.ts", "package-lock.json", "prisma"];

function hashSources(): string {
  const hash = createHash("sha256");
  const visit = (p: string) => {
    if (!existsSync(p)) return;
    const stat = statSync(p);
    if (stat.isDirectory()) {
      if (p.endsWith("generated")) return;
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
  for (;;) {
    try {
      mkdirSync(lockDir);
      break;
    } catch {
      if (Date.now() - started > 600_000) throw new Error(`timed out waiting for build lock ${lockDir}`);
      // Another run is building: wait for it.
      execFileSync("sleep", ["1"]);
    }
  }
  try {
    return work();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

export function ensureBuilt(): string {
  const distDir = path.join(".next-test", hashSources());
  const buildId = path.join(ROOT, distDir, "BUILD_ID");
  if (existsSync(buildId)) return distDir;
  mkdirSync(path.join(ROOT, ".next-test"), { recursive: true });
  withLock(path.join(ROOT, ".next-test", "build.lock"), () => {
    if (existsSync(buildId)) return;
    console.log(`[build-once] next build -> ${distDir}`);
    execFileSync(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "build"], {
      cwd: ROOT,
      stdio: "inherit",
      env: { ...process.env, NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
    });
    // Keep the newest few builds only.
    const builds = readdirSync(path.join(ROOT, ".next-test"))
      .filter((d) => d !== "build.lock")
      .map((d) => ({ d, t: statSync(path.join(ROOT, ".next-test", d)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const { d } of builds.slice(4)) rmSync(path.join(ROOT, ".next-test", d), { recursive: true, force: true });
  });
  return distDir;
}

export default function setup(project: TestProject) {
  project.provide("distDir", ensureBuilt());
}

declare module "vitest" {
  export interface ProvidedContext {
    distDir: string;
  }
}
