// The self-hosted topology on PostgreSQL: `npm run worker` in its own process, two app instances sharing the
// database. Each instance fans out from its one subscription (Redis pub/sub relayed by the worker when Redis is
// reachable, else LISTEN/NOTIFY), both deliver every emitted trade once, and the per-key stream limit is counted
// across the instances through the rate-limit store.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratePostgres } from "@/lib/db/migrate-postgres";
import { TradeV1Schema } from "@/lib/upstream/schemas";
import { createTestKey } from "../../helpers/keys";
import { POSTGRES_URL, postgresAvailable, REDIS_URL, redisAvailable } from "../../helpers/services";
import { pollUntil } from "../../helpers/poll";
import { openSse, type SseClient } from "../../helpers/sse";
import { type Stack, startStack } from "../../helpers/stack";

const postgresUp = await postgresAvailable();
const redisUp = await redisAvailable();

describe.runIf(postgresUp)(`stream on PostgreSQL with a separate worker (${redisUp ? "Redis" : "LISTEN/NOTIFY"} fan-out)`, () => {
  const dbName = `predmkt_stream_${process.pid}_${Date.now()}`;
  const databaseUrl = Object.assign(new URL(POSTGRES_URL), { pathname: `/${dbName}` }).toString();
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  const env: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    JWT_SECRET: "stream-it-jwt-secret-0123456789abcdef0123",
    CRON_SECRET: "stream-it-cron-secret-0123456789abcdef",
    ...(redisUp ? { REDIS_URL } : {}),
  };
  const stacks: Stack[] = [];
  let worker: ChildProcess;
  let workerLogs = "";

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await migratePostgres(databaseUrl);
    stacks.push(await startStack({ chains: false, env }), await startStack({ chains: false, env }));
    const sim = stacks[0].sim;
    worker = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
      cwd: path.resolve(__dirname, "../../.."),
      env: {
        ...process.env,
        ...env,
        PGLITE_DIR: undefined,
        DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "predmkt-worker-")),
        ...sim.env,
        POLYMARKET_CLOB_WS_URL: sim.clobWsUrl,
        POLYMARKET_RTDS_URL: sim.rtdsUrl,
        SAMPLER_INTERVAL_S: "3600",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    worker.stdout!.on("data", (d) => (workerLogs += d));
    worker.stderr!.on("data", (d) => (workerLogs += d));
    const asOf = async () => {
      const res = await fetch(`${stacks[0].app.url}/api/predmkt/trades?limit=1`, { headers: { authorization: `Bearer ${stacks[0].key}` } });
      const sampled = (await res.json()).meta.as_of as string | null;
      if (!sampled && worker.exitCode !== null) throw new Error(`the worker exited (${worker.exitCode})`);
      return sampled;
    };
    await pollUntil(asOf, Boolean, 120_000, 500, "the worker's first pass").catch((e: Error) => {
      throw new Error(`the worker's first pass did not complete (${e.message}):\n${workerLogs}`);
    });
  }, 240_000);
  afterAll(async () => {
    worker?.kill("SIGTERM");
    await Promise.allSettled(stacks.map((s) => s.stop()));
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  });

  it("both instances stream every trade the simulator emits, once", async () => {
    const sim = stacks[0].sim;
    const streams: SseClient[] = [];
    for (const s of stacks) streams.push(await openSse(`${s.app.url}/api/predmkt/stream?api_key=${s.key}`));
    // Counted from here: trades emitted before both streams were open are not theirs to deliver.
    await fetch(`${sim.url}/__sim/ws/counters`, { method: "DELETE" });
    const ids = async () =>
      ((await (await fetch(`${sim.url}/__sim/ws/emitted`)).json()).trades as { payload: unknown }[]).map(
        (e) => TradeV1Schema.parse(e.payload).id,
      );
    await streams[0].waitFor((m) => m.length >= 10, 60_000, "ten trades");
    // Ten trades emitted since the counters were reset: every one of them is then the streams' to deliver.
    const want = new Set(await pollUntil(ids, (list) => new Set(list).size >= 10, 60_000, 200, "ten trades emitted since the reset"));
    expect(want.size).toBeGreaterThanOrEqual(10);
    for (const stream of streams) {
      await stream.waitFor((m) => m.filter((x) => want.has(x.data.id as string)).length >= want.size, 30_000, "every emitted trade");
      stream.close();
      const streamed = stream.messages.map((m) => m.data.id as string);
      expect(new Set(streamed).size).toBe(streamed.length);
    }
    // Same messages, same cursors, same order on both instances (from where the later one joined).
    const [a, b] = streams.map((s) => s.messages.map((m) => m.id));
    const start = Math.max(a.indexOf(b[0]), 0);
    const common = Math.min(a.length - start, b.length) - 1;
    expect(common).toBeGreaterThanOrEqual(want.size - 2);
    expect(b.slice(0, common)).toEqual(a.slice(start, start + common));
  });

  it.runIf(redisUp)("counts a key's streams across instances through the rate-limit store", async () => {
    const starter = await createTestKey(stacks[0].app, "starter");
    const open = [
      await openSse(`${stacks[0].app.url}/api/predmkt/stream?api_key=${starter}`),
      await openSse(`${stacks[1].app.url}/api/predmkt/stream?api_key=${starter}`),
    ];
    try {
      expect(open.map((s) => s.status)).toEqual([200, 200]);
      for (const s of stacks) {
        const third = await fetch(`${s.app.url}/api/predmkt/stream?api_key=${starter}`);
        expect(third.status).toBe(429);
        expect(Number(third.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      }
    } finally {
      for (const s of open) s.close();
    }
  });
});
