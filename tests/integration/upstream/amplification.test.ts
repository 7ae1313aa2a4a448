// One key must not turn its allowance into the same number of upstream calls. Counted at the simulator:
// - `min_usd` only narrows the event's cached trade list, so twenty distinct values cost one upstream trades call;
// - an unknown market id or event slug is a 404 cached for the endpoint's TTL, so asking again costs nothing upstream.
import { beforeAll, describe, expect, it } from "vitest";
import { appOverSimulator } from "../../helpers/app-over-simulator";

const t = appOverSimulator({ seed: 17 }, 180_000);
const get = t.get;
let slug: string;

beforeAll(() => {
  slug = t.sim.world.events.find((e) => !e.closed && !e.archived && e.markets.length >= 2)!.slug;
});

/** Upstream requests the simulator has seen whose path starts with `prefix`. */
const upstreamCalls = (prefix: string) =>
  Object.entries(t.sim.counters())
    .filter(([path]) => path.startsWith(prefix))
    .reduce((sum, [, n]) => sum + n, 0);

describe("upstream calls per client request", () => {
  it("twenty distinct min_usd values on event activity-live: one upstream trades call, each answer filtered", async () => {
    const before = upstreamCalls("/data/");
    const answers: { usd_size: number }[][] = [];
    for (let i = 0; i < 20; i++) {
      const res = await get(`/api/predmkt/events/${slug}/activity-live?min_usd=${i * 5}&limit=500`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { usd_size: number }[] };
      for (const trade of body.data) expect(trade.usd_size).toBeGreaterThanOrEqual(i * 5);
      answers.push(body.data);
    }
    expect(upstreamCalls("/data/") - before).toBe(1);
    // The filter is real: the list shrinks as the bound grows, and the unfiltered list has trades under the top bound.
    expect(answers[0].length).toBeGreaterThan(answers[19].length);
  });

  it("an unknown market id or event slug: one upstream lookup, then cached 404s", async () => {
    const before = upstreamCalls("/gamma/");
    for (let i = 0; i < 10; i++) {
      const market = await get("/api/predmkt/markets/999999999/holders-live");
      expect(market.status).toBe(404);
      expect(((await market.json()) as { code: string }).code).toBe("not_found");
      const event = await get("/api/predmkt/events/no-such-event-here/activity-live");
      expect(event.status).toBe(404);
    }
    // One lookup of the market id and one of the slug, whatever the number of requests within the TTL.
    expect(upstreamCalls("/gamma/") - before).toBe(2);
  });
});
