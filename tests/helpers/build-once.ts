// Vitest global setup for integration tests: builds the production app once per source state into its own
// directory (.next-test/<hash>), so a rebuild never replaces files under a server another run is using.
import { readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { ensureBuild, ROOT, sourceHash } from "../../scripts/lib/build";

export function ensureTestBuild(): string {
  const distDir = path.join(".next-test", sourceHash());
  if (ensureBuild(distDir, (line) => console.log(`[build-once] ${line}`))) {
    // Keep the newest few builds only.
    const dir = path.join(ROOT, ".next-test");
    const builds = readdirSync(dir)
      .filter((d) => !d.endsWith(".lock"))
      .map((d) => ({ d, t: statSync(path.join(dir, d)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const { d } of builds.slice(4)) rmSync(path.join(dir, d), { recursive: true, force: true });
  }
  return distDir;
}

export default function setup(project: TestProject) {
  project.provide("distDir", ensureTestBuild());
}

declare module "vitest" {
  export interface ProvidedContext {
    distDir: string;
  }
}
