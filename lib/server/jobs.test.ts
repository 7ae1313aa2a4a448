// The composition root: a process that runs sampler passes computes the aggregates after each, whichever entry point
// started it, and a server that runs no sampler computes them for a pass another process ran, before any reader.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_ANSWERS } from "@/lib/api/sampled-answers";
import { closeDb, type Db, getDb } from "@/lib/db/client";
import { log } from "@/lib/log";
import { clearPerPass } from "@/lib/predmkt/per-pass";
import { MOVER_WINDOWS } from "@/lib/predmkt/windows";
import { runPass } from "@/lib/sampler/pass";
import { pollUntil } from "@/tests/helpers/poll";
import { event, FakeWorld, market } from "@/tests/unit/sampler/fake-world";
import { registerPassListeners, startJobs } from "./jobs";

const T0 = Date.parse("2026-11-01T00:00:00Z");
// stats, categories, movers for every window, abnormal trades, ticks, whales (lib/predmkt/after-pass.ts)
const AGGREGATES = 5 + MOVER_WINDOWS.length;
const DEFAULT_REQUESTS = DEFAULT_ANSWERS.reduce((n, { requests }) => n + requests.length, 0);
let db: Db;
let world: FakeWorld;

beforeAll(async () => {
  db = await getDb();
  world = new FakeWorld();
  world.events = [event(1, [market(11, "1", [0.6, 0.4])]), event(2, [market(21, "2", [0.5, 0.5])])];
  // Migrating the embedded database takes most of a minute on a loaded 2-core machine.
}, 180_000);
afterAll(closeDb);

const infoCalls = (spy: { mock: { calls: unknown[][] } }, name: string) =>
  spy.mock.calls.filter(([message, fields]) => message === "after-pass work" && (fields as { name?: string } | undefined)?.name === name);

describe("jobs", () => {
  it("a pass that lands in a server without a sampler (run by another process) gets its aggregates computed at once", async () => {
    // The pass lands before this process watches: from the watcher's side it was another process's.
    expect((await runPass({ db, source: world, now: () => new Date(T0) })).status).toBe("ok");
    clearPerPass();
    const info = vi.spyOn(log, "info");
    const jobs = await startJobs({ passWatchMs: 50 });
    try {
      expect(jobs.running).toEqual([expect.stringContaining("after-pass aggregates of other processes' passes")]);
      const [[, fields]] = await pollUntil(
        async () => infoCalls(info, "sampled aggregates (pass of another process)"),
        (calls) => calls.length > 0,
        20_000,
        50,
      );
      // Then every default answer is built from them, ready for the gateway to replay (lib/api/prerender.ts).
      expect(fields).toMatchObject({ computed: AGGREGATES, failed: 0, prerendered: DEFAULT_REQUESTS, prerender_failed: 0 });
    } finally {
      await jobs.stop();
      info.mockRestore();
    }
  });

  it("a pass this process runs fires the registered after-pass listener (the worker's and the sampler's case)", async () => {
    registerPassListeners();
    const info = vi.spyOn(log, "info");
    try {
      expect((await runPass({ db, source: world, now: () => new Date(T0 + 60_000) })).status).toBe("ok");
      expect(infoCalls(info, "sampled aggregates")).toHaveLength(1);
      expect(infoCalls(info, "default answers")).toHaveLength(1);
    } finally {
      info.mockRestore();
    }
  });
});
