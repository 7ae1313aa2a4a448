// The production server in front of the offline Polymarket simulator, with a key: the setup of the integration tests
// that count what reaches the upstream. Call it at the top of a test file; it registers the beforeAll/afterAll hooks
// (a file's own beforeAll, registered after it, runs once the server is up).
import { afterAll, beforeAll } from "vitest";
import type { Tier } from "@/lib/auth/tiers";
import { type Simulator, startSimulator } from "@/sim/polymarket";
import { createTestKey } from "./keys";
import { type RunningApp, startApp } from "./server";

export interface AppOverSimulator {
  sim: Simulator;
  app: RunningApp;
  key: string;
  /** `path` on the app, sent with the key. */
  get: (path: string) => Promise<Response>;
}

export function appOverSimulator(
  options: { seed: number; env?: Record<string, string>; tier?: Tier },
  timeoutMs?: number,
): AppOverSimulator {
  const t = {
    get: (path: string) => fetch(t.app.url + path, { headers: { authorization: `Bearer ${t.key}` } }),
  } as AppOverSimulator;
  beforeAll(async () => {
    t.sim = await startSimulator({ seed: options.seed });
    t.app = await startApp({ env: { ...t.sim.env, ...options.env } });
    t.key = await createTestKey(t.app, options.tier ?? "enterprise");
  }, timeoutMs);
  afterAll(async () => {
    await t.app?.stop();
    await t.sim?.close();
  });
  return t;
}
