// Upstream failures name the upstream's role and the request id, never a URL, a host or a port: every fault the
// simulator can switch on, on every upstream a -live endpoint reads, plus unreachable chain RPCs for the oracle. The
// full text (host, path, network error) is in the server's log under the same request id.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FaultMode, FaultTarget } from "@/sim/polymarket";
import { type Simulator, startSimulator } from "@/sim/polymarket";
import { createTestKey } from "../../helpers/keys";
import { freePort, type RunningApp, startApp } from "../../helpers/server";

let sim: Simulator;
let app: RunningApp;
let key: string;
let deadRpc: string;
const markets: string[] = [];
const events: string[] = [];

const ROLES: Record<Exclude<FaultTarget, "*">, string> = {
  gamma: "Polymarket Gamma API",
  data: "Polymarket Data API",
  clob: "Polymarket CLOB",
};
const MODES: FaultMode[] = ["error", "rate_limit", "hang", "malformed", "truncated", "cloudflare"];

beforeAll(async () => {
  sim = await startSimulator({ seed: 13 });
  for (const event of sim.world.events) {
    if (event.closed || event.archived) continue;
    const open = event.markets.map((i) => sim.world.markets[i]).filter((m) => !m.closed);
    if (open.length >= 2) events.push(event.slug);
    markets.push(...open.map((m) => m.id));
  }
  // A port nothing listens on: every chain read is refused.
  deadRpc = `http://127.0.0.1:${await freePort()}`;
  app = await startApp({
    env: {
      ...sim.env,
      ETH_RPC_URL: deadRpc,
      POLYGON_RPC_URL: deadRpc,
      UPSTREAM_TIMEOUT_MS: "1200",
      UPSTREAM_MAX_RETRIES: "0",
    },
  });
  key = await createTestKey(app, "enterprise");
}, 180_000);
afterAll(async () => {
  await app?.stop();
  await sim?.close();
});

/** Everything that would tell a client where the upstreams are. */
function leaks(text: string): string[] {
  const hosts = [sim.gammaUrl, sim.dataUrl, sim.clobUrl, deadRpc].map((u) => new URL(u));
  const found = hosts.flatMap((u) => [u.host, `:${u.port}`]).filter((needle) => text.includes(needle));
  for (const pattern of [/https?:\/\//i, /127\.0\.0\.1|localhost|ECONNREFUSED|fetch failed/i])
    if (pattern.test(text)) found.push(String(pattern));
  return found;
}

async function expectRoleOnly(path: string, roles: string[]) {
  const res = await fetch(app.url + path, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  expect([502, 504], `${path}: ${text}`).toContain(res.status);
  const body = JSON.parse(text) as { detail: string; request_id: string; code: string };
  expect(leaks(text), `${path}: ${text}`).toEqual([]);
  const pattern = new RegExp(`^The (${roles.join("|")}) (failed|did not answer in time)[.:]`);
  expect(body.detail, path).toMatch(pattern);
  expect(body.detail, path).toContain(`Request ${body.request_id};`);
  // The log has the full story under the same id.
  const logged = app
    .logs()
    .split("\n")
    .find((line) => line.includes(body.request_id) && line.includes("upstream failure"));
  expect(logged, `log line for ${body.request_id}`).toBeDefined();
  return body;
}

describe("upstream failures in problem bodies", () => {
  it("each simulator fault on each upstream: the detail names the role and the request id, never a host", async () => {
    let checked = 0;
    for (const target of ["gamma", "data", "clob"] as const) {
      for (const mode of MODES) {
        await fetch(`${sim.url}/__sim/faults`, { method: "POST", body: JSON.stringify({ target, mode, status: 503 }) });
        try {
          // A fresh market and event each time, so no cached body stands in for the failure.
          const market = markets.shift()!;
          const event = events.shift()!;
          const paths = target === "clob" ? [`/api/predmkt/events/${event}/history-live`] : [`/api/predmkt/markets/${market}/holders-live`];
          if (target === "gamma") paths.push(`/api/predmkt/events/${event}/activity-live`);
          for (const path of paths) {
            const body = await expectRoleOnly(path, [ROLES[target]]);
            expect(body.detail, `${target} ${mode} ${path}`).toContain(ROLES[target]);
            checked++;
          }
        } finally {
          await fetch(`${sim.url}/__sim/faults`, { method: "DELETE" });
        }
      }
    }
    expect(checked).toBe(MODES.length * 4);
  }, 240_000);

  it("unreachable chain RPCs: the oracle's problems name the Ethereum or Polygon RPC, never the URL", async () => {
    for (const path of ["/api/oracle/summary", "/api/oracle/rounds", "/api/oracle/voters", "/api/oracle/disputes"]) {
      await expectRoleOnly(path, ["Ethereum RPC", "Polygon RPC"]);
    }
  }, 120_000);
});
