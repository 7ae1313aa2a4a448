// Regenerates one area's migration from its schema file: `npm run db:diff -- keys|market|oracle`.
// Areas have no relations between them, so each area's migration is the diff from empty of base.prisma + its file.
// Only valid while that migration has not been deployed anywhere; after that, add a new migration instead.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const AREAS: Record<string, string> = {
  keys: "20261122000001_keys",
  market: "20261122000002_market_data",
  oracle: "20261122000003_oracle",
};

const area = process.argv[2];
if (!area || !AREAS[area]) {
  console.error(`usage: npm run db:diff -- ${Object.keys(AREAS).join("|")}`);
  process.exit(2);
}
const tmp = mkdtempSync(path.join(os.tmpdir(), "schema-"));
const schemaDir = path.join(tmp, "schema");
mkdirSync(schemaDir);
copyFileSync("prisma/schema/base.prisma", path.join(schemaDir, "base.prisma"));
copyFileSync(`prisma/schema/${area}.prisma`, path.join(schemaDir, `${area}.prisma`));
const sql = execFileSync(
  process.execPath,
  ["node_modules/prisma/build/index.js", "migrate", "diff", "--from-empty", "--to-schema-datamodel", schemaDir, "--script"],
  { encoding: "utf8", env: { ...process.env, CHECKPOINT_DISABLE: "1" }, stdio: ["ignore", "pipe", "inherit"] },
);
rmSync(tmp, { recursive: true, force: true });
// Every area's diff starts with CREATE SCHEMA; it is harmless but noisy after the first.
const body = sql.replace(/-- CreateSchema\nCREATE SCHEMA IF NOT EXISTS "public";\n\n/, "");
const dir = path.join("prisma/migrations", AREAS[area]);
mkdirSync(dir, { recursive: true });
writeFileSync(path.join(dir, "migration.sql"), body);
console.log(`wrote ${dir}/migration.sql (${body.split("\n").length} lines)`);
console.log("existing:", readdirSync("prisma/migrations").join(", "));
