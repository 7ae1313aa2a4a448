// The ingest worker in the test's own process, over the offline Polymarket simulator's REST and websockets, on the
// in-memory database (real clock, docs/stream.md): the setup of the stream tests that drive the feeds. Call it at the
// top of a test file; it registers the beforeAll/afterAll hooks (a file's own beforeAll, registered after it, runs
// once the worker's first sampler pass is in). The app's modules are imported only once the environment points at
// the simulator: they read it when they load.
import { afterAll, beforeAll } from "vitest";
import type { Db } from "@/lib/db/client";
import type { Worker } from "@/lib/stream/ingest/worker";
import type { Simulator, SimulatorOptions } from "@/sim/polymarket";
import { pollUntil } from "./poll";

export interface WorkerOverSimulator {
  sim: Simulator;
  db: Db;
  /** The running worker; null after a test stops it, until `startWorker`. */
  worker: Worker | null;
  /** The simulator's control API (`/__sim…`), its answer read as JSON. */
  simControl: (path: string, method?: string, body?: unknown) => Promise<Record<string, unknown>>;
  /** Starts a worker (its sampler once an hour), waits for its first sampler pass and `ready`, and keeps it in `worker`. */
  startWorker: () => Promise<Worker>;
}

export function workerOverSimulator(
  options: {
    sim: SimulatorOptions;
    /** Settings for the worker beside the simulator's URLs (WORKER_WATCHDOG_S, …). */
    env?: Record<string, string>;
    /** What else a started worker must have done before the tests (or a restart) go on. */
    ready?: (worker: Worker, db: Db) => Promise<void>;
  },
  timeoutMs = 180_000,
): WorkerOverSimulator {
  let startWorker: typeof import("@/lib/stream/ingest/worker").startWorker;
  let closeDb: (() => Promise<void>) | undefined;
  const passes = async () =>
    (await t.db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM sampler_runs WHERE trigger = 'loop' AND status = 'ok'`))[0]
      .n;
  const t: WorkerOverSimulator = {
    worker: null,
    simControl: (path, method = "GET", body) =>
      fetch(`${t.sim.url}/__sim${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) }).then(
        (r) => r.json() as Promise<Record<string, unknown>>,
      ),
    startWorker: async () => {
      const before = await passes();
      const worker = startWorker({ samplerIntervalS: 3600 });
      t.worker = worker;
      await pollUntil(passes, (n) => n > before, 120_000, 250, "a sampler pass of the started worker");
      await options.ready?.(worker, t.db);
      return worker;
    },
  } as WorkerOverSimulator;
  beforeAll(async () => {
    const { startSimulator } = await import("@/sim/polymarket");
    t.sim = await startSimulator(options.sim);
    Object.assign(process.env, t.sim.env, {
      POLYMARKET_CLOB_WS_URL: t.sim.clobWsUrl,
      POLYMARKET_RTDS_URL: t.sim.rtdsUrl,
      ...options.env,
    });
    const client = await import("@/lib/db/client");
    t.db = await client.getDb();
    closeDb = client.closeDb;
    startWorker = (await import("@/lib/stream/ingest/worker")).startWorker;
    await t.startWorker();
  }, timeoutMs);
  afterAll(async () => {
    await t.worker?.stop();
    await closeDb?.();
    await t.sim?.close();
  });
  return t;
}
