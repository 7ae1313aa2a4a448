// Chain RPC faults on every oracle endpoint, over the real production server: the RPCs of both chains sit behind
// proxies that can drop connections, hang, answer 500 or garbage, or die part-way through an indexer pass. With nothing
// indexed yet, every endpoint must answer the documented problem+json (502 upstream_unavailable, 504 upstream_timeout)
// within a bound, never a 500; an endpoint that does not read the failing chain keeps working; once the RPCs return,
// every endpoint answers the seed's exact figures (a pass cut short left nothing half-counted behind); and once
// indexed, the answers are served from the database without asking the chain.
// tests/unit/oracle/local-chain.test.ts covers the handlers (stale, cold 502/504); this runs the real server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalChains, startLocalChains } from "@/sim/chain";
import { createTestKey } from "../../helpers/keys";
import { type RunningApp, startApp } from "../../helpers/server";
import { type RpcMode, type RpcProxy, startRpcProxy } from "./rpc-proxy";

const RPC_TIMEOUT_MS = 1500;
// viem retries once after a timeout; a scan's first failing read ends the request.
const BOUND_MS = 4 * RPC_TIMEOUT_MS + 3000;
const ENDPOINTS = ["/api/oracle/summary", "/api/oracle/disputes", "/api/oracle/rounds", "/api/oracle/voters"] as const;
// Disputes (and so the summary, which counts them) read Polygon's Optimistic Oracle; rounds and voters only Ethereum.
const READS_POLYGON = new Set(["/api/oracle/summary", "/api/oracle/disputes"]);

let chains: LocalChains;
let eth: RpcProxy;
let polygon: RpcProxy;
let app: RunningApp;
let key: string;

/** A server reading both chains through the proxies, with no background refresh during the test ("no call on a warm
 * request" is then exact). */
const appEnv = () => ({
  ...chains.env,
  ETH_RPC_URL: eth.url,
  POLYGON_RPC_URL: polygon.url,
  UPSTREAM_TIMEOUT_MS: String(RPC_TIMEOUT_MS),
  ORACLE_INDEX_INTERVAL_S: "3600",
});

beforeAll(async () => {
  chains = await startLocalChains({ logChunkSize: 7 });
  [eth, polygon] = await Promise.all([startRpcProxy(chains.ethRpcUrl), startRpcProxy(chains.polygonRpcUrl)]);
  app = await startApp({ env: appEnv() });
  key = await createTestKey(app, "enterprise");
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await Promise.allSettled([eth?.close(), polygon?.close()]);
  await chains?.stop();
});

async function get(path: string) {
  const started = Date.now();
  const res = await fetch(app.url + path, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(60_000) });
  const text = await res.text();
  let body: Record<string, any>;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${path}: ${res.status} with a non-JSON body: ${text.slice(0, 200)}`);
  }
  return { status: res.status, headers: res.headers, body, ms: Date.now() - started };
}

function expectProblem(answer: Awaited<ReturnType<typeof get>>, expected: { status: number; code: string }, label: string) {
  // A 500 says nothing by itself: show what the server logged.
  const serverLog = answer.status === 500 ? `\nserver log:\n${app.logs().slice(-4000)}` : "";
  expect(answer.status, `${label}: ${JSON.stringify(answer.body).slice(0, 300)}${serverLog}`).toBe(expected.status);
  expect(answer.headers.get("content-type"), label).toBe("application/problem+json");
  expect(answer.body, label).toMatchObject({ status: expected.status, code: expected.code, request_id: expect.any(String) });
  // The RPC URL is never echoed (a paid RPC URL carries its key), and neither is a stack.
  const text = JSON.stringify(answer.body);
  expect(text, label).not.toContain(eth.url.replace("http://", ""));
  expect(text, label).not.toContain(polygon.url.replace("http://", ""));
  expect(text, label).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
  expect(answer.ms, `${label}: answered in ${answer.ms} ms`).toBeLessThan(BOUND_MS);
}

const setBoth = (mode: RpcMode) => {
  eth.set(mode);
  polygon.set(mode);
};

describe("oracle endpoints with the chain RPCs failing (cold server: nothing cached)", () => {
  it.each([
    { mode: "down" as const, status: 502, code: "upstream_unavailable" },
    { mode: "http_500" as const, status: 502, code: "upstream_unavailable" },
    { mode: "malformed" as const, status: 502, code: "upstream_unavailable" },
    { mode: "hang" as const, status: 504, code: "upstream_timeout" },
  ])("both RPCs $mode → $status $code on every endpoint", async ({ mode, status, code }) => {
    setBoth(mode);
    try {
      const answers = await Promise.all(ENDPOINTS.map(async (path) => ({ path, answer: await get(path) })));
      for (const { path, answer } of answers) expectProblem(answer, { status, code }, `${path} with RPC ${mode}`);
    } finally {
      setBoth("up");
    }
  });

  it("RPCs that die after 1, 2, 3, ... requests → 502 each time, then the seed's exact figures (a cut pass leaves nothing half-counted)", async () => {
    let answer: Awaited<ReturnType<typeof get>> | undefined;
    let failures = 0;
    for (let budget = 1; budget <= 200; budget++) {
      eth.failAfter(budget);
      polygon.failAfter(budget);
      answer = await get("/api/oracle/disputes");
      if (answer.status === 200) break;
      expectProblem(answer, { status: 502, code: "upstream_unavailable" }, `disputes, RPCs died after ${budget} requests each`);
      failures++;
    }
    setBoth("up");
    expect(answer?.status).toBe(200);
    expect(failures).toBeGreaterThan(0);
    // The pass that finally got through stored every answer: all four give the seed's figures.
    for (const path of ENDPOINTS) {
      const res = await get(path === "/api/oracle/voters" ? `${path}?limit=500` : path);
      expect(res.status, path).toBe(200);
      expectSeedFigures(path, res.body);
    }
  }, 240_000);

  it("with the RPCs down again, fresh cached answers keep being served (200, cache hit), without asking the chain", async () => {
    setBoth("down");
    try {
      const before = eth.received() + polygon.received();
      for (const path of ENDPOINTS) {
        const answer = await get(path);
        expect(answer.status, path).toBe(200);
        expect(answer.body.meta.cache, path).toBe("hit");
      }
      expect(eth.received() + polygon.received()).toBe(before);
    } finally {
      setBoth("up");
    }
  });

  it("only Polygon down (a second, cold server): the Polygon readers answer 502, rounds and voters (Ethereum only) answer 200", async () => {
    const cold = await startApp({ env: appEnv() });
    polygon.set("down");
    try {
      const coldKey = await createTestKey(cold, "pro");
      for (const path of ENDPOINTS) {
        const started = Date.now();
        const res = await fetch(cold.url + (path === "/api/oracle/voters" ? `${path}?limit=500` : path), {
          headers: { authorization: `Bearer ${coldKey}` },
          signal: AbortSignal.timeout(60_000),
        });
        const answer = {
          status: res.status,
          headers: res.headers,
          body: (await res.json()) as Record<string, any>,
          ms: Date.now() - started,
        };
        if (READS_POLYGON.has(path)) expectProblem(answer, { status: 502, code: "upstream_unavailable" }, `${path} with Polygon down`);
        else {
          expect(answer.status, path).toBe(200);
          expectSeedFigures(path, answer.body);
        }
      }
    } finally {
      polygon.set("up");
      await cold.stop();
    }
  }, 180_000);
});

function expectSeedFigures(path: string, body: Record<string, any>) {
  if (path === "/api/oracle/summary") {
    expect(body.data).toMatchObject(chains.expected.summary);
    expect(body.meta).toMatchObject({ source: "chain", as_of: chains.expected.chain_time });
  } else if (path === "/api/oracle/disputes") {
    expect(body.data.map((d: { title: string; status: string }) => [d.title, d.status])).toEqual(
      chains.expected.disputes.map((d) => [d.title, d.status]),
    );
  } else if (path === "/api/oracle/rounds") {
    expect(
      body.data.map((r: { round_id: number; reveal_count: number; unique_revealers: number; tokens_revealed: string }) => [
        r.round_id,
        r.reveal_count,
        r.unique_revealers,
        r.tokens_revealed,
      ]),
    ).toEqual(chains.expected.rounds.map((r) => [r.round_id, r.reveal_count, r.unique_revealers, r.tokens_revealed]));
  } else {
    expect(body.data.map((v: { rank: number; address: string; stake: string }) => [v.rank, v.address, v.stake])).toEqual(
      chains.expected.voters.slice(0, body.data.length).map((v) => [v.rank, v.address, v.stake]),
    );
    expect(body.data.length).toBe(Math.min(chains.expected.voters.length, 500));
  }
}
