// The whole offline stack for end-to-end tests: Polymarket simulator + local chains + the production server pointed
// at both, with a key. `samplePass()` runs one sampler pass through the cron route.
import { readFileSync } from "node:fs";
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
  stop: () => Promise<void>;
}

export async function startStack(options: { env?: Record<string, string>; chains?: boolean } = {}): Promise<Stack> {
  const [sim, chains] = await Promise.all([
    startSimulator({ seed: 7, scale: "demo" }),
    options.chains === false ? null : startLocalChains(),
  ]);
  const app = await startApp({
    env: {
      ...(chains?.env ?? {}),
      ...sim.env,
      POLYMARKET_CLOB_WS_URL: sim.clobWsUrl,
      POLYMARKET_RTDS_URL: sim.rtdsUrl,
      RATE_LIMIT_ENTERPRISE: "1000000",
      ...options.env,
    },
  });
  const key = await createTestKey(app, "enterprise");
  const cronSecret = () => JSON.parse(readFileSync(path.join(app.dataDir, "secrets.json"), "utf8")).CRON_SECRET as string;
  return {
    app,
    sim,
    chains: chains as LocalChains,
    key,
    samplePass: () =>
      fetch(`${app.url}/api/cron/sample`, { headers: { authorization: `Bearer ${options.env?.CRON_SECRET ?? cronSecret()}` } }),
    stop: async () => {
      await app.stop();
      await Promise.allSettled([sim.close(), chains?.stop()]);
    },
  };
}
