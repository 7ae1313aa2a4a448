// The simulator's reality switches (sim/polymarket/reality.ts), each against the upstream behaviour it imitates.
import { describe, expect, it } from "vitest";
import { startSimulator } from "@/sim/polymarket";
import { simulatorForTests } from "./helpers";
import { isJunk } from "@/sim/polymarket/reality";

const now = Date.parse("2026-11-20T12:00:00Z");
const sim = simulatorForTests({ seed: 9, clock: () => now, reality: { v2Share: 0.3, gammaClosedDefault: true, junkRate: 0 } });

const get = async (path: string) => {
  const res = await fetch(`${sim().url}${path}`);
  return { status: res.status, headers: res.headers, body: await res.json() };
};

describe("V2 markets (v2Share)", () => {
  it("serves a share of markets in the V2 shape: 62-hex condition (sometimes padded), positionIds, version v2", () => {
    const v2 = sim().world.markets.filter((m) => m.version === "v2");
    const share = v2.length / sim().world.markets.length;
    expect(share).toBeGreaterThan(0.2);
    expect(share).toBeLessThan(0.4);
    expect(v2.some((m) => m.paddedCondition)).toBe(true);
    expect(v2.some((m) => m.legacyTokenIds)).toBe(true);
    for (const m of v2) {
      expect(m.conditionId).toMatch(/^0x[0-9a-f]{62}$/);
      // position id = uint256(condition bytes31 ‖ outcome byte) (Polymarket/ts-sdk protocol/ids.ts)
      expect(m.tokenIds[1]).toBe((BigInt(`${m.conditionId}00`) | 1n).toString());
    }
  });

  it("Gamma sends positionIds as an array and version per market; V1 markets keep clobTokenIds", async () => {
    const v2 = sim().world.markets.find((m) => m.version === "v2" && m.legacyTokenIds && m.paddedCondition)!;
    const { body } = await get(`/gamma/markets/${v2.id}`);
    expect(body.version).toBe("v2");
    expect(body.positionIds).toEqual(v2.tokenIds);
    expect(JSON.parse(body.clobTokenIds)).toEqual(v2.legacyTokenIds); // present, but not this market's trading ids
    expect(body.conditionId).toBe(`${v2.conditionId}00`);
    const v1 = sim().world.markets.find((m) => m.version === undefined)!;
    const plain = (await get(`/gamma/markets/${v1.id}`)).body;
    expect(plain.version).toBe("v1");
    expect(JSON.parse(plain.clobTokenIds)).toEqual(v1.tokenIds);
    expect(plain.positionIds).toBeUndefined();
  });

  it("the Data API answers V2 markets by either condition spelling, with position ids as token ids", async () => {
    const v2 = sim()
      .world.markets.filter((m) => m.version === "v2")
      .sort((a, b) => b.tradeRate - a.tradeRate)[0];
    for (const condition of [v2.conditionId, `${v2.conditionId}00`]) {
      const { status, body } = await get(`/data/holders?market=${condition}`);
      expect(status).toBe(200);
      expect(body.map((g: { token: string }) => g.token).sort()).toEqual([...v2.tokenIds].sort());
    }
  });
});

describe("Gamma closed-by-default (gammaClosedDefault)", () => {
  it("leaves closed markets out of /markets and /markets/keyset unless closed=true is sent", async () => {
    const closed = sim().world.markets.find((m) => m.closed)!;
    const ids = `condition_ids=${closed.conditionId}`;
    expect((await get(`/gamma/markets?${ids}`)).body).toEqual([]);
    expect((await get(`/gamma/markets/keyset?${ids}`)).body.markets).toEqual([]);
    expect((await get(`/gamma/markets/keyset?${ids}&closed=true`)).body.markets.map((m: { id: string }) => m.id)).toEqual([closed.id]);
  });

  it("marks the legacy offset lists deprecated", async () => {
    for (const path of ["/gamma/markets?limit=1", "/gamma/events?limit=1"]) {
      const { headers } = await get(path);
      expect(headers.get("deprecation")).toBe("true");
      expect(headers.get("sunset")).toBe("Fri, 01 May 2026 00:00:00 GMT");
      expect(headers.get("warning")).toMatch(/keyset/);
    }
  });

  it("/markets/keyset refuses offset and caps limit at 100", async () => {
    expect((await get("/gamma/markets/keyset?offset=5")).status).toBe(422);
    const { body } = await get("/gamma/markets/keyset?limit=500");
    expect(body.markets).toHaveLength(100);
    expect(typeof body.next_cursor).toBe("string");
  });
});

describe("junk items (junkRate)", () => {
  it("serves the same items as junk every time, and only at the configured rate", async () => {
    sim().setReality({ junkRate: 0.05 });
    try {
      const { body } = await get("/gamma/events/keyset?limit=500&closed=false");
      const junk = body.events.filter((e: { slug: string | null }) => e.slug === null);
      expect(junk.length).toBeGreaterThan(0);
      for (const e of body.events) {
        const index = sim().world.eventById.get(String(e.id))!.index;
        expect(e.slug === null).toBe(isJunk(sim().world, sim().reality(), "event", index));
      }
      const again = await get("/gamma/events/keyset?limit=500&closed=false");
      expect(again.body.events.filter((e: { slug: string | null }) => e.slug === null).length).toBe(junk.length);
      const trades = (await get("/data/v2/trades?limit=1000")).body.data;
      const badTrades = trades.filter((t: { price: number | null }) => t.price === null).length;
      expect(badTrades).toBeGreaterThan(0);
      expect(badTrades).toBeLessThan(trades.length * 0.15);
    } finally {
      sim().setReality({ junkRate: 0 });
    }
  });
});

describe("/v2/holders", () => {
  it("nets a user's amount across outcomes by default and gives gross amounts with entry prices under include_pnl", async () => {
    const market = [...sim().world.markets].filter((m) => !m.closed).sort((a, b) => b.tradeRate - a.tradeRate)[0];
    const gross = (await get(`/data/v2/holders?condition=${market.conditionId}&include_pnl=true&limit=100`)).body;
    const net = (await get(`/data/v2/holders?condition=${market.conditionId}&limit=1000`)).body;
    expect(gross.pagination).toMatchObject({ has_more: false, next_cursor: null });
    const rows = (body: any) => body.data.flatMap((g: any) => g.holders.map((h: any) => ({ ...h, token: g.token_id })));
    const grossRows = rows(gross);
    for (const h of grossRows) {
      expect(h.avg_price).toBeGreaterThan(0);
      expect(h.entry_cost_usdc).toBeCloseTo(h.amount * h.avg_price, 6);
    }
    // Whoever holds both sides appears netted (smaller) or not at all without include_pnl.
    const byWallet = new Map<string, number[]>();
    for (const h of grossRows) byWallet.set(h.proxy_wallet, [...(byWallet.get(h.proxy_wallet) ?? []), h.amount]);
    for (const h of rows(net)) {
      expect(h.avg_price).toBeUndefined();
      const g = grossRows.find((x: any) => x.proxy_wallet === h.proxy_wallet && x.token === h.token);
      if (g) expect(h.amount).toBeLessThanOrEqual(g.amount + 1e-9);
    }
    expect((await get(`/data/v2/holders?condition=${market.conditionId}&include_pnl=true&limit=101`)).status).toBe(400);
    expect((await get(`/data/v2/holders?condition=${market.conditionId}&offset=1`)).body.code).toBe("invalid_request");
  });
});

describe("tape bursts", () => {
  it("adds exactly `count` taker fills to the tape, reachable with the v2 cursor", async () => {
    const local = await startSimulator({ seed: 9, clock: () => now });
    try {
      const before = (await (await fetch(`${local.url}/data/v2/trades?limit=1000`)).json()) as { data: unknown[] };
      const nowS = Math.floor(now / 1000);
      local.burst(2500, { atSec: nowS - 20, spreadSec: 10 });
      expect(local.flow.burstFills(nowS - 20, nowS)).toBe(2500);
      let cursor: string | null = null;
      let inWindow = 0;
      do {
        const page = (await (await fetch(`${local.url}/data/v2/trades?limit=1000${cursor ? `&cursor=${cursor}` : ""}`)).json()) as {
          data: { timestamp: number; transaction_hash: string }[];
          pagination: { next_cursor: string | null };
        };
        inWindow += page.data.filter((t) => t.timestamp >= nowS - 20 && t.timestamp < nowS - 10).length;
        if (page.data.length && page.data[page.data.length - 1].timestamp < nowS - 20) break;
        cursor = page.pagination.next_cursor;
      } while (cursor);
      expect(before.data.length).toBe(1000);
      expect(inWindow).toBeGreaterThanOrEqual(2500);
    } finally {
      await local.close();
    }
  });
});

describe("Cloudflare-style throttling (rateLimits)", () => {
  it("delays requests over the documented limit, then refuses with 429 and Retry-After; counts peaks", async () => {
    const local = await startSimulator({ seed: 9, reality: { rateLimits: true } });
    try {
      const wallet = local.summary().samples.whale_wallets[0];
      // /positions: 150 per 10 s. 150 pass at once; the next are delayed (≤ 4 s) or refused.
      const started = Date.now();
      const answers = await Promise.all(
        Array.from({ length: 170 }, () =>
          fetch(`${local.dataUrl}/positions?user=${wallet}&limit=1`).then((r) => ({
            status: r.status,
            retry: r.headers.get("retry-after"),
          })),
        ),
      );
      const stats = local.throttle();
      expect(stats.peak["/data/positions"]).toEqual({ peak: 150, limit: 150 });
      expect(stats.refused).toBe(20); // the window frees only after 10 s: longer than the longest delay
      expect(answers.filter((a) => a.status === 429)).toHaveLength(20);
      for (const a of answers.filter((x) => x.status === 429)) expect(Number(a.retry)).toBeGreaterThan(4);
      expect(Date.now() - started).toBeLessThan(4000);
      // Cloudflare's own 52x HTML page.
      local.setFault({ target: "gamma", mode: "cloudflare", status: 524, count: 1 });
      const cf = await fetch(`${local.gammaUrl}/events/keyset?limit=1`);
      expect(cf.status).toBe(524);
      expect(cf.headers.get("content-type")).toMatch(/text\/html/);
    } finally {
      await local.close();
    }
  });
});
