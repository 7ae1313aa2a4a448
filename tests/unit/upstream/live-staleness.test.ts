// How far behind the block each `-live` endpoint can be (docs/upstream-live.md, the staleness table), measured on the
// simulator with the research note's lags (the REST tape 3–10 s behind the block, the Data API's per-URL CDN, RTDS
// timing): each endpoint is read on a cache miss, and the figure is how far behind the block that answer is. Until
// its TTL ends the endpoint serves those same bytes (the cache tests assert it), so the oldest answer it serves is
// that figure plus the TTL: the bound in the table; no test sleeps through a TTL to watch a clock run. The figures
// are printed for the table. Also: a trade answer's `meta.as_of` is the instant up to which it holds every fill (the
// list's production time less the Data API's lag), never later.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as eventActivityGET } from "@/app/api/predmkt/events/[slug]/activity-live/route";
import { GET as eventHistoryGET } from "@/app/api/predmkt/events/[slug]/history-live/route";
import { GET as marketActivityGET } from "@/app/api/predmkt/markets/[id]/activity-live/route";
import { GET as holdersGET } from "@/app/api/predmkt/markets/[id]/holders-live/route";
import { LIVE_TTL_S } from "@/lib/predmkt/live";
import { TRADE_LIST_LAG_MS } from "@/lib/upstream/data";
import { callJson } from "@/tests/helpers/handler";
import { type Simulator, startSimulator } from "@/sim/polymarket";
import { pointUpstreamAt } from "./stub-server";

let sim: Simulator;
let restore: () => void;

beforeAll(async () => {
  sim = await startSimulator({ seed: 14, reality: { restLag: true, cdnCache: true, rtdsTiming: true, rtdsMakerRows: true } });
  restore = pointUpstreamAt(sim.url, { UPSTREAM_TIMEOUT_MS: 8000 });
});
afterAll(async () => {
  restore();
  await sim.close();
});

describe("-live staleness on the simulator with the real lags", () => {
  it("measures each endpoint on a miss; trade answers hold every fill up to meta.as_of", async () => {
    const busiest = sim.world.markets.find((m) => m.id === sim.summary().samples.busiest_markets[0].id)!;
    const event = sim.world.events[busiest.eventIndex];
    const eventMarkets = sim.world.markets.filter((m) => m.eventIndex === busiest.eventIndex).map((m) => m.index);

    /** Seconds between now and the newest block up to which the answer holds every fill (ground truth: the tape). */
    const tradesBehind = (markets: number[], txs: Set<string>, nowMs: number) => {
      const nowS = Math.floor(nowMs / 1000);
      const truth = sim.flow.query({ markets, takerOnly: true, since: nowS - 120, until: nowS, need: 1_000_000 });
      const missing = truth.filter((t) => !txs.has(sim.flow.txHash(t)));
      if (!missing.length) return 0;
      // Complete up to the end of the second before the newest missing fill's block.
      const newestMissing = Math.max(...missing.map((t) => t.timestamp));
      return (nowMs - newestMissing * 1000) / 1000;
    };

    const endpoints = [
      {
        name: "/api/predmkt/markets/{id}/activity-live",
        ttlS: LIVE_TTL_S.marketActivity,
        read: () => callJson(marketActivityGET, `/api/predmkt/markets/${busiest.id}/activity-live?trades_limit=500`, { id: busiest.id }),
        behind: (body: { data: { trades: { tx_hash: string }[] } }, nowMs: number) =>
          tradesBehind([busiest.index], new Set(body.data.trades.map((t) => t.tx_hash)), nowMs),
        trades: (body: { data: { trades: { tx_hash: string; timestamp: string }[] } }) => body.data.trades,
      },
      {
        name: "/api/predmkt/events/{slug}/activity-live",
        ttlS: LIVE_TTL_S.eventActivity,
        read: () => callJson(eventActivityGET, `/api/predmkt/events/${event.slug}/activity-live?limit=500`, { slug: event.slug }),
        behind: (body: { data: { tx_hash: string }[] }, nowMs: number) =>
          tradesBehind(eventMarkets, new Set(body.data.map((t) => t.tx_hash)), nowMs),
        trades: (body: { data: { tx_hash: string; timestamp: string }[] }) => body.data,
      },
      {
        name: "/api/predmkt/markets/{id}/holders-live",
        ttlS: LIVE_TTL_S.holders,
        read: () => callJson(holdersGET, `/api/predmkt/markets/${busiest.id}/holders-live`, { id: busiest.id }),
        // The simulator serves holders as of the request (no source gives the Data API's own lag for them).
        behind: (body: { meta: { as_of: string } }, nowMs: number) => (nowMs - Date.parse(body.meta.as_of)) / 1000,
        trades: null,
      },
      {
        name: "/api/predmkt/events/{slug}/history-live",
        ttlS: LIVE_TTL_S.eventHistory,
        read: () => callJson(eventHistoryGET, `/api/predmkt/events/${event.slug}/history-live?interval=1d&markets=1`, { slug: event.slug }),
        // The newest price point of the series (1-minute points: up to a minute old when fetched).
        behind: (body: { data: { points: { t: number }[] }[] }, nowMs: number) =>
          (nowMs - Math.max(...body.data.flatMap((s) => s.points.map((p) => p.t))) * 1000) / 1000,
        trades: null,
      },
    ] as const;

    const figures: string[] = [];
    await Promise.all(
      endpoints.map(async (e) => {
        const miss = await e.read();
        expect(miss.status, e.name).toBe(200);
        expect(miss.body.meta.cache, e.name).toBe("miss");
        const answeredMs = Date.now();
        const missBehind = e.behind(miss.body as never, answeredMs);
        if (e.trades) {
          // Every fill whose block is at or before as_of is in the answer (the lag is taken off the list's time).
          const asOfMs = Date.parse(miss.body.meta.as_of);
          expect(asOfMs, e.name).toBeLessThanOrEqual(answeredMs - TRADE_LIST_LAG_MS);
          const ids = new Set(e.trades(miss.body as never).map((t) => t.tx_hash));
          const markets = e.name.includes("events") ? eventMarkets : [busiest.index];
          const truth = sim.flow.query({
            markets,
            takerOnly: true,
            since: Math.floor(asOfMs / 1000) - 120,
            until: Math.floor(asOfMs / 1000),
            need: 1_000_000,
          });
          expect(truth.length, `${e.name}: fills in the two minutes before as_of`).toBeGreaterThan(0);
          for (const t of truth) expect(ids.has(sim.flow.txHash(t)), `${e.name}: fill at ${t.timestamp} (as_of ${asOfMs})`).toBe(true);
        }
        figures.push(
          `${e.name}: ${missBehind.toFixed(1)} s on a miss; at most ${(missBehind + e.ttlS).toFixed(1)} s at the end of its ${e.ttlS} s TTL`,
        );
      }),
    );
    console.log(`behind the block (simulator, real lags):\n${figures.join("\n")}`);
  }, 60_000);
});
