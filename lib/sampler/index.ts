// Entry points of the sampler: one pass (cron route, tests, the self-hosted loop) and an in-process loop (the demo,
// where the server process owns the embedded database and so must run the sampler itself).
import { getDb } from "@/lib/db/client";
import { log } from "@/lib/log";
import { repeatEvery } from "@/lib/loop";
import { type SamplerConfig, samplerNow } from "./config";
import { type PassResult, runPass } from "./pass";
import type { SamplerSource } from "./source";
import { upstreamSource } from "./upstream-source";

export type { PassCounts, PassResult, PassStatus } from "./pass";
export type { SamplerSource } from "./source";

export interface RunSamplerPassOptions {
  /** What started the pass ("cron", "loop", "manual", or a script's own name), logged with it. */
  trigger?: string;
  source?: SamplerSource;
  config?: Partial<SamplerConfig>;
  now?: () => Date;
}

export async function runSamplerPass(options: RunSamplerPassOptions = {}): Promise<PassResult> {
  const db = await getDb();
  return runPass({
    db,
    source: options.source ?? upstreamSource,
    trigger: options.trigger ?? "manual",
    config: options.config,
    now: options.now ?? samplerNow,
  });
}

/**
 * Runs a pass now and then every `intervalSeconds` (measured from the end of one pass to the start of the next, so
 * a slow pass never stacks up). Returns a stop function; a pass in flight finishes on its own.
 */
export function startSamplerLoop(intervalSeconds: number, options: Omit<RunSamplerPassOptions, "trigger"> = {}): () => void {
  return repeatEvery(
    intervalSeconds,
    async () => {
      const result = await runSamplerPass({ ...options, trigger: "loop" });
      if (result.status === "failed") log.warn("sampler loop: pass failed", { error: result.error });
    },
    "sampler loop: pass crashed",
  );
}
