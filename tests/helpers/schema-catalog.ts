// What a database's catalog says about the datamodel (tables, columns with their types, nullability and defaults,
// indexes, constraints, enums), as sorted lines that compare equal exactly when two databases have the same datamodel.
// Column order is left out: a migration that adds a column appends it, which is the same datamodel. Functions and
// triggers are left out too: the Prisma datamodel cannot express them (hand-written migrations add them).
import { execFileSync } from "node:child_process";

export type Query = <T>(sql: string) => Promise<T[]>;

export interface Catalog {
  columns: string[];
  indexes: string[];
  constraints: string[];
  enums: string[];
}

const OURS = `NOT IN ('_prisma_migrations')`;

export async function readCatalog(query: Query): Promise<Catalog> {
  const columns = await query<Record<string, unknown>>(
    `SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default, character_maximum_length,
            numeric_precision, numeric_scale, datetime_precision
       FROM information_schema.columns WHERE table_schema = 'public' AND table_name ${OURS}`,
  );
  const indexes = await query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename ${OURS}`);
  const constraints = await query<{ line: string }>(
    `SELECT rel.relname || ' ' || c.conname || ' ' || c.contype::text || ' ' || pg_get_constraintdef(c.oid) AS line
       FROM pg_constraint c JOIN pg_class rel ON rel.oid = c.conrelid JOIN pg_namespace n ON n.oid = rel.relnamespace
      WHERE n.nspname = 'public' AND rel.relname ${OURS}`,
  );
  const enums = await query<{ line: string }>(
    `SELECT t.typname || ': ' || string_agg(e.enumlabel, ', ' ORDER BY e.enumsortorder) AS line
       FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = 'public' GROUP BY t.typname`,
  );
  return {
    columns: columns.map((c) => Object.values(c).map(String).join(" | ")).sort(),
    indexes: indexes.map((i) => i.indexdef).sort(),
    constraints: constraints.map((c) => c.line).sort(),
    enums: enums.map((e) => e.line).sort(),
  };
}

/** The SQL that creates prisma/schema's datamodel in an empty database (Prisma's `migrate diff --from-empty`). */
export function schemaFromEmptySql(): string {
  return execFileSync(
    process.execPath,
    ["node_modules/prisma/build/index.js", "migrate", "diff", "--from-empty", "--to-schema-datamodel", "prisma/schema", "--script"],
    { encoding: "utf8", env: { ...process.env, CHECKPOINT_DISABLE: "1" }, stdio: ["ignore", "pipe", "pipe"] },
  );
}
