// The setup the sampler's simulator tests share: a simulator on a clock the test moves, lib/env pointed at it, the
// in-memory database, and the modules under test imported only after that (lib/env reads process.env once, at first
// import). Call it at the top of a test file; it registers the beforeAll/afterAll hooks.
import { afterAll, beforeAll } from "vitest";
import type { Db } from "@/lib/db/client";
import type { Simulator, SimulatorOptions } from "@/sim/polymarket";

export type SamplerHarness<M> = M & {
  sim: Simulator;
  db: Db;
  /** The simulator's clock in ms; a test moves it forward. */
  now: number;
  /** The same clock as a Date, for runSamplerPass({ now }). */
  clock: () => Date;
};

export function samplerOverSimulator<M extends object>(
  options: Omit<SimulatorOptions, "clock">,
  load: () => Promise<M>,
): SamplerHarness<M> {
  const h = { now: Date.parse("2026-11-20T12:00:00Z"), clock: () => new Date(h.now) } as SamplerHarness<M>;
  let closeDb: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const { startSimulator } = await import("@/sim/polymarket");
    h.sim = await startSimulator({ ...options, clock: () => h.now });
    Object.assign(process.env, h.sim.env);
    const client = await import("@/lib/db/client");
    h.db = await client.getDb();
    closeDb = client.closeDb;
    Object.assign(h, await load());
  }, 120_000);
  afterAll(async () => {
    await closeDb?.();
    await h.sim?.close();
  });
  return h;
}
