// One way to run background work on a schedule (the sampler, the oracle indexer, the resolution publisher).
import { errorFields, log } from "@/lib/log";

/**
 * Runs `work` now and then every `intervalSeconds`, measured from the end of one run to the start of the next so a
 * slow run never stacks up. A run that throws is logged under `crashMessage` and the loop goes on (even the database
 * being away must not end it). Returns a stop function; a run in flight finishes on its own. The timers never keep
 * the process alive.
 */
export function repeatEvery(intervalSeconds: number, work: () => Promise<void>, crashMessage: string): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const schedule = (ms: number) => {
    timer = setTimeout(() => void tick(), ms);
    timer.unref?.();
  };
  const tick = async () => {
    if (stopped) return;
    try {
      await work();
    } catch (error) {
      log.error(crashMessage, errorFields(error));
    }
    if (!stopped) schedule(intervalSeconds * 1000);
  };
  schedule(0);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
