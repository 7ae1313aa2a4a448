import autocannon from "autocannon";
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, it } from "vitest";
import { type Simulator, startSimulator } from "@/sim/polymarket";
import { createTestKey } from "../../helpers/keys";
import { type RunningApp, startApp } from "../../helpers/server";

let sim: Simulator;
let app: RunningApp;
let key: string;
beforeAll(async () => {
  sim = await startSimulator({ seed: 5 });
  app = await startApp({ env: { POLYMARKET_GAMMA_URL: sim.gammaUrl, POLYMARKET_DATA_URL: sim.dataUrl, POLYMARKET_CLOB_URL: sim.clobUrl, RATE_LIMIT_ENTERPRISE: "100000000" } });
  key = await createTestKey(app, "enterprise");
});
afterAll(async () => {
  await app?.stop();
  await sim?.close();
});
it("load", async () => {
  const slug = sim.summary().samples.multi_market_event_slugs[0];
  const lines: string[] = [];
  for (const path of [`/api/predmkt/events/${slug}/activity-live?limit=50`, `/api/predmkt/events/${slug}/history-live`]) {
    const beforeC = { ...sim.counters() };
    const result = await autocannon({ url: app.url + path, connections: 200, duration: 12, headers: { authorization: `Bearer ${key}` } });
    const after = sim.counters();
    const diff = Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (beforeC[k] ?? 0)]).filter(([k, v]) => (v as number) > 0 && /^\/(gamma|data|clob)\//.test(k)));
    lines.push(JSON.stringify({ path, requests: result.requests.total, s2xx: result["2xx"], non2xx: result.non2xx, errors: result.errors, timeouts: result.timeouts, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, perPath: diff }));
  }
  writeFileSync("/tmp/live-load.json", lines.join("\n"));
}, 120_000);
