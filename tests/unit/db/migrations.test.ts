// Incremental migrations (docs/migrations.md): applying every committed migration in order yields exactly the
// datamodel of prisma/schema, on embedded PGlite and on PostgreSQL; a database migrated at the previous release
// upgrades in place with its rows kept; released migrations are never edited.
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, migrationsDir, pgliteMigrationTarget, type MigrationTarget } from "@/lib/db/migrate";
import { migratePostgres } from "@/lib/db/migrate-postgres";
import { type Catalog, type Query, readCatalog, schemaFromEmptySql } from "../../helpers/schema-catalog";
import { POSTGRES_URL, postgresAvailable } from "../../helpers/services";

const expected = readdirSync(migrationsDir(), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

// The previous release: the migrations on main at 8d8a020 (2026-11-24), before incremental migrations. Their
// checksums are pinned: a database that applied them must never meet a different file under the same name.
const PREVIOUS_RELEASE: Record<string, string> = {
  "20261122000001_keys": "f7b07fc0c45d4cee863d67355052507384e940beb31ea415259a4e9af727694b",
  "20261122000002_market_data": "a826aeeb027693aedf9e0cb3b8e8a6c2ab2b141fb199923bd15074bdaad60006",
  "20261122000003_oracle": "fb4c4086f607cd8add5c2cedfbfa3c4d6a52e4175bf2dd4025b685f59059498f",
};

// One row in every table of the previous release, written against that release's columns.
const RELEASE_ROWS = `
  INSERT INTO api_keys (id, hashed_key, prefix, tier, owner, use_case, status, last_used_at)
    VALUES ('7d4f9c1e-0f7e-4c9a-9d59-1b2c3d4e5f60', 'hash-1', 'pmk_Old1', 'pro', 'Acme', 'weekly report', 'active', '2026-11-20T10:00:00Z');
  INSERT INTO events (id, slug, title, category, volume_usd, volume_24h_usd, active, closed, open, market_count, seen_at)
    VALUES ('ev-1', 'old-event', 'An old event', 'politics', 1000, 50, true, false, true, 1, '2026-11-20T10:00:00Z');
  INSERT INTO markets (id, condition_id, event_id, event_slug, slug, question, active, closed, open, volume_usd, seen_at)
    VALUES ('mk-1', '0x${"ab".repeat(32)}', 'ev-1', 'old-event', 'old-market', 'Will it?', true, false, true, 1000, '2026-11-20T10:00:00Z');
  INSERT INTO outcomes (token_id, market_id, index, name, price, priced_at, last_change_at, previous_price)
    VALUES ('111', 'mk-1', 0, 'Yes', 0.42, '2026-11-20T10:00:00Z', '2026-11-20T10:00:00Z', 0.4);
  INSERT INTO price_samples (outcome_id, resolution_s, t, price) SELECT id, 0, '2026-11-20T10:00:00Z', 0.42 FROM outcomes;
  INSERT INTO trades (id, tx_hash, condition_id, market_id, outcome, outcome_index, side, price, shares, usd_size, wallet, timestamp)
    VALUES ('tr-1', '0x01', '0x${"ab".repeat(32)}', 'mk-1', 'Yes', 0, 'BUY', 0.42, 100, 42, '0xwallet', '2026-11-20T10:00:00Z');
  INSERT INTO whale_positions (wallet, token_id, market_id, condition_id, question, outcome, outcome_index, shares, entry_price, sampled_at)
    VALUES ('0xwhale', '111', 'mk-1', '0x${"ab".repeat(32)}', 'Will it?', 'Yes', 0, 50000, 0.3, '2026-11-20T10:00:00Z');
  INSERT INTO sampler_runs (trigger, status, started_at, finished_at, events) VALUES ('cron', 'ok', '2026-11-20T10:00:00Z', '2026-11-20T10:00:05Z', 1);
  INSERT INTO sampler_lease (name, holder, expires_at) VALUES ('sampler', 'host-1', '2026-11-20T10:01:00Z');
  INSERT INTO sampler_state (key, at, value) VALUES ('trades_cursor', '2026-11-20T10:00:00Z', 'tr-1');
  INSERT INTO oracle_scan_cursors (id, chain_id, address, from_block, next_block, updated_at)
    VALUES ('137:0xoo', 137, '0xoo', 100, 200, '2026-11-20T10:00:00Z');
  INSERT INTO oracle_logs (chain_id, block_number, log_index, address, transaction_hash, topic0, topics, data, block_timestamp)
    VALUES (137, 150, 0, '0xoo', '0x02', '0xtopic', ARRAY['0xtopic'], '0x', 1763632800);
`;

let schemaSql: string;
/** prisma/schema's datamodel as embedded PGlite builds it: what both PGlite tests compare with (read-only). */
let pgliteSchemaCatalog: Catalog;
beforeAll(async () => {
  schemaSql = schemaFromEmptySql();
  const fromSchema = new PGlite();
  try {
    await fromSchema.exec(schemaSql);
    pgliteSchemaCatalog = await readCatalog(pgliteQuery(fromSchema));
  } finally {
    await fromSchema.close();
  }
}, 240_000);

/** A migrations directory holding only the previous release's migrations. */
function previousReleaseDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "predmkt-release-"));
  for (const name of Object.keys(PREVIOUS_RELEASE)) {
    mkdirSync(path.join(dir, name));
    copyFileSync(path.join(migrationsDir(), name, "migration.sql"), path.join(dir, name, "migration.sql"));
  }
  return dir;
}

/** Every row of every table, as JSON, keyed by table. */
async function allRows(query: Query, tables: string[]): Promise<Record<string, Record<string, unknown>[]>> {
  const out: Record<string, Record<string, unknown>[]> = {};
  for (const table of tables) {
    out[table] = (await query<{ row: Record<string, unknown> }>(`SELECT row_to_json(whole_row) AS row FROM "${table}" whole_row`)).map(
      (r) => r.row,
    );
  }
  return out;
}

async function tablesOf(query: Query): Promise<string[]> {
  const rows = await query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> '_prisma_migrations' ORDER BY 1`,
  );
  return rows.map((r) => r.table_name);
}

const pgliteQuery =
  (db: PGlite): Query =>
  async <T>(sql: string) =>
    (await db.query<T>(sql)).rows;

const pgQuery =
  (client: pg.Client): Query =>
  async <T>(sql: string) =>
    (await client.query(sql)).rows as T[];

/** Applies a migration directory; the target is the same for PGlite and PostgreSQL. */
type Migrate = (dir?: string) => Promise<string[]>;

async function expectUpgradeKeepsRows(migrate: Migrate, query: Query, exec: (sql: string) => Promise<unknown>, current: Catalog) {
  const release = previousReleaseDir();
  try {
    expect(await migrate(release)).toEqual(Object.keys(PREVIOUS_RELEASE));
    await exec(RELEASE_ROWS);
    const tables = await tablesOf(query);
    const before = await allRows(query, tables);
    for (const table of tables) expect(before[table], table).toHaveLength(1);

    const applied = await migrate();
    expect(applied).toEqual(expected.filter((name) => !(name in PREVIOUS_RELEASE)));
    const after = await allRows(query, tables);
    // Every row survives with every value it had; new columns may add fields.
    for (const table of tables) expect(after[table], table).toEqual(before[table].map((row) => expect.objectContaining(row)));
    expect(await readCatalog(query)).toEqual(current);
  } finally {
    rmSync(release, { recursive: true, force: true });
  }
}

describe("migrations", () => {
  it("released migrations are unchanged and sort before every later one", () => {
    for (const [name, checksum] of Object.entries(PREVIOUS_RELEASE)) {
      expect(
        createHash("sha256")
          .update(readFileSync(path.join(migrationsDir(), name, "migration.sql")))
          .digest("hex"),
        name,
      ).toBe(checksum);
    }
    expect(expected.slice(0, 3)).toEqual(Object.keys(PREVIOUS_RELEASE));
  });

  it("apply cleanly to an empty embedded PGlite, once, and build exactly prisma/schema's datamodel", async () => {
    const migrated = new PGlite();
    try {
      const target = pgliteMigrationTarget(migrated);
      expect(await applyMigrations(target)).toEqual(expected);
      expect(await applyMigrations(target)).toEqual([]);
      expect(pgliteSchemaCatalog.columns.length).toBeGreaterThan(50);
      expect(await readCatalog(pgliteQuery(migrated))).toEqual(pgliteSchemaCatalog);
    } finally {
      await migrated.close();
    }
    // A WASM database and every migration: CPU-bound; it took 30 s on a machine shared with other test runs.
  }, 120_000);

  it("upgrade a PGlite database migrated at the previous release in place, keeping its rows", async () => {
    const db = new PGlite();
    try {
      const target: MigrationTarget = pgliteMigrationTarget(db);
      await expectUpgradeKeepsRows(
        (dir) => applyMigrations(target, dir),
        pgliteQuery(db),
        (sql) => db.exec(sql),
        pgliteSchemaCatalog,
      );
    } finally {
      await db.close();
    }
  }, 120_000);
});

describe.runIf(await postgresAvailable())("migrations on real PostgreSQL", () => {
  const stamp = `${process.pid}_${Date.now()}`;
  const names = { migrated: `predmkt_migrate_${stamp}`, schema: `predmkt_schema_${stamp}`, upgrade: `predmkt_upgrade_${stamp}` };
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  const urlOf = (db: string) => {
    const url = new URL(POSTGRES_URL);
    url.pathname = `/${db}`;
    return url.toString();
  };
  const clients: pg.Client[] = [];
  const connect = async (db: string) => {
    const client = new pg.Client({ connectionString: urlOf(db) });
    await client.connect();
    clients.push(client);
    return client;
  };
  let current: Catalog;

  beforeAll(async () => {
    await admin.connect();
    for (const db of Object.values(names)) await admin.query(`CREATE DATABASE ${db}`);
    const fromSchema = await connect(names.schema);
    await fromSchema.query(schemaSql);
    current = await readCatalog(pgQuery(fromSchema));
  }, 240_000);

  afterAll(async () => {
    for (const client of clients) await client.end();
    for (const db of Object.values(names)) await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    await admin.end();
  });

  it("apply cleanly to an empty database, once, record Prisma-compatible rows, and build exactly prisma/schema's datamodel", async () => {
    const url = urlOf(names.migrated);
    expect(await migratePostgres(url)).toEqual(expected);
    expect(await migratePostgres(url)).toEqual([]);
    const client = await connect(names.migrated);
    const rows = await client.query<{ migration_name: string; checksum: string; finished_at: Date }>(
      "SELECT migration_name, checksum, finished_at FROM _prisma_migrations ORDER BY migration_name",
    );
    expect(rows.rows.map((r) => r.migration_name)).toEqual(expected);
    for (const row of rows.rows) {
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
    }
    expect(await readCatalog(pgQuery(client))).toEqual(current);
  });

  it("upgrade a database migrated at the previous release in place, keeping its rows", async () => {
    const url = urlOf(names.upgrade);
    const client = await connect(names.upgrade);
    await expectUpgradeKeepsRows(
      (dir) => migratePostgres(url, dir),
      pgQuery(client),
      (sql) => client.query(sql),
      current,
    );
  });
});
