// The sampler's write path against a hand-made upstream: idempotence, failures mid-way, leases, rollups, retention.
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { closeDb, type Db, getDb } from "@/lib/db/client";
import { runPass } from "@/lib/sampler/pass";
import { event, FakeWorld, market, trade } from "./fake-world";

let db: Db;
const T0 = Date.parse("2026-11-01T00:00:00Z");

async function reset() {
  db = await getDb();
  await db.$executeRawUnsafe(
    "TRUNCATE events, markets, outcomes, price_samples, trades, whale_positions, sampler_runs, sampler_lease, sampler_state RESTART IDENTITY",
  );
}

function world(): FakeWorld {
  const w = new FakeWorld();
  w.events = [
    event(1, [market(11, "1", [0.6, 0.4]), market(12, "1", [0.1, 0.9])]),
    event(2, [market(21, "2", [0.5, 0.5])]),
    event(3, [market(31, "3", [0.25, 0.75])]),
  ];
  const cond = market(11, "1", [0, 0]).condition_id!;
  w.trades = [trade(3, cond, T0 / 1000 - 10), trade(2, cond, T0 / 1000 - 20), trade(1, cond, T0 / 1000 - 30)];
  return w;
}

const at = (minutes: number) => () => new Date(T0 + minutes * 60_000);
const count = async (table: string) => (await db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${table}`))[0].n;

beforeEach(reset);
afterAll(closeDb);

describe("runPass", () => {
  it("stores events, markets, outcomes, samples and trades, and logs the run", async () => {
    const w = world();
    const result = await runPass({ db, source: w, now: at(0), trigger: "test" });
    expect(result.status).toBe("ok");
    expect(result.counts).toMatchObject({ events: 3, markets: 4, outcomes: 8, samples: 8, trades: 3 });
    expect(await count("events")).toBe(3);
    expect(await count("price_samples")).toBe(8);
    const run = await db.samplerRun.findFirstOrThrow();
    expect(run).toMatchObject({ status: "ok", trigger: "test", events: 3, trades: 3, error: null });
    expect(run.finishedAt).not.toBeNull();
    const event1 = await db.event.findUniqueOrThrow({ where: { slug: "event-1" } });
    expect(event1).toMatchObject({ category: "politics", categoryLabel: "Politics", marketCount: 2, open: true });
  });

  it("writes no duplicate trades or samples when two passes see the same data", async () => {
    const w = world();
    await runPass({ db, source: w, now: at(0) });
    const second = await runPass({ db, source: w, now: at(1) });
    expect(second.status).toBe("ok");
    expect(second.counts.trades).toBe(0);
    // Unchanged prices one minute later: nothing new is stored (change-only storage, heartbeat not due).
    expect(second.counts.samples).toBe(0);
    expect(await count("trades")).toBe(3);
    expect(await count("price_samples")).toBe(8);
    // A changed price is stored, only for that outcome.
    w.events[1].markets[0].outcomes[0].price = 0.55;
    const third = await runPass({ db, source: w, now: at(2) });
    expect(third.counts.samples).toBe(1);
    // A new trade is added once, however many passes see it.
    w.trades.unshift(trade(4, w.trades[0].condition_id, T0 / 1000 + 100));
    await runPass({ db, source: w, now: at(3) });
    await runPass({ db, source: w, now: at(4) });
    expect(await count("trades")).toBe(4);
  });

  it("stores a heartbeat sample for an unchanged price once the last one is an hour old", async () => {
    const w = world();
    await runPass({ db, source: w, now: at(0) });
    expect((await runPass({ db, source: w, now: at(59) })).counts.samples).toBe(0);
    expect((await runPass({ db, source: w, now: at(60) })).counts.samples).toBe(8);
  });

  it("keeps what a pass committed before failing, and the next pass completes", async () => {
    const w = world();
    w.failOnEventsPage = 1;
    const failed = await runPass({ db, source: w, now: at(0) });
    expect(failed.status).toBe("failed");
    expect(failed.error).toMatch(/simulated upstream failure/);
    // Page 0 (events 1 and 2) was committed; the failed listing closed nothing and set no as-of time.
    expect(await count("events")).toBe(2);
    expect(await db.samplerState.findUnique({ where: { key: "events_at" } })).toBeNull();
    expect((await db.samplerRun.findFirstOrThrow()).status).toBe("failed");

    const next = await runPass({ db, source: w, now: at(1) });
    expect(next.status).toBe("ok");
    expect(await count("events")).toBe(3);
    expect(await count("markets")).toBe(4);
    expect(await count("trades")).toBe(3);
    // The first page's samples from the failed pass are kept and not written again.
    expect(await count("price_samples")).toBe(8);
  });

  it("lets only one of two overlapping passes do the work", async () => {
    const w = world();
    const results = await Promise.all([runPass({ db, source: w, now: at(0) }), runPass({ db, source: w, now: at(0) })]);
    expect(results.map((r) => r.status).sort()).toEqual(["ok", "skipped"]);
    expect(await count("sampler_runs")).toBe(1);
    expect(await count("trades")).toBe(3);
    // The lease is released afterwards: the next pass runs.
    expect((await runPass({ db, source: w, now: at(1) })).status).toBe("ok");
  });

  it("takes over an expired lease and marks the dead pass's run abandoned", async () => {
    const w = world();
    await db.samplerLease.create({ data: { name: "sampler", holder: "dead", expiresAt: new Date(Date.now() + 60_000) } });
    await db.samplerRun.create({ data: { trigger: "loop", status: "running", startedAt: new Date(T0) } });
    expect((await runPass({ db, source: w, now: at(0) })).status).toBe("skipped");
    await db.samplerLease.update({ where: { name: "sampler" }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await runPass({ db, source: w, now: at(1) })).status).toBe("ok");
    expect((await db.samplerRun.findFirstOrThrow({ where: { id: 1 } })).status).toBe("abandoned");
  });

  it("marks events and markets that left the listing as no longer open", async () => {
    const w = world();
    await runPass({ db, source: w, now: at(0) });
    w.events = w.events.filter((e) => e.id !== "2");
    await runPass({ db, source: w, now: at(1) });
    expect((await db.event.findUniqueOrThrow({ where: { id: "2" } })).open).toBe(false);
    expect((await db.market.findUniqueOrThrow({ where: { id: "21" } })).open).toBe(false);
    expect((await db.event.findUniqueOrThrow({ where: { id: "1" } })).open).toBe(true);
  });

  it("rolls raw samples up into 15-minute and hourly buckets with the closing price, and applies retention", async () => {
    const w = world();
    const yes = w.events[0].markets[0].outcomes[0];
    // A pass every five minutes, plus each bucket's last minute and the next one's first (when the finished bucket is
    // rolled up): several samples per bucket, the closing one last, in a quarter of the passes of one a minute.
    const minutes = [0, 5, 10, 14, 15, 20, 25, 29, 30, 35, 40, 44, 45, 50, 55, 59, 60, 61];
    for (const minute of minutes) {
      yes.price = 0.3 + minute / 1000;
      await runPass({ db, source: w, now: at(minute), config: { whalesEveryS: 1e9 } });
    }
    const outcome = await db.outcome.findUniqueOrThrow({ where: { tokenId: yes.token_id! } });
    const rollup = await db.priceSample.findMany({ where: { outcomeId: outcome.id, resolutionS: 900 }, orderBy: { t: "asc" } });
    // Buckets 00:00, 00:15, 00:30, 00:45 are complete at 01:01; each carries the last price in it.
    expect(rollup.map((r) => [r.t.toISOString().slice(11, 16), Number(r.price.toFixed(3))])).toEqual([
      ["00:00", 0.314],
      ["00:15", 0.329],
      ["00:30", 0.344],
      ["00:45", 0.359],
    ]);
    const hourly = await db.priceSample.findMany({ where: { outcomeId: outcome.id, resolutionS: 3600 } });
    expect(hourly.map((r) => Number(r.price.toFixed(3)))).toEqual([0.359]);

    // Rollups store an unchanged close only as a heartbeat: market 31 never moved, so its 15-minute tier has just
    // the first bucket (its next heartbeat would be 6 h later).
    const quiet = await db.outcome.findFirstOrThrow({ where: { marketId: "31", index: 0 } });
    expect(await db.priceSample.count({ where: { outcomeId: quiet.id, resolutionS: 900 } })).toBe(1);

    // 49 hours later the raw samples are past their 48 h retention; the rollups stay.
    await runPass({ db, source: w, now: at(61 + 49 * 60), config: { whalesEveryS: 1e9 } });
    const raw = await db.priceSample.findMany({ where: { outcomeId: outcome.id, resolutionS: 60 } });
    expect(raw.every((r) => r.t.getTime() >= T0 + (61 + 49 * 60 - 48 * 60) * 60_000)).toBe(true);
    expect(await db.priceSample.count({ where: { outcomeId: outcome.id, resolutionS: 900 } })).toBeGreaterThanOrEqual(4);
    // The trades (all from before the first pass) are past their 49 h retention and are not stored again.
    expect(await count("trades")).toBe(0);
  });

  it("refreshes whale positions with entry prices from the holders read, when each market is due", async () => {
    const w = world();
    const m = w.events[0].markets[0];
    const wallet = "0x00000000000000000000000000000000000000aa";
    w.holdersByCondition.set(m.condition_id!, [
      {
        token_id: m.outcomes[0].token_id!,
        outcome_index: 0,
        holders: [
          {
            wallet,
            pseudonym: "Big-Fish",
            name: null,
            token_id: m.outcomes[0].token_id!,
            outcome_index: 0,
            shares: 50_000,
            verified: null,
            avg_price: 0.42, // v2 holders with include_pnl carry the entry price
            entry_cost_usd: null,
            total_pnl_usd: null,
          },
        ],
      },
    ]);
    const first = await runPass({ db, source: w, now: at(0), config: { whalesEveryS: 600 } });
    expect(first.counts.whales).toBe(1);
    const stored = await db.whalePosition.findFirstOrThrow();
    expect(stored).toMatchObject({ wallet, marketId: "11", outcome: "Yes", shares: 50_000, entryPrice: 0.42, pseudonym: "Big-Fish" });
    const holderCalls = w.calls.holders;
    await runPass({ db, source: w, now: at(5), config: { whalesEveryS: 600 } });
    expect(w.calls.holders).toBe(holderCalls);
    w.holdersByCondition.clear();
    await runPass({ db, source: w, now: at(11), config: { whalesEveryS: 600 } });
    expect(w.calls.holders).toBeGreaterThan(holderCalls);
    // The holder is gone upstream, so the position is gone here.
    expect(await count("whale_positions")).toBe(0);
  });
});
