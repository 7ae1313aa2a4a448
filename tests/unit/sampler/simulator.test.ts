// The sampler against the offline Polymarket simulator over real HTTP (lib/upstream clients), on in-memory PGlite.
import { describe, expect, it } from "vitest";
import { samplerOverSimulator } from "./harness";

const m = samplerOverSimulator({ seed: 7, scale: "small" }, async () => ({
  sampler: await import("@/lib/sampler"),
  upstream: await import("@/lib/upstream"),
  source: await import("@/lib/sampler/upstream-source"),
}));

const count = async (table: string) => (await m.db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${table}`))[0].n;
const config = { eventsPageSize: 100, whaleMarketsPerPass: 20 };

// One scenario in steps (first pass, the same world again, a minute later, a failed pass, ...): each step starts from
// the state the one before left, so the steps keep their order when CI shuffles the suite.
describe("sampler against the simulator", { shuffle: false }, () => {
  it("fills every open event and market, prices, trades and whales in one pass", async () => {
    const result = await m.sampler.runSamplerPass({ now: m.clock, config });
    expect(result.status).toBe("ok");
    const summary = m.sim.summary();
    expect(await m.db.event.count({ where: { open: true } })).toBe(summary.counts.open_events);
    expect(await m.db.market.count({ where: { open: true } })).toBe(summary.counts.open_markets);
    expect(result.counts.samples).toBeGreaterThan(summary.counts.open_markets);
    expect(result.counts.trades).toBeGreaterThan(0);
    expect(await count("whale_positions")).toBeGreaterThan(0);
    expect(await m.db.whalePosition.count({ where: { entryPrice: { not: null } } })).toBeGreaterThan(0);
    expect(await m.db.outcome.count({ where: { price: null } })).toBe(0);
  });

  it("writes no duplicate trades or samples when a second pass sees the same world", async () => {
    const trades = await count("trades");
    const samples = await count("price_samples");
    const again = await m.sampler.runSamplerPass({ now: m.clock, config });
    expect(again.status).toBe("ok");
    expect(again.counts.trades).toBe(0);
    expect(again.counts.samples).toBe(0);
    expect(await count("trades")).toBe(trades);
    expect(await count("price_samples")).toBe(samples);
  });

  it("adds only the new trades and changed prices a minute later", async () => {
    const before = await count("trades");
    m.now += 60_000;
    const next = await m.sampler.runSamplerPass({ now: m.clock, config });
    expect(next.status).toBe("ok");
    expect(next.counts.trades).toBeGreaterThan(0);
    expect(await count("trades")).toBe(before + next.counts.trades);
    // Every trade the upstream shows for the last minute is stored exactly once.
    const tape = await m.upstream.data.listTrades({ limit: 500, takerOnly: true });
    const ids = tape.trades.map((t) => t.id);
    expect(await m.db.trade.count({ where: { id: { in: ids } } })).toBe(new Set(ids).size);
  });

  it("recovers from a pass that fails mid-way: the next pass completes and nothing is lost", async () => {
    m.now += 60_000;
    let pages = 0;
    const failing = {
      ...m.source.upstreamSource,
      eventsPage: async (cursor: string | null, limit: number) => {
        // The upstream starts failing after the first page (retries included), as an outage would.
        if (pages++ === 1) m.sim.setFault({ target: "gamma", path: "/events/keyset", mode: "error", status: 503, count: 10 });
        return m.source.upstreamSource.eventsPage(cursor, limit);
      },
    };
    const eventsAsOf = await m.db.samplerState.findUniqueOrThrow({ where: { key: "events_at" } });
    const failed = await m.sampler.runSamplerPass({ now: m.clock, config, source: failing });
    m.sim.clearFaults();
    expect(failed.status).toBe("failed");
    expect(failed.counts.events).toBe(100);
    expect(failed.error).toBeTruthy();
    // The failed listing neither closed anything nor moved the as-of time.
    expect(await m.db.event.count({ where: { open: true } })).toBe(m.sim.summary().counts.open_events);
    expect((await m.db.samplerState.findUniqueOrThrow({ where: { key: "events_at" } })).at).toEqual(eventsAsOf.at);
    const run = await m.db.samplerRun.findUniqueOrThrow({ where: { id: failed.run_id! } });
    expect(run).toMatchObject({ status: "failed", events: 100 });
    expect(run.error).toBeTruthy();

    const recovered = await m.sampler.runSamplerPass({ now: m.clock, config });
    expect(recovered.status).toBe("ok");
    expect(await m.db.event.count({ where: { open: true } })).toBe(m.sim.summary().counts.open_events);
    expect(await m.db.market.count({ where: { open: true } })).toBe(m.sim.summary().counts.open_markets);
    expect((await m.db.samplerState.findUniqueOrThrow({ where: { key: "prices_at" } })).at).toEqual(m.clock());
    // The failed pass reached no trades; the recovery pass stored every one of the tape.
    const tape = await m.upstream.data.listTrades({ limit: 500, takerOnly: true });
    const ids = [...new Set(tape.trades.map((t) => t.id))];
    expect(await m.db.trade.count({ where: { id: { in: ids } } })).toBe(ids.length);
  });

  it("lets one of two overlapping passes do the work and skips the other", async () => {
    m.now += 60_000;
    const runsBefore = await count("sampler_runs");
    const results = await Promise.all([
      m.sampler.runSamplerPass({ now: m.clock, config }),
      m.sampler.runSamplerPass({ now: m.clock, config }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["ok", "skipped"]);
    expect(await count("sampler_runs")).toBe(runsBefore + 1);
    const trades = await m.db.$queryRawUnsafe<{ n: number; d: number }[]>(
      `SELECT count(*)::int AS n, count(DISTINCT (tx_hash, wallet, condition_id, outcome_index, side, shares, price, timestamp))::int AS d FROM trades`,
    );
    expect(trades[0].n).toBe(trades[0].d);
  });
});
