// The seeded world: size, identifier formats, determinism, and Gamma's listing/paging behaviour over it.
import { describe, expect, it } from "vitest";
import { buildWorld, startSimulator, startOfUtcDay } from "@/sim/polymarket";
import { getJson, type Row, simulatorForTests } from "./helpers";

const ANCHOR = startOfUtcDay(Date.now());

describe("world generation", () => {
  const { world, buildMs } = buildWorld(1, "demo", ANCHOR);

  it("has demo scale: ≥ 300 open events, ≥ 1,500 markets, ≥ 8 categories, multi and binary events, closed ones", () => {
    console.log(
      `demo world built in ${buildMs.toFixed(0)} ms: ${world.events.length} events, ${world.markets.length} markets, ${world.posCount} positions`,
    );
    const open = world.events.filter((e) => world.isOpen(e));
    expect(open.length).toBeGreaterThanOrEqual(300);
    expect(world.markets.length).toBeGreaterThanOrEqual(1500);
    const categories = new Set(open.map((e) => e.category));
    expect(categories.size).toBeGreaterThanOrEqual(8);
    const multi = open.filter((e) => e.markets.length > 1);
    expect(multi.length).toBeGreaterThan(50);
    for (const e of multi) {
      expect(e.markets.length).toBeGreaterThanOrEqual(5);
      expect(e.markets.length).toBeLessThanOrEqual(15);
    }
    expect(open.filter((e) => e.markets.length === 1).length).toBeGreaterThan(100);
    expect(world.events.filter((e) => e.closed && !e.archived).length).toBeGreaterThan(0);
    expect(world.events.filter((e) => e.archived).length).toBeGreaterThan(0);
  });

  it("uses Polymarket's identifier formats, all unique", () => {
    const slugs = new Set<string>();
    for (const e of world.events) {
      expect(e.slug).toMatch(/^[a-z0-9][a-z0-9-]*$/);
      expect(e.id).toMatch(/^\d+$/);
      slugs.add(e.slug);
    }
    expect(slugs.size).toBe(world.events.length);
    const tokens = new Set<string>();
    const conditions = new Set<string>();
    const ids = new Set<string>();
    for (const m of world.markets) {
      expect(m.id).toMatch(/^\d+$/);
      expect(m.conditionId).toMatch(/^0x[0-9a-f]{64}$/);
      for (const t of m.tokenIds) {
        expect(t).toMatch(/^[1-9]\d{76}$/);
        tokens.add(t);
      }
      conditions.add(m.conditionId);
      ids.add(m.id);
    }
    expect(tokens.size).toBe(world.markets.length * 2);
    expect(conditions.size).toBe(world.markets.length);
    expect(ids.size).toBe(world.markets.length);
  });

  it("has heavy-tailed activity: the busiest market trades far more than the median one", () => {
    const rates = world.markets.map((m) => m.tradeRate).sort((a, b) => a - b);
    const median = rates[Math.floor(rates.length / 2)];
    expect(rates[rates.length - 1] / median).toBeGreaterThan(100);
  });

  it("is deterministic: same seed → same world; another seed → another world", () => {
    const again = buildWorld(1, "demo", ANCHOR).world;
    expect(again.events.map((e) => [e.id, e.slug, e.title, e.markets.length])).toEqual(
      world.events.map((e) => [e.id, e.slug, e.title, e.markets.length]),
    );
    expect(again.markets.map((m) => [m.id, m.conditionId, ...m.tokenIds])).toEqual(
      world.markets.map((m) => [m.id, m.conditionId, ...m.tokenIds]),
    );
    const other = buildWorld(2, "demo", ANCHOR).world;
    expect(other.markets[0].conditionId).not.toBe(world.markets[0].conditionId);
    expect(other.events.map((e) => e.slug)).not.toEqual(world.events.map((e) => e.slug));
  });

  it("replays the same trades and prices for the same time from two independently built worlds", () => {
    const a = buildWorld(5, "demo", ANCHOR);
    const b = buildWorld(5, "demo", ANCHOR);
    const until = Math.floor(Date.now() / 1000) - 3 * 86_400;
    const query = { markets: null, takerOnly: true, until, since: until - 3600, need: 500 };
    const tradesA = a.flow.query(query);
    expect(tradesA.length).toBeGreaterThan(10);
    expect(b.flow.query(query)).toEqual(tradesA);
    const market = a.world.markets[0];
    for (let t = until - 86_400; t < until; t += 3600) {
      expect(b.prices.yesProbability(b.world.markets[0], t)).toBe(a.prices.yesProbability(market, t));
    }
  });
});

describe("Gamma listing over the world", () => {
  const now = Date.now();
  const sim = simulatorForTests({ seed: 3, clock: () => now });

  it("two simulators with the same seed and time answer byte-identical bodies", async () => {
    const twin = await startSimulator({ seed: 3, clock: () => now });
    try {
      for (const path of ["/gamma/events?limit=5&order=volume24hr&ascending=false", "/data/trades?limit=50", "/data/v2/trades?limit=20"]) {
        const [a, b] = await Promise.all([fetch(sim().url + path).then((r) => r.text()), fetch(twin.url + path).then((r) => r.text())]);
        expect(a).toBe(b);
      }
    } finally {
      await twin.close();
    }
  });

  it("keyset paging walks every open event exactly once", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const url = `${sim().gammaUrl}/events/keyset?active=true&closed=false&archived=false&limit=37${cursor ? `&after_cursor=${cursor}` : ""}`;
      const { status, body } = await getJson<{ events: Row[]; next_cursor?: string }>(url);
      expect(status).toBe(200);
      seen.push(...body.events.map((e) => e.id as string));
      if (body.next_cursor !== undefined) expect(body.events).toHaveLength(37);
      cursor = body.next_cursor;
      pages++;
    } while (cursor && pages < 100);
    const open = sim().world.events.filter((e) => sim().world.isOpen(e));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.sort()).toEqual(open.map((e) => e.id).sort());
  });

  it("keyset with an order walks every event once; the last page omits next_cursor", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let last: Row = {};
    do {
      const url = `${sim().gammaUrl}/events/keyset?order=endDate&ascending=false&limit=200${cursor ? `&after_cursor=${cursor}` : ""}`;
      const { body } = await getJson<{ events: Row[]; next_cursor?: string }>(url);
      seen.push(...body.events.map((e) => e.id as string));
      cursor = body.next_cursor;
      last = body;
    } while (cursor);
    expect("next_cursor" in last).toBe(false);
    expect(new Set(seen).size).toBe(sim().world.events.length);
  });

  it("keyset rejects offset; the offset list caps limit at 100 and rejects deep offsets with 422", async () => {
    const keysetOffset = await getJson<Row>(`${sim().gammaUrl}/events/keyset?offset=10`);
    expect(keysetOffset.status).toBe(422);
    expect(keysetOffset.body.error).toBe("offset is not allowed on keyset endpoints");
    const capped = await getJson<Row[]>(`${sim().gammaUrl}/events?limit=500`);
    expect(capped.body).toHaveLength(100);
    const deep = await getJson<Row>(`${sim().gammaUrl}/events?offset=2001`);
    expect(deep.status).toBe(422);
    expect(deep.body).toEqual({ type: "validation error", error: "offset too large, use /events/keyset for deeper pagination" });
    const badOrder = await getJson<Row>(`${sim().gammaUrl}/events?order=volume_24hr`);
    expect(badOrder.status).toBe(422);
  });

  it("closed events keep active: true; filters and ordering work", async () => {
    const closed = await getJson<Row[]>(`${sim().gammaUrl}/events?closed=true&limit=100`);
    expect(closed.body.length).toBeGreaterThan(0);
    for (const e of closed.body) {
      expect(e.closed).toBe(true);
      expect(e.active).toBe(true);
      for (const m of e.markets as Row[]) expect(JSON.parse(m.outcomePrices as string).sort()).toEqual(["0", "1"]);
    }
    const top = await getJson<Row[]>(`${sim().gammaUrl}/events?active=true&closed=false&order=volume24hr&ascending=false&limit=50`);
    const volumes = top.body.map((e) => e.volume24hr as number);
    expect([...volumes].sort((a, b) => b - a)).toEqual(volumes);
    for (const e of top.body) expect(e.closed).toBe(false);
    const politics = await getJson<Row[]>(`${sim().gammaUrl}/events?tag_slug=politics&limit=100`);
    expect(politics.body.length).toBeGreaterThan(0);
    for (const e of politics.body) expect((e.tags as Row[]).some((t) => t.slug === "politics")).toBe(true);
  });
});
