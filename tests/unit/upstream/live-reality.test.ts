// The -live handlers against the simulator with the real upstream's hard parts switched on: Gamma's closed-by-default
// lists (a resolved market must still be found by its condition id), V2 markets (62-hex condition ids, position ids),
// and the closed-market price history quirk (empty below 12-hour fidelity).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GET as eventHistoryGET } from "@/app/api/predmkt/events/[slug]/history-live/route";
import { GET as marketActivityGET } from "@/app/api/predmkt/markets/[id]/activity-live/route";
import { GET as holdersGET } from "@/app/api/predmkt/markets/[id]/holders-live/route";
import { clearLocalCache } from "@/lib/upstream";
import { callJson } from "@/tests/helpers/handler";
import { type Simulator, startSimulator } from "@/sim/polymarket";
import { pointUpstreamAt } from "./stub-server";

let sim: Simulator;
let restore: () => void;

beforeAll(async () => {
  sim = await startSimulator({ seed: 12, reality: { v2Share: 0.3, gammaClosedDefault: true, junkRate: 0 } });
  restore = pointUpstreamAt(sim.url, { UPSTREAM_TIMEOUT_MS: 8000 });
});
afterAll(async () => {
  restore();
  await sim.close();
});
beforeEach(() => clearLocalCache());

describe("-live endpoints against the real upstream's shapes", () => {
  it("holders-live and activity-live answer 200 for a closed market looked up by condition id", async () => {
    const closed = sim.world.markets.find((m) => m.closed && !sim.world.events[m.eventIndex].archived)!;
    const holders = await callJson(holdersGET, `/api/predmkt/markets/${closed.conditionId}/holders-live`, { id: closed.conditionId });
    expect(holders.status).toBe(200);
    expect(holders.body.data.map((g: { token_id: string }) => g.token_id)).toEqual(closed.tokenIds);
    const activity = await callJson(marketActivityGET, `/api/predmkt/markets/${closed.conditionId}/activity-live`, {
      id: closed.conditionId,
    });
    expect(activity.status).toBe(200);
    expect(activity.body.data.market.id).toBe(closed.id);
  });

  it("a V2 market is found by its 62-hex condition id and by the padded form, with position ids as outcome ids", async () => {
    const v2 = sim.world.markets.filter((m) => m.version === "v2" && !m.closed).sort((a, b) => b.tradeRate - a.tradeRate)[0];
    for (const id of [v2.conditionId, `${v2.conditionId}00`]) {
      const res = await callJson(holdersGET, `/api/predmkt/markets/${id}/holders-live?limit=30`, { id });
      expect(res.status, id).toBe(200);
      expect(res.body.data.map((g: { token_id: string }) => g.token_id)).toEqual(v2.tokenIds);
      const holders = res.body.data.flatMap((g: { holders: { avg_price: number | null; shares: number }[] }) => g.holders);
      expect(holders.length).toBeGreaterThan(0);
      // Holders come from /v2/holders?include_pnl=true: gross amounts with an entry price.
      for (const h of holders) expect(h.avg_price).toBeGreaterThan(0);
    }
    const activity = await callJson(marketActivityGET, `/api/predmkt/markets/${v2.id}/activity-live`, { id: v2.id });
    expect(activity.status).toBe(200);
    expect(activity.body.data.trades.length).toBeGreaterThan(0);
    for (const t of activity.body.data.trades) expect(v2.tokenIds).toContain(t.token_id);
  });

  it("history-live answers a closed event with a non-empty series (the CLOB is empty for it below 12-hour fidelity)", async () => {
    const event = sim.world.events.find((e) => e.closed && !e.archived && e.markets.length === 1)!;
    const res = await callJson(eventHistoryGET, `/api/predmkt/events/${event.slug}/history-live?interval=max`, { slug: event.slug });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0].points.length).toBeGreaterThan(0);
  });
});
