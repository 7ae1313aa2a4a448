// Vitest global setup for unit tests: one migrated PGlite, dumped to a tarball that every in-memory database of the
// run starts from (PGLITE_TEMPLATE, lib/db/client.ts; the oracle tests' freshDb too). initdb and the migrations cost
// seconds of CPU per database; loading the dump costs a fraction of that (docs/testing.md "The embedded database in
// tests"). The tarball is named after what it is made of (the migrations and the PGlite version): a change to either
// makes a new one, and runs in between reuse it.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";

const migrationsOf = (root: string) => path.join(root, "prisma", "migrations");

/** Where the template for the current migrations and PGlite version lives (under the tests' DATA_DIR, .data/test). */
export function pgliteTemplatePath(root: string): string {
  const hash = createHash("sha256");
  hash.update(JSON.parse(readFileSync(path.join(root, "node_modules", "@electric-sql", "pglite", "package.json"), "utf8")).version);
  const dir = migrationsOf(root);
  for (const name of readdirSync(dir).sort()) {
    const file = path.join(dir, name, "migration.sql");
    if (existsSync(file)) hash.update(`\0${name}\0`).update(readFileSync(file));
  }
  return path.join(root, ".data", "test", `pglite-template-${hash.digest("hex").slice(0, 16)}.tar`);
}

export async function ensurePgliteTemplate(root: string): Promise<string> {
  const file = pgliteTemplatePath(root);
  if (existsSync(file)) return file;
  // Loaded here, not at the top: vitest.config.mts imports this module for the path alone.
  const { PGlite } = await import("@electric-sql/pglite");
  const { applyMigrations, pgliteMigrationTarget } = await import("../../lib/db/migrate");
  const pglite = await PGlite.create();
  try {
    await applyMigrations(pgliteMigrationTarget(pglite), migrationsOf(root));
    const dump = await pglite.dumpDataDir("none");
    mkdirSync(path.dirname(file), { recursive: true });
    // Written aside, then renamed: a run started meanwhile never reads half a tarball.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
  } finally {
    await pglite.close();
  }
  // Older templates (other migrations) are of no further use.
  for (const name of readdirSync(path.dirname(file))) {
    if (name.startsWith("pglite-template-") && name !== path.basename(file) && !name.endsWith(".partial")) {
      rmSync(path.join(path.dirname(file), name), { force: true });
    }
  }
  return file;
}

export default async function setup(project: TestProject) {
  await ensurePgliteTemplate(project.config.root);
}
