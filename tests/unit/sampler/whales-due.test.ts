// The whale refresh chooses its markets in the database (lib/sampler/whales.ts DUE_SQL) so that a pass never holds
// every eligible market. The choice must be exactly the schedule's: rank by volume (ties by id), the interval of
// each rank (whaleIntervalS), overdue = waited / interval with a market never read due now, most overdue first and
// then biggest, at most `whaleMarketsPerPass`. The oracle below computes that rule in JS over the same rows.
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { closeDb, type Db, getDb } from "@/lib/db/client";
import { DEFAULT_CONFIG } from "@/lib/sampler/config";
import type { SamplerSource } from "@/lib/sampler/source";
import { refreshWhales, whaleIntervalS } from "@/lib/sampler/whales";

let db: Db;
const NOW = Date.parse("2026-11-20T12:00:00.000Z");

interface Row {
  id: string;
  conditionId: string;
  volumeUsd: number;
  whalesAt: number | null;
  open: boolean;
}

/** A deterministic spread: ties in volume, ranks across 100, volumes around $100k, never read, due to the ms, not due. */
function rows(): Row[] {
  const out: Row[] = [];
  let seed = 7;
  const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  for (let i = 0; i < 260; i++) {
    const volumeUsd = i % 17 === 0 ? 250_000 : i % 5 === 0 ? 100_000 : Math.round(5_000 + next() * 400_000);
    const rank = i; // only a guide for picking ages; the real rank comes from the volumes
    const interval = whaleIntervalS(rank, volumeUsd) * 1000;
    const kind = i % 6;
    const whalesAt =
      kind === 0
        ? null
        : kind === 1
          ? NOW - interval // exactly one interval ago, to the millisecond
          : kind === 2
            ? NOW - interval + 1 // one millisecond short
            : kind === 3
              ? NOW - 3 * 600_000 // the same age for many markets: ties in overdue across ranks
              : NOW - Math.round(next() * 4 * 7_200_000);
    out.push({
      id: String(1000 + i),
      conditionId: `0x${(1000 + i).toString(16).padStart(64, "0")}`,
      volumeUsd,
      whalesAt,
      open: i % 23 !== 0,
    });
  }
  return out;
}

/** The schedule as docs/api-decisions.md and whales.ts describe it, in JS. */
function oracle(all: Row[], floor: number, perPass: number): string[] {
  const eligible = all
    .filter((m) => m.open && m.volumeUsd >= floor)
    .sort((a, b) => b.volumeUsd - a.volumeUsd || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return eligible
    .map((m, rank) => {
      const interval = whaleIntervalS(rank, m.volumeUsd) * 1000;
      const waited = m.whalesAt === null ? interval : NOW - m.whalesAt;
      return { m, rank, overdue: waited / interval };
    })
    .filter((c) => c.overdue >= 1)
    .sort((a, b) => b.overdue - a.overdue || a.rank - b.rank)
    .slice(0, perPass)
    .map((c) => c.m.conditionId);
}

// Afresh before each case: a refresh stamps the markets it read.
beforeEach(async () => {
  db = await getDb();
  await db.$executeRawUnsafe("TRUNCATE events, markets, outcomes, whale_positions RESTART IDENTITY CASCADE");
  const all = rows();
  await db.$executeRawUnsafe(
    `INSERT INTO markets (id, condition_id, event_id, event_slug, slug, question, active, closed, open, volume_usd, seen_at, whales_at)
     SELECT id, c, 'e', 'e', id, 'Q ' || id, true, false, o, v, now(), w
     FROM unnest($1::text[], $2::text[], $3::bool[], $4::float8[], $5::timestamptz[]) AS u(id, c, o, v, w)`,
    all.map((r) => r.id),
    all.map((r) => r.conditionId),
    all.map((r) => r.open),
    all.map((r) => r.volumeUsd),
    all.map((r) => (r.whalesAt === null ? null : new Date(r.whalesAt).toISOString())),
  );
});
afterAll(closeDb);

describe("the markets a whale refresh reads", () => {
  for (const [floor, perPass] of [
    [10_000, 40],
    [10_000, 1000],
    [100_000, 25],
    [0, 7],
  ] as const) {
    it(`are the schedule's, most overdue first (floor $${floor}, ${perPass} a pass)`, async () => {
      const read: string[] = [];
      const source: SamplerSource = {
        eventsPage: () => Promise.reject(new Error("not used")),
        tapePage: () => Promise.reject(new Error("not used")),
        holders: async (conditionId) => {
          read.push(conditionId);
          return [];
        },
      };
      const config = { ...DEFAULT_CONFIG, whaleMinVolumeUsd: floor, whaleMarketsPerPass: perPass, whaleConcurrency: 1 };
      const result = await refreshWhales(
        db,
        source,
        config,
        () => new Date(NOW),
        () => Promise.resolve(),
      );
      const expected = oracle(rows(), floor, perPass);
      expect(expected.length).toBeGreaterThan(0);
      // One at a time, so the order read is the order chosen.
      expect(read).toEqual(expected);
      expect(result.eligible).toBe(rows().filter((m) => m.open && m.volumeUsd >= floor).length);
    });
  }
});
