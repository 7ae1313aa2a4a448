// Two server instances sharing one Redis (REDIS_URL) share the -live cache: the second instance answers from the
// body the first fetched, and concurrent misses on both instances make one upstream request between them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Simulator, startSimulator, type WorldSummary } from "@/sim/polymarket";
import { createTestKey } from "../../helpers/keys";
import { type RunningApp, startApp } from "../../helpers/server";
import { REDIS_URL, redisAvailable } from "../../helpers/services";

const available = await redisAvailable();

describe.skipIf(!available)("-live cache shared through Redis", () => {
  let sim: Simulator;
  let world: WorldSummary;
  let apps: RunningApp[] = [];
  let keys: string[] = [];

  beforeAll(async () => {
    sim = await startSimulator({ seed: 11 });
    world = sim.summary();
    const env = {
      ...sim.env,
      UPSTREAM_TIMEOUT_MS: "3000",
      REDIS_URL,
    };
    apps = await Promise.all([startApp({ env }), startApp({ env })]);
    keys = await Promise.all(apps.map((app) => createTestKey(app, "enterprise")));
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await sim?.close();
  });

  const get = async (i: number, path: string) => {
    const res = await fetch(apps[i].url + path, { headers: { authorization: `Bearer ${keys[i]}` } });
    return { status: res.status, body: await res.json() };
  };
  const calls = (path: string) => sim.counters()[path] ?? 0;

  it("the second instance serves the first instance's body without calling the upstream", async () => {
    const market = world.samples.busiest_markets[0];
    const path = `/api/predmkt/markets/${market.id}/holders-live?limit=6`;
    const before = calls("/data/v2/holders");
    const first = await get(0, path);
    expect(first.status).toBe(200);
    expect(first.body.meta.cache).toBe("miss");
    const second = await get(1, path);
    expect(second.status).toBe(200);
    expect(second.body.meta.cache).toBe("hit");
    expect(second.body.meta.as_of).toBe(first.body.meta.as_of);
    expect(second.body.data).toEqual(first.body.data);
    expect(calls("/data/v2/holders") - before).toBe(1);
  });

  it("concurrent misses on both instances make one upstream request between them", async () => {
    const slug = world.samples.multi_market_event_slugs[0];
    const path = `/api/predmkt/events/${slug}/activity-live?limit=30`;
    sim.setFault({ target: "data", path: "/trades", mode: "latency", latency_ms: 500 });
    const before = calls("/data/trades");
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => get(i % 2, path)));
    sim.clearFaults();
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(new Set(answers.map((a) => a.body.meta.as_of)).size).toBe(1);
    expect(calls("/data/trades") - before).toBe(1);
  });
});
