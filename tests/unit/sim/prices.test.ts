// Prices: bounded, consistent across outcomes and sibling markets, answerable for any past time, moving with time.
import { describe, expect, it } from "vitest";
import { getJson, type Row, simulatorForTests } from "./helpers";

let nowMs = Date.now();
const sim = simulatorForTests({ seed: 11, clock: () => nowMs });

const nowSec = () => Math.floor(nowMs / 1000);

describe("price model", () => {
  it("keeps every price in [0, 1] over the last 30 days, binary pairs summing to 1", () => {
    const { world, prices } = sim();
    const sample = world.markets.filter((_, i) => i % 17 === 0);
    for (const market of sample) {
      for (let t = nowSec() - 30 * 86_400; t <= nowSec(); t += 6 * 3600 + 77) {
        const yes = prices.displayPrice(market, 0, t);
        const no = prices.displayPrice(market, 1, t);
        expect(yes).toBeGreaterThanOrEqual(0);
        expect(yes).toBeLessThanOrEqual(1);
        expect(Math.abs(yes + no - 1)).toBeLessThan(1e-9);
        const q = prices.quote(market, 0, t);
        expect(q.bid).toBeLessThan(q.ask);
      }
    }
  });

  it("makes the Yes prices of a multi-market (negRisk) event sum to about 1", () => {
    const { world, prices } = sim();
    const multi = world.events.filter((e) => world.isOpen(e) && e.negRisk).slice(0, 30);
    expect(multi.length).toBeGreaterThan(10);
    for (const event of multi) {
      for (const t of [nowSec(), nowSec() - 86_400, nowSec() - 20 * 86_400]) {
        const exact = event.markets.reduce((s, m) => s + prices.yesProbability(world.markets[m], t), 0);
        expect(exact).toBeCloseTo(1, 9);
        const displayed = event.markets.reduce((s, m) => s + prices.displayPrice(world.markets[m], 0, t), 0);
        expect(Math.abs(displayed - 1)).toBeLessThan(0.02 * event.markets.length);
      }
    }
  });

  it("moves over time, with occasional jumps", () => {
    const { world, prices } = sim();
    let moved = 0;
    let biggestHourlyMove = 0;
    const busiest = [...world.markets]
      .filter((m) => !m.closed)
      .sort((a, b) => b.tradeRate - a.tradeRate)
      .slice(0, 60);
    for (const market of busiest) {
      let previous = prices.yesProbability(market, nowSec() - 30 * 86_400);
      let changed = false;
      for (let t = nowSec() - 30 * 86_400 + 3600; t <= nowSec(); t += 3600) {
        const p = prices.yesProbability(market, t);
        if (Math.abs(p - previous) > 0.001) changed = true;
        biggestHourlyMove = Math.max(biggestHourlyMove, Math.abs(p - previous));
        previous = p;
      }
      if (changed) moved++;
    }
    expect(moved).toBe(busiest.length);
    expect(biggestHourlyMove).toBeGreaterThan(0.05);
  });

  it("resolved markets sit at 0/1 after their close", () => {
    const { world, prices } = sim();
    const closed = world.markets.filter((m) => m.closed);
    expect(closed.length).toBeGreaterThan(0);
    for (const m of closed) {
      expect(prices.displayPrice(m, m.winner!, m.closedSec + 10)).toBe(1);
      expect(prices.displayPrice(m, 1 - m.winner!, m.closedSec + 10)).toBe(0);
    }
  });
});

describe("CLOB prices over HTTP", () => {
  /** Tokens of the busiest open market that has existed for more than 30 days. */
  function busyTokens(): string[] {
    const old = sim()
      .world.markets.filter((m) => !m.closed && m.startSec < nowSec() - 31 * 86_400)
      .sort((a, b) => b.tradeRate - a.tradeRate)[0];
    return [...old.tokenIds];
  }

  it("answers every interval with ascending points inside the window, fidelity in minutes", async () => {
    const [token] = busyTokens();
    const expectations: [string, number, number][] = [
      ["1h", 1, 3600],
      ["6h", 5, 21_600],
      ["1d", 60, 86_400],
      ["1w", 60, 604_800],
      ["1m", 360, 2_592_000],
    ];
    for (const [interval, fidelity, span] of expectations) {
      const { status, body } = await getJson<{ history: { t: number; p: number }[] }>(
        `${sim().clobUrl}/prices-history?market=${token}&interval=${interval}&fidelity=${fidelity}`,
      );
      expect(status).toBe(200);
      const step = fidelity * 60;
      expect(body.history.length).toBeGreaterThanOrEqual(Math.floor(span / step) - 1);
      expect(body.history.length).toBeLessThanOrEqual(Math.floor(span / step) + 1);
      for (let i = 0; i < body.history.length; i++) {
        const { t, p } = body.history[i];
        expect(t).toBeGreaterThanOrEqual(nowSec() - span);
        expect(t).toBeLessThanOrEqual(nowSec());
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThanOrEqual(1);
        if (i > 0) expect(t - body.history[i - 1].t).toBe(step);
      }
    }
    const max = await getJson<{ history: { t: number }[] }>(`${sim().clobUrl}/prices-history?market=${token}&interval=max&fidelity=1440`);
    expect(max.body.history.length).toBeGreaterThan(0);
  });

  it("answers startTs/endTs windows 30 days back, and agrees with the price model", async () => {
    const [token] = busyTokens();
    const start = nowSec() - 30 * 86_400;
    const end = start + 6 * 3600;
    const { body } = await getJson<{ history: { t: number; p: number }[] }>(
      `${sim().clobUrl}/prices-history?market=${token}&startTs=${start}&endTs=${end}&fidelity=60`,
    );
    expect(body.history.length).toBe(6);
    const market = sim().world.markets[sim().world.tokenLookup.get(token)! >> 1];
    for (const point of body.history) {
      expect(point.t).toBeGreaterThanOrEqual(start);
      expect(point.t).toBeLessThanOrEqual(end);
      expect(point.p).toBeCloseTo(sim().prices.displayPrice(market, 0, point.t), 4);
    }
    const both = await fetch(`${sim().clobUrl}/prices-history?market=${token}&interval=1d&startTs=${start}`);
    expect(both.status).toBe(400);
  });

  it("answers empty history for resolved markets at interval=max with fidelity < 720 (upstream quirk)", async () => {
    const closed = sim().world.markets.find((m) => m.closed)!;
    const fine = await getJson<{ history: Row[] }>(`${sim().clobUrl}/prices-history?market=${closed.tokenIds[0]}&interval=max&fidelity=60`);
    expect(fine.body.history).toEqual([]);
    const coarse = await getJson<{ history: Row[] }>(
      `${sim().clobUrl}/prices-history?market=${closed.tokenIds[0]}&interval=max&fidelity=720`,
    );
    expect(coarse.body.history.length).toBeGreaterThan(0);
  });

  it("Gamma outcomePrices follow the clock", async () => {
    const slug = sim().summary().samples.binary_event_slugs[0];
    const before = (await getJson<Row>(`${sim().gammaUrl}/events/slug/${slug}`)).body;
    const saved = nowMs;
    const seen = new Set<string>();
    for (let days = 0; days < 10; days++) {
      nowMs = saved + days * 86_400_000;
      const e = (await getJson<Row>(`${sim().gammaUrl}/events/slug/${slug}`)).body;
      seen.add(String((e.markets as Row[])[0].outcomePrices));
    }
    nowMs = saved;
    expect((before.markets as Row[])[0].outcomePrices).toBeTruthy();
    expect(seen.size).toBeGreaterThan(1);
  });
});
