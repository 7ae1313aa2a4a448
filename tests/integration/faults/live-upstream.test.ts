// Upstream faults × every `-live` endpoint, over the real production server in front of the simulator:
// 5xx, 429, hang, malformed JSON and a truncated body, each
//   - with everything upstream failing (the first lookup, Gamma, already fails),
//   - with only the endpoint's own data host failing (the Gamma lookup succeeds, holders/trades/prices fail),
//   - and with a cached body past its TTL (served stale instead of failing): on a second server whose -live TTLs are
//     capped at 1 s (LIVE_TTL_MAX_S), so the bodies go stale without the test sitting out the documented 10–90 s.
// Without a cached body every case must answer the documented problem+json (502 upstream_unavailable, 504
// upstream_timeout for a hang) within the upstream timeout, never a 500 and never a hang; the error must not be cached
// (the same request succeeds as soon as the upstream is back).
// tests/integration/live/live-endpoints.test.ts covers the happy paths and one case per fault kind; this is the matrix.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FaultMode, FaultTarget } from "@/sim/polymarket";
import { type Simulator, startSimulator } from "@/sim/polymarket";
import { createTestKey } from "../../helpers/keys";
import { pollUntil } from "../../helpers/poll";
import { type RunningApp, startApp } from "../../helpers/server";

const TIMEOUT_MS = 1500;
// A hang costs the whole deadline; a 429 costs its Retry-After (1 s) before the one retry.
const BOUND_MS = TIMEOUT_MS + 2500;
// The stale cases' server caps every -live TTL at this (the other cases keep the documented TTLs).
const STALE_TTL_S = 1;

const MODES: { mode: FaultMode; status: number; code: string }[] = [
  { mode: "error", status: 502, code: "upstream_unavailable" },
  { mode: "rate_limit", status: 502, code: "upstream_unavailable" },
  { mode: "hang", status: 504, code: "upstream_timeout" },
  { mode: "malformed", status: 502, code: "upstream_unavailable" },
  { mode: "truncated", status: 502, code: "upstream_unavailable" },
];

interface LiveEndpoint {
  name: string;
  /** The host the endpoint reads after resolving its market or event through Gamma. */
  dataHost: FaultTarget;
  kind: "market" | "event";
  path: (resource: string, variant: number) => string;
}

// `variant` changes a harmless parameter so that every case has its own cache key.
const ENDPOINTS: LiveEndpoint[] = [
  { name: "holders-live", dataHost: "data", kind: "market", path: (id, v) => `/api/predmkt/markets/${id}/holders-live?limit=${1 + v}` },
  {
    name: "market activity-live",
    dataHost: "data",
    kind: "market",
    path: (id, v) => `/api/predmkt/markets/${id}/activity-live?holders_limit=${1 + v}`,
  },
  {
    name: "event activity-live",
    dataHost: "data",
    kind: "event",
    path: (slug, v) => `/api/predmkt/events/${slug}/activity-live?min_usd=${v}`,
  },
  {
    name: "event history-live",
    dataHost: "clob",
    kind: "event",
    path: (slug, v) => `/api/predmkt/events/${slug}/history-live?markets=${1 + (v % 20)}`,
  },
];

let sim: Simulator;
let app: RunningApp;
let key: string;
/** The server of the stale cases (short TTLs), over the same simulator. */
let staleApp: RunningApp;
let staleKey: string;
const fresh = { market: [] as string[], event: [] as string[] };
const take = (kind: "market" | "event") => {
  const next = fresh[kind].shift();
  if (!next) throw new Error(`the simulator world ran out of unused ${kind}s`);
  return next;
};
const warmed: { endpoint: LiveEndpoint; mode: FaultMode; path: string; body: { data: unknown; meta: Record<string, unknown> } }[] = [];

async function get(path: string, server: { app: RunningApp; key: string } = { app, key }) {
  const started = Date.now();
  const res = await fetch(server.app.url + path, {
    headers: { authorization: `Bearer ${server.key}` },
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${path}: ${res.status} with a non-JSON body: ${text.slice(0, 200)}`);
  }
  return { status: res.status, headers: res.headers, body: body as Record<string, any>, ms: Date.now() - started };
}

function expectProblem(answer: Awaited<ReturnType<typeof get>>, expected: { status: number; code: string }, label: string) {
  expect(answer.status, label).toBe(expected.status);
  expect(answer.headers.get("content-type"), label).toBe("application/problem+json");
  expect(answer.body, label).toMatchObject({
    status: expected.status,
    code: expected.code,
    request_id: expect.any(String),
    title: expect.any(String),
  });
  expect(answer.headers.get("x-request-id"), label).toBe(answer.body.request_id);
  expect(JSON.stringify(answer.body), label).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
  expect(answer.ms, `${label}: answered in ${answer.ms} ms`).toBeLessThan(BOUND_MS);
}

beforeAll(async () => {
  sim = await startSimulator({ seed: 11 });
  const world = sim.world;
  const openMarkets = (indexes: number[]) => indexes.map((i) => world.markets[i]).filter((m) => !m.closed);
  for (const event of world.events) {
    if (event.closed || event.archived) continue;
    const markets = openMarkets(event.markets);
    if (markets.length >= 2) fresh.event.push(event.slug);
    fresh.market.push(...markets.map((m) => m.id));
  }
  const env = { ...sim.env, UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS), UPSTREAM_MAX_RETRIES: "1" };
  [app, staleApp] = await Promise.all([startApp({ env }), startApp({ env: { ...env, LIVE_TTL_MAX_S: String(STALE_TTL_S) } })]);
  [key, staleKey] = await Promise.all([createTestKey(app, "enterprise"), createTestKey(staleApp, "enterprise")]);
  // Bodies for the stale cases, fetched now so that their TTLs run out while the other cases run.
  for (const endpoint of ENDPOINTS) {
    for (const { mode } of MODES) {
      const path = endpoint.path(take(endpoint.kind), 0);
      const answer = await get(path, { app: staleApp, key: staleKey });
      expect(answer.status, path).toBe(200);
      expect(answer.body.meta, path).toMatchObject({ cache: "miss" });
      warmed.push({ endpoint, mode, path, body: answer.body as never });
    }
  }
});

afterAll(async () => {
  await Promise.allSettled([app?.stop(), staleApp?.stop()]);
  await sim?.close();
});

beforeEach(() => sim.clearFaults());

describe.each(ENDPOINTS)("$name", (endpoint) => {
  it.each(MODES)("every upstream host failing with $mode → $status $code, not cached", async ({ mode, status, code }) => {
    const path = endpoint.path(take(endpoint.kind), 1);
    sim.setFault({ target: "*", mode, retry_after_s: 1 });
    expectProblem(await get(path), { status, code }, `${mode} on * for ${path}`);
    sim.clearFaults();
    // Upstream requests sent while the fault was on may still be in flight (a retry after backoff), and a request
    // for the same URL joins them; recovery is the first answer after those have settled, and it is fresh.
    let recovered: Awaited<ReturnType<typeof get>> | undefined;
    await expect.poll(async () => (recovered = await get(path)).status, { timeout: 10_000, message: path }).toBe(200);
    expect(recovered!.body.meta).toMatchObject({ source: "live", cache: "miss" });
  });

  it.each(MODES)(`only the data host (${endpoint.dataHost}) failing with $mode → $status $code`, async ({ mode, status, code }) => {
    const path = endpoint.path(take(endpoint.kind), 2);
    sim.setFault({ target: endpoint.dataHost, mode, retry_after_s: 1 });
    const before = sim.counters();
    expectProblem(await get(path), { status, code }, `${mode} on ${endpoint.dataHost} for ${path}`);
    const after = sim.counters();
    // The Gamma lookup went through and the failing host was really asked.
    const asked = (prefix: string) => Object.entries(after).reduce((n, [k, v]) => (k.startsWith(prefix) ? n + v - (before[k] ?? 0) : n), 0);
    expect(asked("/gamma/"), path).toBeGreaterThan(0);
    expect(asked(`/${endpoint.dataHost}/`), path).toBeGreaterThan(0);
    sim.clearFaults();
    // As above: recovered once the requests sent during the fault have settled.
    await expect.poll(async () => (await get(path)).status, { timeout: 10_000, message: path }).toBe(200);
  });
});

describe("a cached body past its TTL stands in for a failing upstream", () => {
  it("every fault mode on every -live endpoint → 200 stale with the last good body", async () => {
    for (const { endpoint, mode, path, body } of warmed) {
      sim.setFault({ target: "*", mode, retry_after_s: 1 });
      const label = `${endpoint.name} with ${mode}: ${path}`;
      // Served from the cache while fresh (no upstream call); the first answer after the TTL is the one under test.
      const stale = await pollUntil(
        () => get(path, { app: staleApp, key: staleKey }),
        (answer) => answer.body.meta?.cache !== "hit",
        STALE_TTL_S * 1000 + 5000,
        100,
        `${label}: past its ${STALE_TTL_S} s TTL`,
      );
      expect(stale.status, label).toBe(200);
      expect(stale.body.meta, label).toMatchObject({ source: "live", cache: "stale", as_of: body.meta.as_of });
      expect(stale.body.meta.age_s, label).toBeGreaterThanOrEqual(STALE_TTL_S);
      expect(stale.body.data, label).toEqual(body.data);
      expect(stale.headers.get("cache-control"), label).toBe("private, max-age=0");
      expect(stale.ms, label).toBeLessThan(BOUND_MS);
      sim.clearFaults();
    }
  }, 120_000);
});
