// The pass clock (lib/predmkt/pass-clock.ts) after a pass that lands in this process: the first request after it must
// not have to read `sampler_runs` on its path (the movers first-after-pass figure, bench/README.md "Real scale").
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { closeDb, type Db, getDb } from "@/lib/db/client";
import { log } from "@/lib/log";
import { currentPass, PASS_POLL_MS } from "@/lib/predmkt/pass-clock";
import { runPass } from "@/lib/sampler/pass";
import { registerPassListeners } from "@/lib/server/jobs";
import { event, FakeWorld, market } from "../sampler/fake-world";

let db: Db;
beforeAll(async () => {
  db = await getDb();
  // The listeners every process registers through its composition root (lib/server/jobs.ts).
  registerPassListeners();
  await db.$executeRawUnsafe(
    "TRUNCATE events, markets, outcomes, price_samples, trades, whale_positions, sampler_runs, sampler_lease, sampler_state RESTART IDENTITY",
  );
});
afterAll(closeDb);

describe("pass clock", () => {
  it("holds the pass that just landed here, so the first request after it reads nothing", async () => {
    const world = new FakeWorld();
    world.events = [event(1, [market(11, "1", [0.6, 0.4])])];
    expect((await runPass({ db, source: world, now: () => new Date("2026-11-01T00:00:00Z") })).status).toBe("ok");
    // The clock was read when the pass landed; a request within PASS_POLL_MS of that read reuses it. The test pins
    // "now" to the moment of that read, so a slow machine cannot turn this into a test of the poll interval.
    const clock = (globalThis as unknown as { __predmktPassClock: { checkedAt: number } }).__predmktPassClock;
    const now = vi.spyOn(Date, "now").mockReturnValue(clock.checkedAt + PASS_POLL_MS - 1);
    const reads = vi.spyOn(db, "$queryRawUnsafe");
    try {
      const stamp = await currentPass();
      expect(reads.mock.calls.filter(([sql]) => String(sql).includes("sampler_runs"))).toEqual([]);
      const run = await db.samplerRun.findFirstOrThrow({ orderBy: { id: "desc" } });
      expect(stamp).toEqual({ generation: `${run.id}@${run.finishedAt!.getTime()}`, endedAt: run.finishedAt });
    } finally {
      now.mockRestore();
      reads.mockRestore();
    }
  });

  it("is read after the rest of the pass's work, so the poll interval starts when readers can come", async () => {
    const world = new FakeWorld();
    world.events = [event(1, [market(11, "1", [0.7, 0.3])])];
    // When each listener ended ("after-pass work" is logged as each one returns, before the next one starts).
    const ended = new Map<string, number>();
    const info = vi.spyOn(log, "info").mockImplementation((message, fields) => {
      if (message === "after-pass work") ended.set(String((fields as { name: string }).name), Date.now());
    });
    try {
      expect((await runPass({ db, source: world, now: () => new Date("2026-11-01T00:01:00Z") })).status).toBe("ok");
    } finally {
      info.mockRestore();
    }
    const clock = (globalThis as unknown as { __predmktPassClock: { checkedAt: number } }).__predmktPassClock;
    expect([...ended.keys()]).toEqual(expect.arrayContaining(["sampled aggregates", "default answers", "pass clock"]));
    expect(clock.checkedAt).toBeGreaterThanOrEqual(Math.max(...[...ended].filter(([name]) => name !== "pass clock").map(([, t]) => t)));
  });
});
