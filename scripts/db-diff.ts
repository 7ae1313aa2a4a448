// Writes the next migration: `npm run db:diff -- <name> [--prefix 20261124110001]`, or checks that there is none to
// write: `npm run db:diff -- --check`. The SQL is Prisma's diff from the schema the committed migrations build
// (replayed in order into an in-memory shadow PGlite) to prisma/schema, so each migration holds only the change and
// a database migrated at any earlier commit upgrades in place. Committed migrations are never edited
// (docs/migrations.md).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";

const MIGRATIONS = "prisma/migrations";
const EMPTY = "-- This is an empty migration.";

/** Prisma's SQL from the committed migrations to prisma/schema; an empty string when they already agree. */
function pendingSchemaChange(): string {
  const sql = execFileSync(
    process.execPath,
    [
      "node_modules/prisma/build/index.js",
      "migrate",
      "diff",
      "--from-migrations",
      MIGRATIONS,
      "--to-schema-datamodel",
      "prisma/schema",
      "--script",
    ],
    { encoding: "utf8", env: { ...process.env, CHECKPOINT_DISABLE: "1" }, stdio: ["ignore", "pipe", "inherit"] },
  );
  return sql.trim() === EMPTY ? "" : sql;
}

/** `YYYYMMDDHHMMSS` in UTC, Prisma's own migration prefix. */
function timestamp(now = new Date()): string {
  return now.toISOString().replace(/\D/g, "").slice(0, 14);
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { check: { type: "boolean" }, prefix: { type: "string" } },
  });
  const change = pendingSchemaChange();
  if (values.check) {
    if (!change) return console.log("prisma/schema and prisma/migrations agree");
    console.error(`prisma/schema has changes no migration holds (npm run db:diff -- <name>):\n\n${change}`);
    process.exit(1);
  }
  const name = positionals[0];
  if (!name || !/^[a-z0-9_]+$/.test(name)) {
    console.error("usage: npm run db:diff -- <name in snake_case> [--prefix YYYYMMDDHHMMSS] | --check");
    process.exit(2);
  }
  if (!change) return console.log("nothing to write: prisma/schema and prisma/migrations already agree");
  const prefix = values.prefix ?? timestamp();
  const existing = readdirSync(MIGRATIONS).filter((entry) => /^\d{14}_/.test(entry));
  const last = existing.sort().at(-1);
  if (last && `${prefix}_${name}` <= last) {
    // Allowed (engineers hold their own prefixes), but a database that already has `last` applies this one after it.
    console.warn(`note: ${prefix}_${name} sorts before ${last}; it must not depend on migrations that sort after it`);
  }
  const dir = path.join(MIGRATIONS, `${prefix}_${name}`);
  if (existsSync(dir)) throw new Error(`${dir} exists`);
  mkdirSync(dir);
  writeFileSync(path.join(dir, "migration.sql"), change);
  console.log(`wrote ${dir}/migration.sql:\n\n${change}`);
}

main();
