// /api/metrics on the production server: off without METRICS_TOKEN, behind the token when set, and its counters
// move with the requests, upstream attempts and cache lookups this test makes.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "@/sim/polymarket";
import { createTestKey } from "../../helpers/keys";
import { type RunningApp, startApp } from "../../helpers/server";

const TOKEN = randomBytes(24).toString("base64url");
let sim: Simulator;
let app: RunningApp;
let off: RunningApp;
let key: string;

beforeAll(async () => {
  sim = await startSimulator({ seed: 5 });
  const upstream = sim.env;
  [app, off] = await Promise.all([startApp({ env: { ...upstream, METRICS_TOKEN: TOKEN } }), startApp({ env: upstream })]);
  key = await createTestKey(app, "pro");
});
afterAll(async () => {
  await Promise.all([app?.stop(), off?.stop()]);
  await sim?.close();
});

const scrape = (target: RunningApp, authorization?: string) =>
  fetch(`${target.url}/api/metrics`, { headers: authorization ? { authorization } : {} });

/** The value of one sample line, e.g. `predmkt_http_requests_total{route="/api/predmkt/stats",method="GET",status="200"}`. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text.split("\n").find((l) => l.startsWith(`${name}{`) && wanted.every((w) => l.includes(w)));
  return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : 0;
}

describe("/api/metrics", () => {
  it("is off (404 problem) unless METRICS_TOKEN is set", async () => {
    const response = await scrape(off, `Bearer ${TOKEN}`);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(((await response.json()) as { detail: string }).detail).toMatch(/METRICS_TOKEN/);
  });

  it("refuses a missing or wrong token with 401, and never with the API key", async () => {
    expect((await scrape(app)).status).toBe(401);
    expect((await scrape(app, "Bearer wrong-token-wrong-token-wrong-token")).status).toBe(401);
    expect((await scrape(app, `Bearer ${key}`)).status).toBe(401);
  });

  it("counts requests by route and status, upstream attempts by host, and cache lookups", async () => {
    const before = await (await scrape(app, `Bearer ${TOKEN}`)).text();
    const headers = { authorization: `Bearer ${key}` };
    const market = sim.summary().samples.market_ids[0];
    for (let i = 0; i < 3; i++) expect((await fetch(`${app.url}/api/predmkt/stats`, { headers })).status).toBe(200);
    expect((await fetch(`${app.url}/api/predmkt/events/no-such-event`, { headers })).status).toBe(404);
    for (let i = 0; i < 2; i++)
      expect((await fetch(`${app.url}/api/predmkt/markets/${market}/holders-live`, { headers })).status).toBe(200);

    const response = await scrape(app, `Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const after = await response.text();
    const delta = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
    expect(delta("predmkt_http_requests_total", { route: "/api/predmkt/stats", method: "GET", status: "200" })).toBe(3);
    expect(delta("predmkt_http_requests_total", { route: "/api/predmkt/events/{slug}", method: "GET", status: "404" })).toBe(1);
    expect(delta("predmkt_http_request_duration_seconds_count", { route: "/api/predmkt/stats", status: "200" })).toBe(3);
    // The second holders-live request is a cache hit: the upstream saw the first only.
    expect(delta("predmkt_upstream_requests_total", { host: "data", outcome: "ok" })).toBeGreaterThanOrEqual(1);
    expect(delta("predmkt_cache_lookups_total", { layer: "upstream", outcome: "hit" })).toBeGreaterThanOrEqual(1);
    expect(delta("predmkt_cache_lookups_total", { layer: "answer", outcome: "hit" })).toBeGreaterThanOrEqual(2);
    expect(after).toMatch(/^predmkt_sampler_lag_seconds -?\d/m);
    expect(after).toMatch(/^predmkt_oracle_index_lag_seconds -?\d/m);
    // The alert queue, read from the database at scrape (docs/observability.md): none queued in this server.
    expect(after).toMatch(/^predmkt_alert_queue_depth 0$/m);
    expect(after).toMatch(/^predmkt_alert_queue_oldest_pending_age_seconds -1$/m);
    expect(after).toMatch(/^predmkt_alert_queue_dead 0$/m);
    expect(after).toContain("predmkt_process_resident_memory_bytes");
  });
});
