// The tape walk (lib/sampler/tape.ts) against a hand-made upstream: complete across many pages, resumed when its time
// budget runs out, and a recorded gap — never a silent one — when the upstream will not give a stretch back.
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { closeDb, type Db, getDb } from "@/lib/db/client";
import { runPass } from "@/lib/sampler/pass";
import { event, FakeWorld, market, trade } from "./fake-world";

let db: Db;
const T0 = Date.parse("2026-11-01T00:00:00Z");
const T0_S = T0 / 1000;
const COND = market(11, "1", [0, 0]).condition_id!;

beforeEach(async () => {
  db = await getDb();
  await db.$executeRawUnsafe(
    "TRUNCATE events, markets, outcomes, price_samples, trades, whale_positions, sampler_runs, sampler_lease, sampler_state RESTART IDENTITY",
  );
});
afterAll(closeDb);

const at = (seconds: number) => () => new Date(T0 + seconds * 1000);
const count = async () => (await db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM trades`))[0].n;

/** `n` fills, newest first, one per second ending at `newestS`, ids starting at `from`. */
function fills(from: number, n: number, newestS: number) {
  return Array.from({ length: n }, (_, i) => trade(from + i, COND, newestS - Math.floor(i / 3)));
}

function world(): FakeWorld {
  const w = new FakeWorld();
  w.events = [event(1, [market(11, "1", [0.6, 0.4])])];
  w.pageSize = 10;
  w.tapePageLimit = 25; // far smaller than the burst: the walk must span many pages
  return w;
}

/** `world` whose tape pages each move a budget clock on by `msPerPage`, counted. */
function pacedTape(w: FakeWorld, msPerPage: number) {
  let clockMs = 0;
  let pages = 0;
  const source = Object.assign(Object.create(Object.getPrototypeOf(w)), w) as FakeWorld;
  source.tapePage = async (cursor, limit) => {
    pages++;
    clockMs += msPerPage;
    return FakeWorld.prototype.tapePage.call(w, cursor, limit);
  };
  return { source, clock: () => clockMs, pages: () => pages };
}

describe("the tape", () => {
  it("a burst far larger than a page arrives complete between two passes (count equality)", async () => {
    const w = world();
    w.trades = fills(1, 20, T0_S - 1);
    await runPass({ db, source: w, now: at(0), config: { whalesEveryS: 1e9 } });
    expect(await count()).toBe(20);
    // 500 new fills (3 a second) between the passes: 20 pages of 25.
    w.trades = [...fills(1000, 500, T0_S + 199), ...w.trades];
    const before = w.calls.tapePage;
    const second = await runPass({ db, source: w, now: at(200), config: { whalesEveryS: 1e9 } });
    expect(second.status).toBe("ok");
    expect(second.counts.trades).toBe(500);
    expect(await count()).toBe(520);
    expect(second.tape_gaps).toEqual([]);
    // It stopped at the watermark instead of reading the whole tape again.
    expect(w.calls.tapePage - before).toBeLessThanOrEqual(Math.ceil(503 / 25) + 1);
  });

  it("a walk cut short by its time budget is resumed by the next pass, and nothing is lost", async () => {
    const w = world();
    w.trades = fills(1, 10, T0_S - 1);
    await runPass({ db, source: w, now: at(0), config: { whalesEveryS: 1e9 } });
    w.trades = [...fills(1000, 300, T0_S + 119), ...w.trades];
    // A budget of 0 ms reads nothing; the watermark stays where it was.
    const cut = await runPass({ db, source: w, now: at(60), config: { whalesEveryS: 1e9, tapeBudgetMs: 0 } });
    expect(cut.status).toBe("ok");
    expect(await count()).toBe(10); // nothing read this pass: the budget was spent
    const pendingAfterCut = await db.samplerState.findUnique({ where: { key: "trades_pending" } });
    expect(pendingAfterCut?.value ?? null).toBeNull(); // nothing started, nothing to resume: the watermark did not move
    // A budget that allows a few pages: the top walk stops part-way and leaves a resumable stretch. The budget's
    // clock moves 20 ms a page, so a 120 ms budget reads 6 of the 12 pages, however loaded the machine is.
    const paced = pacedTape(w, 20);
    const partial = await runPass({
      db,
      source: paced.source,
      now: at(61),
      budgetClock: paced.clock,
      config: { whalesEveryS: 1e9, tapeBudgetMs: 120 },
    });
    expect(partial.tape_gaps).toEqual([]);
    expect(paced.pages()).toBe(6);
    expect(await count()).toBe(10 + 6 * 25);
    const pending = await db.samplerState.findUnique({ where: { key: "trades_pending" } });
    expect(JSON.parse(pending!.value!)).toHaveLength(1);
    // The next pass with time to spare finishes the stretch.
    const done = await runPass({ db, source: w, now: at(62), config: { whalesEveryS: 1e9 } });
    expect(done.tape_gaps).toEqual([]);
    expect(await count()).toBe(310);
    expect((await db.samplerState.findUnique({ where: { key: "trades_pending" } }))?.value ?? null).toBeNull();
  });

  it("a stretch the upstream will not give back (cursor refused) is recorded as a gap on the pass record", async () => {
    const w = world();
    w.trades = fills(1, 10, T0_S - 1);
    await runPass({ db, source: w, now: at(0), config: { whalesEveryS: 1e9 } });
    w.trades = [...fills(1000, 300, T0_S + 119), ...w.trades];
    // Four pages in the budget (25 ms a page on its clock, 100 ms), then the rest is left for the next pass.
    const paced = pacedTape(w, 25);
    await runPass({ db, source: paced.source, now: at(60), budgetClock: paced.clock, config: { whalesEveryS: 1e9, tapeBudgetMs: 100 } });
    const stored = await count();
    expect(stored).toBe(10 + 4 * 25);
    w.refuseCursors = true;
    const next = await runPass({ db, source: w, now: at(61), config: { whalesEveryS: 1e9 } });
    expect(next.status).toBe("ok");
    expect(next.tape_gaps).toHaveLength(1);
    const gap = next.tape_gaps[0];
    expect(gap.from_s).toBe(T0_S - 1); // the old watermark
    expect(gap.to_s).toBeLessThan(T0_S + 119);
    expect(gap.estimated_count).toBeGreaterThan(0);
    // The estimate is of the right size: the unread fills are 310 - stored.
    expect(gap.estimated_count).toBeGreaterThan((310 - stored) / 3);
    expect(gap.estimated_count).toBeLessThan((310 - stored) * 3);
    const run = await db.samplerRun.findUnique({ where: { id: next.run_id! } });
    expect(run!.tapeGaps).toEqual([gap]);
    // The endpoints built on the tape, and /api/health, say what they miss.
    const view = {
      from: new Date(gap.from_s * 1000).toISOString(),
      to: new Date(gap.to_s * 1000).toISOString(),
      estimated_count: gap.estimated_count,
      reason: gap.reason,
    };
    const { listTrades, abnormalTrades } = await import("@/lib/predmkt/trades");
    expect((await listTrades(0, 10)).meta.tape_gaps).toEqual([view]);
    expect((await abnormalTrades(10)).meta.tape_gaps).toEqual([view]);
    const { healthReport } = await import("@/lib/server/health");
    const health = await healthReport();
    expect(health.upstream.tape_gaps).toEqual([]); // health looks back from the wall clock; this world is in 2026-11-01
    expect(health.upstream.last_pass?.dropped_items).toBe(0);
  });
});
