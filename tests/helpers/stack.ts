// The whole offline stack for end-to-end tests: Polymarket simulator + local chains + the production server pointed
// at both, with a key. `samplePass()` runs one sampler pass through the cron route.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type LocalChains, startLocalChains } from "@/sim/chain";
import { type Simulator, startSimulator } from "@/sim/polymarket";
import { createTestKey } from "./keys";
import { type RunningApp, startApp } from "./server";

export interface Stack {
  app: RunningApp;
  sim: Simulator;
  chains: LocalChains;
  key: string;
  samplePass: () => Promise<Response>;
  /** Moves the simulator's clock this far off the real one (0: back to real time). */
  setSimClockOffset: (ms: number) => void;
  /** Stops the server and starts it again on the same data, with `env` over its settings (undefined unsets one). */
  restartApp: (env?: Record<string, string | undefined>) => Promise<void>;
  stop: () => Promise<void>;
}

export async function startStack(
  options: { env?: Record<string, string>; chains?: boolean; simClockOffsetMs?: number } = {},
): Promise<Stack> {
  let simClockOffsetMs = options.simClockOffsetMs ?? 0;
  const [sim, chains] = await Promise.all([
    startSimulator({ seed: 7, scale: "demo", clock: () => Date.now() + simClockOffsetMs }),
    options.chains === false ? null : startLocalChains(),
  ]);
  // The stack's own data directory, so that a restart finds the server's data where it left it.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "predmkt-app-"));
  let env: Record<string, string | undefined> = {
    ...(chains?.env ?? {}),
    ...sim.env,
    POLYMARKET_CLOB_WS_URL: sim.clobWsUrl,
    POLYMARKET_RTDS_URL: sim.rtdsUrl,
    RATE_LIMIT_ENTERPRISE: "1000000",
    ...options.env,
  };
  const stack: Stack = {
    app: await startApp({ dataDir, env }),
    sim,
    chains: chains as LocalChains,
    key: "",
    samplePass: () =>
      fetch(`${stack.app.url}/api/cron/sample`, { headers: { authorization: `Bearer ${options.env?.CRON_SECRET ?? cronSecret()}` } }),
    setSimClockOffset: (ms) => void (simClockOffsetMs = ms),
    restartApp: async (overrides = {}) => {
      await stack.app.stop();
      env = { ...env, ...overrides };
      stack.app = await startApp({ dataDir, env });
    },
    stop: async () => {
      await stack.app.stop();
      await Promise.allSettled([sim.close(), chains?.stop()]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  const cronSecret = () => JSON.parse(readFileSync(path.join(dataDir, "secrets.json"), "utf8")).CRON_SECRET as string;
  stack.key = await createTestKey(stack.app, "enterprise");
  return stack;
}
