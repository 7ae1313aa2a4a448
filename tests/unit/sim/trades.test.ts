// Trade flow, holders and positions: stable identities, filters, v1/v2 agreement, and whales that show up
// consistently across /trades, /holders and /positions.
import { describe, expect, it } from "vitest";
import { getJson, type Row, simulatorForTests } from "./helpers";

let nowMs = Date.now();
const sim = simulatorForTests({ seed: 21, clock: () => nowMs });

const identity = (t: Row) => [t.transactionHash, t.asset, t.proxyWallet, t.side, t.size, t.price].join("|");
const identityV2 = (t: Row) => [t.transaction_hash, t.token_id, t.proxy_wallet, t.side, t.size, t.price].join("|");

function busiestCondition(): string {
  return sim().summary().samples.busiest_markets[0].condition_id;
}

describe("trade tape", () => {
  it("returns the same trades on refetch, newest first, each identity unique, even as time moves on", async () => {
    const url = (limit: number) => `${sim().dataUrl}/trades?market=${busiestCondition()}&limit=${limit}`;
    const first = (await getJson<Row[]>(url(200))).body;
    expect(first.length).toBe(200);
    const again = (await getJson<Row[]>(url(200))).body;
    expect(again).toEqual(first);
    nowMs += 5 * 60_000;
    const later = (await getJson<Row[]>(url(1000))).body;
    const laterIds = new Set(later.map(identity));
    expect(laterIds.size).toBe(later.length);
    for (const t of first) expect(laterIds.has(identity(t))).toBe(true);
    expect(later[0].timestamp as number).toBeGreaterThanOrEqual(first[0].timestamp as number);
    for (let i = 1; i < later.length; i++) expect(later[i].timestamp as number).toBeLessThanOrEqual(later[i - 1].timestamp as number);
    for (const t of later) {
      expect(["BUY", "SELL"]).toContain(t.side);
      expect(t.price as number).toBeGreaterThan(0);
      expect(t.price as number).toBeLessThan(1);
      expect(t.size as number).toBeGreaterThan(0);
    }
  });

  it("lists one taker row per transaction; with takerOnly=false its makers share the hash, a sweep's at each level", async () => {
    // Research note §3.4: taker_only=true rows are the taker's OrderFilled events, one per transaction; false adds
    // one row per maker order. A sweep is one taker row at the average price paid, its levels filled by makers.
    const takers = (await getJson<Row[]>(`${sim().dataUrl}/trades?market=${busiestCondition()}&limit=1000`)).body;
    const byHash = new Map<unknown, number>();
    for (const t of takers) byHash.set(t.transactionHash, (byHash.get(t.transactionHash) ?? 0) + 1);
    expect(takers.length).toBeGreaterThan(100);
    expect([...byHash.values()].every((n) => n === 1)).toBe(true);
    const all = (await getJson<Row[]>(`${sim().dataUrl}/trades?market=${busiestCondition()}&limit=1000&takerOnly=false`)).body;
    expect(new Set(all.map(identity)).size).toBe(all.length);
    const takerByHash = new Map(takers.map((t) => [t.transactionHash, t]));
    const makersByHash = new Map<unknown, Row[]>();
    for (const t of all) {
      const taker = takerByHash.get(t.transactionHash);
      if (!taker || identity(taker) === identity(t)) continue;
      makersByHash.set(t.transactionHash, [...(makersByHash.get(t.transactionHash) ?? []), t]);
    }
    expect(makersByHash.size).toBeGreaterThan(0);
    const sweeps = [...makersByHash.entries()].filter(([, makers]) => new Set(makers.map((m) => m.price)).size > 1);
    expect(sweeps.length, "sweeps among the transactions").toBeGreaterThan(0);
    for (const [hash, makers] of sweeps) {
      const taker = takerByHash.get(hash)!;
      const prices = makers.map((m) => m.price as number);
      const shares = makers.reduce((sum, m) => sum + (m.size as number), 0);
      // The taker's row carries the whole order: its shares, at the average of the levels' prices.
      expect(taker.size as number).toBeCloseTo(shares, 5);
      expect(taker.price as number).toBeGreaterThan(Math.min(...prices));
      expect(taker.price as number).toBeLessThan(Math.max(...prices));
    }
  });

  it("has heavy-tailed sizes: a few trades dwarf the median", async () => {
    const rows = (await getJson<Row[]>(`${sim().dataUrl}/trades?limit=3000`)).body;
    const usd = rows.map((t) => (t.size as number) * (t.price as number)).sort((a, b) => a - b);
    const median = usd[Math.floor(usd.length / 2)];
    expect(usd[usd.length - 1] / median).toBeGreaterThan(200);
  });

  it("applies side, CASH filter, eventId and takerOnly=false", async () => {
    const sells = (await getJson<Row[]>(`${sim().dataUrl}/trades?limit=300&side=SELL`)).body;
    expect(sells.length).toBe(300);
    for (const t of sells) expect(t.side).toBe("SELL");
    const big = (await getJson<Row[]>(`${sim().dataUrl}/trades?limit=50&filterType=CASH&filterAmount=2000`)).body;
    expect(big.length).toBeGreaterThan(0);
    for (const t of big) expect((t.size as number) * (t.price as number)).toBeGreaterThanOrEqual(2000);
    const unpaired = await getJson<Row>(`${sim().dataUrl}/trades?filterType=CASH`);
    expect(unpaired.status).toBe(400);

    const event = sim().world.events.find((e) => sim().world.isOpen(e) && e.markets.length > 3 && e.tradeRate > 0.5)!;
    const byEvent = (await getJson<Row[]>(`${sim().dataUrl}/trades?eventId=${event.id}&limit=200`)).body;
    expect(byEvent.length).toBeGreaterThan(0);
    for (const t of byEvent) expect(t.eventSlug).toBe(event.slug);

    // A page with makers holds at most 200 taker fills, so the taker tape at the same limit holds every one of them: a
    // shallower taker page would let a taker fill past its end pass for a maker.
    const takers = (await getJson<Row[]>(`${sim().dataUrl}/trades?market=${busiestCondition()}&limit=200`)).body;
    const withMakers = (await getJson<Row[]>(`${sim().dataUrl}/trades?market=${busiestCondition()}&limit=200&takerOnly=false`)).body;
    const takerIds = new Set(takers.map(identity));
    const takerByHash = new Map(takers.map((t) => [t.transactionHash, t]));
    const makers = withMakers.filter((t) => !takerIds.has(identity(t)));
    expect(makers.length).toBeGreaterThan(0);
    for (const m of makers) {
      const taker = takerByHash.get(m.transactionHash);
      expect(taker, `maker fill ${identity(m)} shares a taker fill's transaction`).toBeDefined();
      expect(m.side).not.toBe(taker!.side);
      expect(m.proxyWallet).not.toBe(taker!.proxyWallet);
    }
  });

  it("rejects malformed ids with 400 and answers [] for well-formed unknown ones", async () => {
    expect((await fetch(`${sim().dataUrl}/trades?market=0x1234`)).status).toBe(400);
    expect((await fetch(`${sim().dataUrl}/trades?user=bob`)).status).toBe(400);
    expect((await fetch(`${sim().dataUrl}/trades?offset=10001`)).status).toBe(400);
    const unknown = await getJson<Row[]>(`${sim().dataUrl}/trades?market=0x${"ab".repeat(32)}`);
    expect(unknown.body).toEqual([]);
  });

  it("wraps around past the ~4,000-row window instead of answering an empty page (upstream quirk)", async () => {
    const head = (await getJson<Row[]>(`${sim().dataUrl}/trades?limit=10`)).body;
    const wrapped = (await getJson<Row[]>(`${sim().dataUrl}/trades?limit=10&offset=4000`)).body;
    expect(wrapped).toEqual(head);
  });

  it("v2 cursor paging returns the v1 tape in the same order, snake_case, without duplicates", async () => {
    const v1 = (await getJson<Row[]>(`${sim().dataUrl}/trades?market=${busiestCondition()}&limit=250`)).body;
    const collected: Row[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 5; page++) {
      const url: string = `${sim().dataUrl}/v2/trades?condition=${busiestCondition()}&limit=50${cursor ? `&cursor=${cursor}` : ""}`;
      const { body } = await getJson<{ data: Row[]; pagination: { has_more: boolean; next_cursor: string | null } }>(url);
      collected.push(...body.data);
      expect(body.pagination.has_more).toBe(true);
      cursor = body.pagination.next_cursor;
    }
    expect(collected.map(identityV2)).toEqual(v1.map(identity));
    const bad = await getJson<Row>(`${sim().dataUrl}/v2/trades?cursor=@@@`);
    expect(bad.status).toBe(400);
    expect(bad.body.parameter).toBe("cursor");
  });
});

describe("whales, holders and positions", () => {
  it("a whale seen trading appears among the top holders of that token, with the amount the trades imply", async () => {
    const anchorSec = Math.floor(sim().world.anchorMs / 1000);
    let checked = 0;
    for (const wallet of sim().summary().samples.whale_wallets) {
      const trades = (await getJson<Row[]>(`${sim().dataUrl}/trades?user=${wallet}&limit=500`)).body;
      if (trades.length === 0) continue;
      for (const t of trades) expect(t.proxyWallet).toBe(wallet);
      const notional = trades.map((t) => (t.size as number) * (t.price as number));
      expect(Math.max(...notional)).toBeGreaterThanOrEqual(4000);

      const latest = trades[0];
      const holders = (await getJson<Row[]>(`${sim().dataUrl}/holders?market=${latest.conditionId as string}`)).body;
      const group = holders.find((g) => g.token === latest.asset)!;
      const row = (group.holders as Row[]).find((h) => h.proxyWallet === wallet);
      expect(row, `whale ${wallet} in holders of ${latest.asset as string}`).toBeDefined();

      // Holder amount = book position at the anchor + net of the whale's trades since then.
      const walletIndex = sim().world.walletByAddress.get(wallet)!;
      const market = sim().world.marketByCondition.get(latest.conditionId as string)!;
      const position = Array.from(sim().world.positionsOfWallet(walletIndex)).find((p) => sim().world.posMarket[p] === market.index)!;
      const sinceAnchor = (
        await getJson<Row[]>(`${sim().dataUrl}/trades?user=${wallet}&market=${latest.conditionId as string}&limit=1000`)
      ).body.filter((t) => (t.timestamp as number) >= anchorSec);
      const net = sinceAnchor.reduce((s, t) => s + (t.side === "BUY" ? 1 : -1) * (t.size as number), 0);
      expect(row!.amount as number).toBeCloseTo(Math.max(0, sim().flow.whaleBaseShares(position) + net), 3);

      const positions = (await getJson<Row[]>(`${sim().dataUrl}/positions?user=${wallet}&market=${latest.conditionId as string}`)).body;
      expect(positions).toHaveLength(1);
      const p = positions[0];
      expect(p.size as number).toBeCloseTo(row!.amount as number, 3);
      expect(p.avgPrice as number).toBeGreaterThan(0);
      expect(p.avgPrice as number).toBeLessThan(1);
      expect(p.currentValue as number).toBeCloseTo((p.size as number) * (p.curPrice as number), 3);
      expect(p.cashPnl as number).toBeCloseTo((p.currentValue as number) - (p.initialValue as number), 3);
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it("every trader on a market's tape holds a position in it", async () => {
    const trades = (await getJson<Row[]>(`${sim().dataUrl}/trades?market=${busiestCondition()}&limit=30`)).body;
    for (const t of trades.slice(0, 10)) {
      const positions = (
        await getJson<Row[]>(`${sim().dataUrl}/positions?user=${t.proxyWallet as string}&market=${busiestCondition()}&sizeThreshold=0`)
      ).body;
      expect(positions.map((p) => p.asset)).toContain(t.asset);
    }
  });

  it("clamps holders at 20 per token and honours minBalance", async () => {
    const many = (await getJson<Row[]>(`${sim().dataUrl}/holders?market=${busiestCondition()}&limit=100`)).body;
    for (const g of many) expect((g.holders as Row[]).length).toBeLessThanOrEqual(20);
    const rich = (await getJson<Row[]>(`${sim().dataUrl}/holders?market=${busiestCondition()}&minBalance=1000`)).body;
    for (const g of rich) for (const h of g.holders as Row[]) expect(h.amount as number).toBeGreaterThanOrEqual(1000);
  });
});

describe("trade tape maker rows as measured (reality makerCrossOutcome)", () => {
  const crossing = simulatorForTests({ seed: 21, reality: { makerCrossOutcome: true } });

  it("puts about 78 % of maker rows on the other outcome with the taker's side at the complementary price", () => {
    // Research note §3.4 (1,162 of 1,491 maker rows; sim/polymarket/SOURCES.md, "Live feeds"): a taker BUY Yes 0.64
    // is filled by a maker BUY No 0.36; the rest are the taker's outcome, the opposite side, the same price.
    const sim = crossing();
    const market = sim.world.marketByCondition.get(sim.summary().samples.busiest_markets[0].condition_id)!;
    const now = Math.floor(Date.now() / 1000);
    const rows = sim.flow.query({ markets: [market.index], takerOnly: false, since: now - 6 * 3600, until: now, need: 1_000_000 });
    const key = (t: (typeof rows)[number]) => `${t.kind}.${t.a}.${t.b}.${t.c}`;
    const takers = new Map(rows.filter((t) => !t.maker).map((t) => [key(t), t]));
    let crossed = 0;
    let plain = 0;
    for (const m of rows.filter((t) => t.maker)) {
      const taker = takers.get(key(m))!;
      // Single-level fills only: a sweep's makers are priced at their own levels.
      if (taker.levels) continue;
      expect(m.wallet).not.toBe(taker.wallet);
      if (m.outcome !== taker.outcome) {
        crossed++;
        expect(m.side).toBe(taker.side);
        expect(m.price).toBeCloseTo(1 - taker.price, 5);
      } else {
        plain++;
        expect(m.side).not.toBe(taker.side);
        expect(m.price).toBe(taker.price);
      }
    }
    const share = crossed / (crossed + plain);
    expect(crossed + plain, "maker rows checked").toBeGreaterThan(200);
    expect(share).toBeGreaterThan(0.7);
    expect(share).toBeLessThan(0.86);
  });
});
