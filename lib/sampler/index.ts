// Entry points of the sampler: one pass (cron route, tests, the self-hosted loop) and an in-process loop (the demo,
// where the server process owns the embedded database and so must run the sampler itself).
import { getDb } from "@/lib/db/client";
import { errorFields, log } from "@/lib/log";
import type { SamplerConfig } from "./config";
import { type PassResult, runPass } from "./pass";
import type { SamplerSource } from "./source";
import { upstreamSource } from "./upstream-source";

export type { PassCounts, PassResult, PassStatus } from "./pass";
export { STATE } from "./pass";
export type { SamplerSource } from "./source";

export interface RunSamplerPassOptions {
  trigger?: "cron" | "loop" | "manual" | string;
  source?: SamplerSource;
  config?: Partial<SamplerConfig>;
  now?: () => Date;
}

export async function runSamplerPass(options: RunSamplerPassOptions = {}): Promise<PassResult> {
  const db = await getDb();
  return runPass({ db, source: options.source ?? upstreamSource, trigger: options.trigger ?? "manual", config: options.config, now: options.now });
}

/**
 * Runs a pass now and then every `intervalSeconds` (measured from the end of one pass to the start of the next, so
 * a slow pass never stacks up). Returns a stop function; a pass in flight finishes on its own.
 */
export function startSamplerLoop(intervalSeconds: number, options: Omit<RunSamplerPassOptions, "trigger"> = {}): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    if (stopped) return;
    try {
      const result = await runSamplerPass({ ...options, trigger: "loop" });
      if (result.status === "failed") log.warn("sampler loop: pass failed", { error: result.error });
    } catch (error) {
      // Even the database being away must not end the loop: the next tick tries again.
      log.error("sampler loop: pass crashed", errorFields(error));
    }
    if (!stopped) {
      timer = setTimeout(tick, intervalSeconds * 1000);
      timer.unref?.();
    }
  };
  timer = setTimeout(tick, 0);
  timer.unref?.();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
