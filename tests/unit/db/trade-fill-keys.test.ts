// The fill-key migration (prisma/migrations/20261126240001_trade_fill_keys; docs/upstream-live.md, "One row per
// fill") on a constructed dataset: fills stored twice or three times under the old second-based ids (RTDS a second
// early, EIP-55 wallets) merge into one row each, wallets become lower case, and the key the migration computes in
// SQL is the one lib/upstream computes for the same fill read again (so it is not stored a second time).
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, migrationsDir, pgliteMigrationTarget } from "@/lib/db/migrate";
import { fillKey } from "@/lib/upstream/schemas/data";

const MIGRATION = "20261126240001_trade_fill_keys";
const CONDITION = `0x${"ab".repeat(32)}`;
const V2_CONDITION_62 = `0x01${"cd".repeat(30)}`;
const WALLET = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
const OTHER = "0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359";

// [id, tx_hash, condition_id, market_id, outcome_index, side, price, shares, wallet, timestamp]
type Row = [string, string, string, string | null, number | null, string, number, number, string, string];
const rows: Row[] = [
  // Fill A: heard live (RTDS `trades`, a second early, checksum wallet) and read from REST.
  ["old-rtds-a", "0xaa", CONDITION, "mk-1", 0, "BUY", 0.64, 25, WALLET, "2026-11-26T10:00:09Z"],
  ["old-rest-a", "0xaa", CONDITION, "mk-1", 0, "BUY", 0.64, 25, WALLET.toLowerCase(), "2026-11-26T10:00:10Z"],
  // Fill B: once.
  ["old-rest-b", "0xbb", CONDITION, "mk-1", 1, "SELL", 0.3, 10, OTHER, "2026-11-26T10:01:00Z"],
  // Fill C: twice, in a market the database does not hold (no token to key it: merged by its columns).
  ["old-rtds-c", "0xcc", V2_CONDITION_62, null, 0, "BUY", 0.5, 7.5, WALLET, "2026-11-26T10:02:00Z"],
  ["old-rest-c", "0xCC", `${V2_CONDITION_62}00`, null, 0, "BUY", 0.5, 7.5, WALLET.toLowerCase(), "2026-11-26T10:02:01Z"],
  // Fill D: one order sweeping two levels (two fills, one transaction): two rows, both kept.
  ["old-rest-d1", "0xdd", CONDITION, "mk-1", 0, "BUY", 0.6, 20, OTHER, "2026-11-26T10:03:00Z"],
  ["old-rest-d2", "0xdd", CONDITION, "mk-1", 0, "BUY", 0.61, 5, OTHER, "2026-11-26T10:03:00Z"],
  // Fill E: three times (`trades` and `orders_matched`, both a second early, then REST).
  ["old-rtds-e1", "0xee", CONDITION, "mk-1", 1, "BUY", 0.36, 100, WALLET, "2026-11-26T10:04:04Z"],
  ["old-rtds-e2", "0xee", CONDITION, "mk-1", 1, "BUY", 0.36, 100, WALLET, "2026-11-26T10:04:04Z"],
  ["old-rest-e", "0xee", CONDITION, "mk-1", 1, "BUY", 0.36, 100, WALLET.toLowerCase(), "2026-11-26T10:04:05Z"],
];

describe("trade fill-key migration", () => {
  const db = new PGlite();
  beforeAll(async () => {
    const before = mkdtempSync(path.join(os.tmpdir(), "predmkt-fillkeys-"));
    for (const d of readdirSync(migrationsDir(), { withFileTypes: true })) {
      if (!d.isDirectory() || d.name >= MIGRATION) continue;
      mkdirSync(path.join(before, d.name));
      copyFileSync(path.join(migrationsDir(), d.name, "migration.sql"), path.join(before, d.name, "migration.sql"));
    }
    const target = pgliteMigrationTarget(db);
    await applyMigrations(target, before);
    await db.exec(`
      INSERT INTO events (id, slug, title, active, closed, open, market_count, seen_at)
        VALUES ('ev-1', 'ev', 'An event', true, false, true, 1, now());
      INSERT INTO markets (id, condition_id, event_id, event_slug, slug, question, active, closed, open, volume_usd, seen_at)
        VALUES ('mk-1', '${CONDITION}', 'ev-1', 'ev', 'mk', 'Will it?', true, false, true, 1000, now());
      INSERT INTO outcomes (token_id, market_id, index, name) VALUES ('111', 'mk-1', 0, 'Yes'), ('222', 'mk-1', 1, 'No');
      INSERT INTO whale_positions (wallet, token_id, market_id, condition_id, question, outcome, outcome_index, shares, sampled_at)
        VALUES ('${WALLET}', '111', 'mk-1', '${CONDITION}', 'Will it?', 'Yes', 0, 500, '2026-11-26T09:00:00Z'),
               ('${WALLET.toLowerCase()}', '111', 'mk-1', '${CONDITION}', 'Will it?', 'Yes', 0, 600, '2026-11-26T10:00:00Z');
    `);
    for (const r of rows)
      await db.query(
        `INSERT INTO trades (id, tx_hash, condition_id, market_id, outcome_index, side, price, shares, usd_size, wallet, timestamp)
         VALUES ($1, $2, $3, $4, $5, $6, $7::float8, $8::float8, $7::float8 * $8::float8, $9, $10)`,
        r,
      );
    // The migrations that sort after this one (other areas' tables) apply with it.
    expect((await applyMigrations(target))[0]).toBe(MIGRATION);
  }, 120_000);
  afterAll(() => db.close());

  it("merges every fill stored more than once into one row and keeps distinct fills", async () => {
    const left = (await db.query<{ id: string }>(`SELECT id FROM trades ORDER BY id`)).rows.map((r) => r.id);
    console.log(
      `fill-key migration on the constructed dataset: ${rows.length} rows → ${left.length} (${rows.length - left.length} duplicates merged)`,
    );
    // The REST row (block time) of each duplicated fill stays; the sweep's two fills both stay.
    expect(left).toEqual(["old-rest-a", "old-rest-b", "old-rest-c", "old-rest-d1", "old-rest-d2", "old-rest-e"]);
  });

  it("stores wallets, transaction hashes and condition ids in one form", async () => {
    const trades = (
      await db.query<{ wallet: string; tx_hash: string; condition_id: string }>(`SELECT wallet, tx_hash, condition_id FROM trades`)
    ).rows;
    for (const t of trades) {
      expect(t.wallet).toBe(t.wallet.toLowerCase());
      expect(t.tx_hash).toBe(t.tx_hash.toLowerCase());
      expect(t.condition_id).toMatch(/^0x[0-9a-f]{64}$/);
    }
    const whales = (await db.query<{ wallet: string; shares: number }>(`SELECT wallet, shares FROM whale_positions`)).rows;
    expect(whales).toEqual([{ wallet: WALLET.toLowerCase(), shares: 600 }]);
  });

  it("keys each fill exactly as lib/upstream keys the same fill read again, so it is not stored twice", async () => {
    const keyed = (await db.query<{ id: string; fill_key: string | null }>(`SELECT id, fill_key FROM trades ORDER BY id`)).rows;
    const a = keyed.find((r) => r.id === "old-rest-a")!;
    expect(a.fill_key).toBe(fillKey({ tx_hash: "0xaa", token_id: "111", wallet: WALLET, side: "BUY", size: 25, price: 0.64, seconds: 0 }));
    const e = keyed.find((r) => r.id === "old-rest-e")!;
    expect(e.fill_key).toBe(fillKey({ tx_hash: "0xee", token_id: "222", wallet: WALLET, side: "BUY", size: 100, price: 0.36, seconds: 0 }));
    // No token for the unknown market's fill: it keeps no key (its duplicate was merged by its columns).
    expect(keyed.find((r) => r.id === "old-rest-c")!.fill_key).toBeNull();
    // The same fill arriving again under its new id is skipped by the key's unique index.
    await db.query(
      `INSERT INTO trades (id, tx_hash, condition_id, market_id, outcome_index, side, price, shares, usd_size, wallet, timestamp, fill_key)
       VALUES ($1, '0xaa', '${CONDITION}', 'mk-1', 0, 'BUY', 0.64, 25, 16, $2, '2026-11-26T10:00:10Z', $1) ON CONFLICT DO NOTHING`,
      [a.fill_key, WALLET.toLowerCase()],
    );
    expect((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM trades WHERE tx_hash = '0xaa'`)).rows[0].n).toBe(1);
  });
});
