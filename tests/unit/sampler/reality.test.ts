// The sampler against the simulator with the real upstream's hard parts on: V2 markets, Gamma's closed-by-default
// lists, junk items, and a tape burst far larger than any page between two passes.
import { describe, expect, it } from "vitest";
import { samplerOverSimulator } from "./harness";
import { isJunk } from "@/sim/polymarket/reality";

const m = samplerOverSimulator(
  { seed: 8, scale: "small", reality: { v2Share: 0.2, gammaClosedDefault: true, junkRate: 0.01 } },
  async () => ({
    sampler: await import("@/lib/sampler"),
  }),
);

const config = { eventsPageSize: 100, whalesEveryS: 1e9, whaleMarketsPerPass: 20 };

describe("sampler against the real upstream's hard parts", () => {
  it("a pass that meets junk items finishes, samples every good market (V2 ones with their position ids) and counts the junk", async () => {
    m.sim.setReality({ junkRate: 0.01 });
    m.now += 60_000;
    const result = await m.sampler.runSamplerPass({ now: m.clock, config });
    expect(result.status).toBe("ok");
    const { world } = m.sim;
    const reality = m.sim.reality();
    const goodEvents = world.events.filter((e) => world.isOpen(e) && !isJunk(world, reality, "event", e.index));
    const goodMarkets = goodEvents
      .flatMap((e) => e.markets.map((i) => world.markets[i]))
      .filter((mk) => !isJunk(world, reality, "market", mk.index));
    const junkItems =
      world.events.filter((e) => world.isOpen(e) && isJunk(world, reality, "event", e.index)).length +
      goodEvents.flatMap((e) => e.markets).filter((i) => isJunk(world, reality, "market", i)).length;
    expect(junkItems).toBeGreaterThan(0);
    expect(result.counts.dropped).toBeGreaterThanOrEqual(junkItems); // plus junk trades on the tape
    const run = await m.db.samplerRun.findUnique({ where: { id: result.run_id! } });
    expect(run!.dropped).toBe(result.counts.dropped);

    const stored = new Map(
      (await m.db.market.findMany({ where: { open: true }, select: { id: true, conditionId: true } })).map((r) => [r.id, r]),
    );
    const missing = goodMarkets.filter((mk) => !mk.closed && !stored.has(mk.id));
    expect(missing.map((mk) => mk.id)).toEqual([]);
    const v2 = goodMarkets.filter((mk) => mk.version === "v2" && !mk.closed);
    expect(v2.length).toBeGreaterThan(10);
    const outcomes = await m.db.outcome.findMany({ where: { marketId: { in: v2.map((mk) => mk.id) } } });
    expect(outcomes.length).toBe(v2.length * 2);
    for (const o of outcomes) expect(o.price).not.toBeNull();
    const tokens = new Set(outcomes.map((o) => o.tokenId));
    for (const mk of v2) for (const t of mk.tokenIds) expect(tokens.has(t)).toBe(true);
  });

  it("a tape burst of 20,000 fills between two passes arrives complete: stored fills equal the simulator's tape", async () => {
    m.sim.setReality({ junkRate: 0 }); // count equality needs every fill to be parseable
    // A pass of its own first, so the burst lands between two passes whatever ran before this test.
    m.now += 60_000;
    expect((await m.sampler.runSamplerPass({ now: m.clock, config })).status).toBe("ok");
    const watermark = Number((await m.db.samplerState.findUnique({ where: { key: "trades_watermark" } }))!.value);
    m.now += 60_000;
    const nowS = Math.floor(m.now / 1000);
    m.sim.burst(20_000, { atSec: nowS - 50, spreadSec: 40 });
    // The walk's time budget (25 s by default) is wall time: on a loaded machine 20,000 fills into the embedded
    // database can outlast it and leave the rest for the next pass (cut and resume: tape.test.ts). This test is about
    // completeness in one walk, so its budget is the test's own deadline.
    const result = await m.sampler.runSamplerPass({ now: m.clock, config: { ...config, tapeBudgetMs: 100_000 } });
    expect(result.status).toBe("ok");
    expect(result.tape_gaps).toEqual([]);
    const tape = m.sim.flow.query({ markets: null, takerOnly: true, since: watermark + 1, until: nowS, need: Number.MAX_SAFE_INTEGER });
    expect(tape.length).toBeGreaterThan(20_000);
    expect(m.sim.flow.burstFills(watermark + 1, nowS)).toBe(20_000);
    const stored = (
      await m.db.$queryRawUnsafe<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM trades WHERE timestamp > to_timestamp($1) AND timestamp <= to_timestamp($2)`,
        watermark,
        nowS,
      )
    )[0].n;
    expect(stored).toBe(tape.length);
    // Two passes and 20,000 fills into the embedded database: about 15 s idle, past the default 30 s on a machine
    // loaded ten times over (a shuffled unit run beside other work); its point is size, not speed.
  }, 120_000);
});
