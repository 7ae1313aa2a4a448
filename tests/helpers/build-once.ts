// Vitest global setup for integration tests: builds the production app into its own directory (.next-test) when
// the sources changed since the last test build, so tests never disturb the demo's .next.
import type { TestProject } from "vitest/node";
import { ensureBuild } from "../../scripts/lib/build";

export function ensureTestBuild(): string {
  // One fixed directory (stamped with the source hash) so `next build` records it in tsconfig.json only once.
  const distDir = ".next-test";
  ensureBuild(distDir, (line) => console.log(`[build-once] ${line}`));
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
