// The contract as users meet it, against the real server, simulator and local chains:
// 1. every operation called through a client generated from /api/openapi.json (openapi-typescript types in
//    client/openapi.d.ts + openapi-fetch): `satisfies Record<keyof operations, ...>` makes leaving one out a type
//    error, so a broken document fails CI the way a user's SDK would;
// 2. the contract fuzzer (contract-fuzzer.ts) over every operation: a short run here (FUZZ_RUNS requests per
//    operation, default 20); `npm run fuzz` runs it longer and prints the same table;
// 3. its abuse cases (fuzz-abuse.ts): stream slots after HEADs and aborts, deep replay, a unique-parameter flood;
//    each prints its figures (SECURITY.md "Measured"), and the totals of everything sent are printed at the end.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { operations, paths } from "@/client/openapi";
import { type Stack, startStack } from "../../helpers/stack";
import IORedis from "ioredis";
import { formatReport, formatTotals, fuzzContract, type FuzzReport, type OpenApiDocument } from "./contract-fuzzer";
import { deepReplayCase, streamSlotCase, uniqueParameterFloodCase } from "./fuzz-abuse";
import { ledgerWalletAddress } from "@/sim/polymarket/wallets";
import { REPLAY_MAX_SPAN } from "@/lib/stream/sse";
import { connectionStringFor, createTestKey } from "../../helpers/keys";
import { REDIS_URL, redisAvailable } from "../../helpers/services";

let stack: Stack;
// Everything the fuzzer and its abuse cases sent, for the totals printed at the end.
const totals: FuzzReport = { total: 0, byOperation: {}, byStatus: {}, failures: [], resent: 0, resentCauses: {} };
// A cache store and a rate-limit store of their own (two Redis databases) when Redis is reachable, so the flood case
// can measure what reaches each; a 1 MiB answer budget per pass, so the flood can reach it.
const redisUp = await redisAvailable();
const storeUrl = (db: number) => Object.assign(new URL(REDIS_URL), { pathname: `/${db}` }).toString();
const ANSWER_KV_BUDGET_MB = 1;
// A webhook receiver on loopback (allowed by ALERTS_ALLOW_LOOPBACK/ALERTS_ALLOW_HTTP below) that refuses every
// delivery, so a queued test delivery stays undelivered and can be retried.
let receiver: Server;
let receiverUrl: string;
const METRICS_TOKEN = "contract-test-metrics-token-0123456789abcdef";
let cronSecret: string;
const real = {
  slug: [] as string[],
  marketId: [] as string[],
  conditionId: [] as string[],
  category: [] as string[],
  disputeId: [] as string[],
};

beforeAll(async () => {
  receiver = createServer((_req, res) => res.writeHead(503).end());
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  // Limits high enough that a long run measures the contract, not the budgets (their own suites test those).
  stack = await startStack({
    env: {
      RATE_LIMIT_DASHBOARD_PER_IP: "1000000",
      RATE_LIMIT_ANONYMOUS_PER_IP: "1000000",
      RATE_LIMIT_CRON_FAILURES_PER_IP: "1000000",
      METRICS_TOKEN,
      ALERTS_ALLOW_LOOPBACK: "true",
      ALERTS_ALLOW_HTTP: "true",
      // The abuse cases spend a starter key's requests on HEADs and aborted streams: its streams are what they measure.
      RATE_LIMIT_STARTER: "1000000",
      ...(redisUp ? { REDIS_URL: storeUrl(9), RATE_LIMIT_REDIS_URL: storeUrl(10), ANSWER_KV_BUDGET_MB: String(ANSWER_KV_BUDGET_MB) } : {}),
    },
  });
  cronSecret = JSON.parse(readFileSync(path.join(stack.app.dataDir, "secrets.json"), "utf8")).CRON_SECRET as string;
  expect((await stack.samplePass()).status).toBe(200);
  const auth = { authorization: `Bearer ${stack.key}` };
  const events = (await (await fetch(`${stack.app.url}/api/predmkt/events?limit=5`, { headers: auth })).json()) as {
    data: { slug: string }[];
  };
  real.slug = events.data.map((e) => e.slug);
  for (const slug of real.slug.slice(0, 3)) {
    const detail = (await (await fetch(`${stack.app.url}/api/predmkt/events/${slug}`, { headers: auth })).json()) as {
      data: { markets: { id: string; condition_id: string }[] };
    };
    real.marketId.push(...detail.data.markets.map((m) => m.id));
    real.conditionId.push(...detail.data.markets.map((m) => m.condition_id));
  }
  const categories = (await (await fetch(`${stack.app.url}/api/predmkt/categories`, { headers: auth })).json()) as {
    data: { slug: string }[];
  };
  real.category = categories.data.map((c) => c.slug);
  const disputes = (await (await fetch(`${stack.app.url}/api/oracle/disputes`, { headers: auth })).json()) as { data: { id: string }[] };
  real.disputeId = disputes.data.map((d) => d.id);
  expect(real.slug.length).toBeGreaterThan(0);
  expect(real.marketId.length).toBeGreaterThan(0);
}, 240_000);
afterAll(async () => {
  console.log(`contract fuzzer and abuse cases, ${formatTotals(totals)}`);
  await stack?.stop();
  receiver?.close();
});

function addToTotals(report: FuzzReport) {
  totals.total += report.total;
  totals.resent += report.resent;
  totals.failures.push(...report.failures);
  for (const [status, n] of Object.entries(report.byStatus)) totals.byStatus[status] = (totals.byStatus[status] ?? 0) + n;
}

describe("a client generated from the OpenAPI document", () => {
  it("calls every operation and gets the documented success", async () => {
    const client = createClient<paths>({ baseUrl: stack.app.url });
    const headers = { Authorization: `Bearer ${stack.key}` };
    const slug = real.slug[0];
    const id = real.marketId[0];
    // One subscription serves the alert operations (deleted last); its test delivery is the one retried.
    const subscription = client.POST("/api/alerts", {
      headers,
      body: { name: "contract", url: receiverUrl, rules: [{ type: "trade", min_usd: 1_000_000 }] },
    });
    const alertId = async () => (await subscription).data?.data.id ?? "missing";
    const testDelivery = alertId().then((alert) => client.POST("/api/alerts/{id}/test", { headers, params: { path: { id: alert } } }));
    // A created resource answers 201 and a deletion 204; everything else 200.
    const expectedStatus: Record<string, number> = {
      postApiAuthKeyRequests: 201,
      postApiAlerts: 201,
      postApiAlertsIdTest: 201,
      deleteApiAlertsId: 204,
    };
    const calls = {
      postApiAuthToken: () => client.POST("/api/auth/token", { headers, body: { ttl_seconds: 120 } }),
      getApiAuthUsage: () => client.GET("/api/auth/usage", { headers }),
      postApiAuthKeyRequests: () =>
        client.POST("/api/auth/key-requests", {
          body: {
            name: "Contract Test Ltd",
            email: "contract@example.org",
            use_case: "Calling every operation through the generated client",
            requests_per_minute: 10,
            requests_per_day: 1000,
            desired_tier: "starter",
          },
        }),
      getApiMetrics: () => client.GET("/api/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` }, parseAs: "text" }),
      getApiDashboardToken: () => client.GET("/api/dashboard/token"),
      getApiPredmktStats: () => client.GET("/api/predmkt/stats", { headers }),
      getApiPredmktCategories: () => client.GET("/api/predmkt/categories", { headers }),
      getApiPredmktEvents: () => client.GET("/api/predmkt/events", { headers, params: { query: { order: "volume", limit: 5, q: "a" } } }),
      getApiPredmktEventsSlug: () => client.GET("/api/predmkt/events/{slug}", { headers, params: { path: { slug } } }),
      getApiPredmktEventsSlugChanges: () =>
        client.GET("/api/predmkt/events/{slug}/changes", { headers, params: { path: { slug }, query: { window: "7d" } } }),
      getApiPredmktMovers: () => client.GET("/api/predmkt/movers", { headers, params: { query: { window: "1h", limit: 3 } } }),
      getApiPredmktAbnormal: () => client.GET("/api/predmkt/abnormal", { headers, params: { query: { limit: 3 } } }),
      getApiPredmktWhales: () => client.GET("/api/predmkt/whales", { headers, params: { query: { min_usd: 10, event_slug: slug } } }),
      getApiPredmktTrades: () => client.GET("/api/predmkt/trades", { headers, params: { query: { min_usd: 1.5, limit: 10 } } }),
      getApiPredmktLive: () => client.GET("/api/predmkt/live", { headers, params: { query: { limit: 5 } } }),
      getApiPredmktMarketsIdHistory: () =>
        client.GET("/api/predmkt/markets/{id}/history", { headers, params: { path: { id }, query: { window: "24h" } } }),
      getApiCronSample: () => client.GET("/api/cron/sample", { headers: { Authorization: `Bearer ${cronSecret}` } }),
      getApiPredmktMarketsIdHoldersLive: () =>
        client.GET("/api/predmkt/markets/{id}/holders-live", { headers, params: { path: { id }, query: { limit: 5 } } }),
      getApiPredmktMarketsIdActivityLive: () =>
        client.GET("/api/predmkt/markets/{id}/activity-live", {
          headers,
          params: { path: { id }, query: { holders_limit: 3, trades_limit: 7 } },
        }),
      getApiPredmktEventsSlugActivityLive: () =>
        client.GET("/api/predmkt/events/{slug}/activity-live", {
          headers,
          params: { path: { slug }, query: { side: "BUY", min_usd: 5, limit: 20 } },
        }),
      getApiPredmktEventsSlugHistoryLive: () =>
        client.GET("/api/predmkt/events/{slug}/history-live", {
          headers,
          params: { path: { slug }, query: { interval: "1w", markets: 2 } },
        }),
      getApiPredmktWalletsAddress: () =>
        client.GET("/api/predmkt/wallets/{address}", {
          headers,
          params: { path: { address: ledgerWalletAddress(4).toUpperCase().replace("0X", "0x") } },
        }),
      getApiPredmktWalletsAddressPositions: () =>
        client.GET("/api/predmkt/wallets/{address}/positions", {
          headers,
          params: { path: { address: ledgerWalletAddress(0) }, query: { status: "all", limit: 5 } },
        }),
      getApiPredmktWalletsAddressActivity: () =>
        client.GET("/api/predmkt/wallets/{address}/activity", {
          headers,
          params: { path: { address: ledgerWalletAddress(0) }, query: { type: "REDEEM", limit: 3 } },
        }),
      getApiPredmktLeaderboard: () =>
        client.GET("/api/predmkt/leaderboard", { headers, params: { query: { window: "all", order: "pnl", limit: 5 } } }),
      getApiPredmktStream: () =>
        client.GET("/api/predmkt/stream", { headers, params: { query: { topics: "trades,ticks", event: slug } }, parseAs: "stream" }),
      getApiOracleSummary: () => client.GET("/api/oracle/summary", { headers }),
      getApiOracleDisputes: () => client.GET("/api/oracle/disputes", { headers }),
      getApiOracleDisputesId: async () => {
        const list = await client.GET("/api/oracle/disputes", { headers });
        const disputeId = (typeof list.data === "object" ? list.data.data[0]?.id : undefined) ?? "0x";
        return client.GET("/api/oracle/disputes/{id}", { headers, params: { path: { id: disputeId } } });
      },
      getApiOracleRounds: () => client.GET("/api/oracle/rounds", { headers }),
      getApiOracleVoters: () => client.GET("/api/oracle/voters", { headers, params: { query: { limit: 5 } } }),
      getApiCronOracle: () => client.GET("/api/cron/oracle", { headers: { Authorization: `Bearer ${cronSecret}` } }),
      getApiCronAlerts: () => client.GET("/api/cron/alerts", { headers: { Authorization: `Bearer ${cronSecret}` } }),
      postApiAlerts: () => subscription,
      getApiAlerts: () => client.GET("/api/alerts", { headers }),
      getApiAlertsId: async () => client.GET("/api/alerts/{id}", { headers, params: { path: { id: await alertId() } } }),
      patchApiAlertsId: async () =>
        client.PATCH("/api/alerts/{id}", { headers, params: { path: { id: await alertId() } }, body: { name: "renamed" } }),
      postApiAlertsIdRotateSecret: async () =>
        client.POST("/api/alerts/{id}/rotate-secret", { headers, params: { path: { id: await alertId() } } }),
      postApiAlertsIdTest: () => testDelivery,
      getApiAlertsIdDeliveries: async () =>
        client.GET("/api/alerts/{id}/deliveries", { headers, params: { path: { id: await alertId() }, query: { limit: 5 } } }),
      postApiAlertsIdDeliveriesDeliveryIdRetry: async () => {
        const delivery = await testDelivery;
        return client.POST("/api/alerts/{id}/deliveries/{delivery_id}/retry", {
          headers,
          params: { path: { id: await alertId(), delivery_id: delivery.data?.data.id ?? "missing" } },
        });
      },
      deleteApiAlertsId: async () => client.DELETE("/api/alerts/{id}", { headers, params: { path: { id: await alertId() } } }),
      getApiHealth: () => client.GET("/api/health"),
      getApiPing: () => client.GET("/api/ping"),
      getApiOpenapiJson: () => client.GET("/api/openapi.json"),
    } satisfies Record<keyof operations, () => Promise<{ response: Response; error?: unknown }>>;

    const document = (await (await fetch(`${stack.app.url}/api/openapi.json`)).json()) as OpenApiDocument;
    const documented = Object.values(document.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
    expect(Object.keys(calls).sort()).toEqual(documented.sort());

    for (const [operationId, call] of Object.entries(calls)) {
      const { response, error, data } = (await call()) as { response: Response; error?: unknown; data?: unknown };
      expect(response.status, `${operationId}: ${JSON.stringify(error)}`).toBe(expectedStatus[operationId] ?? 200);
      expect(error, operationId).toBeUndefined();
      if (response.status === 204) {
        expect(data, operationId).toBeUndefined();
      } else if (data instanceof ReadableStream) {
        expect(response.headers.get("content-type"), operationId).toMatch(/^text\/event-stream/);
        await data.cancel();
      } else if (typeof data === "string") {
        expect(data, operationId).toMatch(/^# (HELP|TYPE) /m);
      } else {
        expect(data, operationId).toBeTypeOf("object");
      }
    }
    // The types say what the data is: a field read through them is the field the server sent.
    // (A list endpoint's success is JSON or CSV, so the type is a union until narrowed.)
    const { data: page } = await calls.getApiPredmktEvents();
    expect(typeof page === "object" && page.data.every((event) => typeof event.slug === "string" && event.title.length > 0)).toBe(true);
    const token = await calls.postApiAuthToken();
    expect(token.data?.token_type).toBe("Bearer");
  }, 180_000);
});

describe("contract fuzzer", () => {
  it("every operation, valid and hostile values: documented answers only, no 5xx, no stack trace", async () => {
    const runsPerOperation = Number(process.env.FUZZ_RUNS ?? 20);
    const document = (await (await fetch(`${stack.app.url}/api/openapi.json`)).json()) as OpenApiDocument;
    const report = await fuzzContract({
      baseUrl: stack.app.url,
      document,
      bearerFor: (route, operation) =>
        route.startsWith("/api/cron/")
          ? cronSecret
          : route === "/api/metrics"
            ? METRICS_TOKEN
            : operation.security?.length
              ? stack.key
              : undefined,
      realValues: {
        slug: real.slug,
        event_slug: real.slug,
        event: real.slug,
        id: [...real.marketId, ...real.conditionId],
        market_id: [...real.marketId, ...real.conditionId],
        market: [...real.marketId, ...real.conditionId],
        category: real.category,
        "/api/oracle/disputes/{id} id": real.disputeId,
      },
      runsPerOperation,
      seed: Number(process.env.FUZZ_SEED ?? 20261125),
    });
    addToTotals(report);
    console.log(`contract fuzzer (FUZZ_RUNS=${runsPerOperation}):\n${formatReport(report)}`);
    if (report.failures.length) console.log(`findings:\n${report.failures.join("\n")}`);
    expect(report.failures.slice(0, 30)).toEqual([]);
    expect(Object.keys(report.byOperation).length).toBeGreaterThanOrEqual(27);
    // Both halves reached the server: valid requests answered 200, hostile ones 400.
    expect(report.byStatus[200]).toBeGreaterThan(0);
    expect(report.byStatus[400]).toBeGreaterThan(0);
  }, 1_800_000);

  it("HEADs and aborted streams leave every stream slot of a starter key free", async () => {
    const report: FuzzReport = { total: 0, byOperation: {}, byStatus: {}, failures: [], resent: 0, resentCauses: {} };
    const figures = await streamSlotCase({
      baseUrl: stack.app.url,
      key: await createTestKey(stack.app, "starter", "fuzz abuse: stream slots"),
      limit: 2,
      heads: Number(process.env.FUZZ_HEADS ?? 1000),
      aborts: Number(process.env.FUZZ_ABORTS ?? 1000),
      report,
    });
    addToTotals(report);
    console.log(`stream slots: ${JSON.stringify(figures)}`);
    expect(figures.headStatuses).toEqual({ 405: figures.heads });
    expect(figures.freeAfterHeads).toBe(figures.limit);
    expect(figures.freeAfterAborts).toBe(figures.limit);
    expect(report.failures).toEqual([]);
  }, 600_000);

  it("deep replay: one request reads a bounded part of the log, in bounded time, and says where to resume", async () => {
    const report: FuzzReport = { total: 0, byOperation: {}, byStatus: {}, failures: [], resent: 0, resentCauses: {} };
    const figures = await deepReplayCase({
      baseUrl: stack.app.url,
      key: stack.key,
      connectionString: connectionStringFor(stack.app),
      rows: REPLAY_MAX_SPAN + 5_000,
      filters: {
        "min_usd matching nothing (a scan of the seq range)": "topics=trades,abnormal&min_usd=100000000",
        "an event with nothing in the log (its index)": `topics=trades,ticks,resolution&event=${real.slug[0]}`,
        "a market with nothing in the log (its index)": `topics=trades,abnormal&market=${real.marketId[0]}`,
      },
      report,
    });
    addToTotals(report);
    console.log(`deep replay: ${JSON.stringify(figures)}`);
    for (const replay of figures.replays) {
      expect(replay.gap, replay.filter).toBe("replay_limit");
      expect(replay.rows, replay.filter).toBeLessThanOrEqual(REPLAY_MAX_SPAN);
      expect(replay.ms, replay.filter).toBeLessThan(60_000);
    }
    expect(report.failures).toEqual([]);
  }, 900_000);

  it.runIf(redisUp)(
    "a unique-parameter flood: shared answers stay within the budget, the rate-limit store untouched",
    async () => {
      const report: FuzzReport = { total: 0, byOperation: {}, byStatus: {}, failures: [], resent: 0, resentCauses: {} };
      const cache = new IORedis(storeUrl(9));
      const limits = new IORedis(storeUrl(10));
      try {
        const figures = await uniqueParameterFloodCase({
          baseUrl: stack.app.url,
          key: stack.key,
          requests: Number(process.env.FUZZ_FLOOD ?? 2000),
          cache,
          limits,
          budgetBytes: ANSWER_KV_BUDGET_MB * 1024 * 1024,
          report,
        });
        addToTotals(report);
        console.log(`unique-parameter flood: ${JSON.stringify(figures)}`);
        expect(figures.answerBytes.after).toBeLessThanOrEqual(figures.budgetBytes * figures.versions);
        // The flood's whales and movers values land on a handful of per-pass keys (grid values), not one per request.
        expect(figures.newPerPassKeys).toBeLessThanOrEqual(10);
        expect(figures.limitKeysLost).toBe(0);
        expect(figures.evictedKeys).toBe(0);
        expect(figures.answerKeysInLimitsStore).toBe(0);
        expect(report.failures).toEqual([]);
      } finally {
        cache.disconnect();
        limits.disconnect();
      }
    },
    900_000,
  );
});
