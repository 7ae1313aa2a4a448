// Whales across the platform against the simulator with Cloudflare-style rate limits on: every open market above the
// volume floor gets its top holders with entry prices, the refresh rotates within the governor's budget, and the
// simulator never has to delay or refuse one of its requests.
import { describe, expect, it, vi } from "vitest";
import { samplerOverSimulator } from "./harness";

const m = samplerOverSimulator(
  { seed: 6, scale: "demo", reality: { v2Share: 0.2, gammaClosedDefault: true, rateLimits: true } },
  async () => ({
    sampler: await import("@/lib/sampler"),
    refresh: await import("@/lib/sampler/whales"),
    source: await import("@/lib/sampler/upstream-source"),
    defaults: (await import("@/lib/sampler/config")).DEFAULT_CONFIG,
    whales: await import("@/lib/predmkt/whales"),
  }),
);

describe("whales across the platform", () => {
  it(
    "refreshes every market above the floor within the rate limits, and /whales ranks the union with its filters",
    { timeout: 300_000 },
    async () => {
      // A high concurrency pushes the request rate: the governor, not the concurrency, must keep it within budget. The
      // demo world's 1,000-odd eligible markets are what pass the Data API's budget (one request each), so the world
      // stays; five holders per outcome instead of twenty only makes each answer and the rows stored smaller.
      const config = {
        eventsPageSize: 100,
        whaleMarketsPerPass: 5000,
        whaleConcurrency: 16,
        whaleMinVolumeUsd: 10_000,
        whaleHoldersPerOutcome: 5,
      };
      m.sim.resetCounters();
      const started = performance.now();
      const result = await m.sampler.runSamplerPass({ now: m.clock, config });
      const passMs = Math.round(performance.now() - started);
      expect(result.status).toBe("ok");
      const eligible = await m.db.market.findMany({
        where: { open: true, volumeUsd: { gte: 10_000 } },
        select: { id: true, whalesAt: true },
      });
      expect(eligible.length).toBeGreaterThan(50);
      expect(eligible.filter((e) => e.whalesAt === null)).toEqual([]); // every eligible market was refreshed
      const covered = await m.db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(DISTINCT market_id)::int AS n FROM whale_positions`);
      expect(covered[0].n).toBeGreaterThan(eligible.length * 0.9);
      expect(await m.db.whalePosition.count({ where: { entryPrice: null } })).toBe(0); // v2 include_pnl: every entry price
      const throttle = m.sim.throttle();
      expect(throttle.delayed).toBe(0);
      expect(throttle.refused).toBe(0);
      for (const [scope, p] of Object.entries(throttle.peak)) expect(p.peak, scope).toBeLessThanOrEqual(p.limit);
      console.log(
        `[whales] pass ${passMs} ms, ${eligible.length} markets, ${result.counts.whales} positions; sim peaks ${JSON.stringify(throttle.peak)}`,
      );

      // The ranking is over the union; filters narrow it.
      const all = await m.whales.listWhales({ limit: 500 });
      expect(new Set(all.data.map((w) => w.market_id)).size).toBeGreaterThan(10);
      const values = all.data.map((w) => w.value_usd);
      expect(values).toEqual([...values].sort((a, b) => b - a));
      const market = all.data[5].market_id;
      const inMarket = await m.whales.listWhales({ limit: 500, market_id: market });
      expect(inMarket.data.length).toBeGreaterThan(0);
      for (const w of inMarket.data) expect(w.market_id).toBe(market);
      const eventSlug = all.data[0].event_slug!;
      const inEvent = await m.whales.listWhales({ limit: 500, event_slug: eventSlug });
      for (const w of inEvent.data) expect(w.event_slug).toBe(eventSlug);
      const big = await m.whales.listWhales({ limit: 500, min_usd: all.data[20].value_usd });
      expect(big.data.length).toBeGreaterThanOrEqual(20);
      for (const w of big.data) expect(w.value_usd).toBeGreaterThanOrEqual(all.data[20].value_usd);
      // Distinct min_usd values between two points of the canonical grid (10 and 100) share one ranking per pass, cut
      // to each value: the same answer as the whole ranking cut there, and no new query after the first.
      // (The ranking reads positions a page at a time, so "one query" is the statements of the first cut, none after.)
      const queries = vi.spyOn(m.db, "$queryRawUnsafe");
      const reads = () => queries.mock.calls.filter(([sql]) => String(sql).includes("FROM whale_positions")).length;
      let afterFirst = 0;
      for (const minUsd of [10, 10.5, 17, 33.3, 64, 99.99]) {
        const cut = await m.whales.listWhales({ limit: 500, min_usd: minUsd });
        expect(cut.data, `min_usd=${minUsd}`).toEqual(all.data.filter((w) => w.shares * (w.current_price ?? 0) >= minUsd));
        if (minUsd === 10) afterFirst = reads();
      }
      expect(afterFirst).toBeGreaterThan(0);
      expect(reads()).toBe(afterFirst);
      queries.mockRestore();

      // The rotation, as each later pass runs it (lib/sampler/pass.ts: every pass when whalesEveryS is 0), without
      // the rest of a pass: the events, prices and tape of the demo world are not what these steps are about.
      const rotate = () =>
        m.refresh.refreshWhales(m.db, m.source.upstreamSource, { ...m.defaults, ...config }, m.clock, () => Promise.resolve());
      // A minute later nothing is due yet: the rotation does not re-read every market every pass.
      m.now += 60_000;
      m.sim.resetCounters();
      expect((await rotate()).markets).toBe(0);
      expect(m.sim.counters()["/data/v2/holders"] ?? 0).toBe(0);
      // Eleven minutes on, the biggest 100 are due again, the rest are not.
      m.now += 10 * 60_000;
      m.sim.resetCounters();
      await rotate();
      const again = m.sim.counters()["/data/v2/holders"] ?? 0;
      expect(again).toBeGreaterThanOrEqual(Math.min(100, eligible.length));
      expect(again).toBeLessThan(eligible.length);
    },
  );
});
