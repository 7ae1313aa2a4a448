// Readers in this process learn of a finished pass at once (their per-pass answers move to the new pass), and work
// every reader needs after a pass is done here, once, right after it: listeners run after the pass releases its
// lease. Process-global (globalThis) because Next bundles the cron route, the server's sampler loop and the API
// routes separately, each with its own copy of this module.
import { errorFields, log } from "@/lib/log";

/** What a listener learns of a pass (lib/sampler/pass.ts PassResult has these and more). */
export interface LandedPass {
  status: string;
  counts: object;
}

type Listener = (result: LandedPass) => Promise<void>;

interface Landings {
  count: number;
  listeners: Map<string, Listener>;
}

const globalForLandings = globalThis as unknown as { __predmktPassLandings?: Landings };

function landings(): Landings {
  globalForLandings.__predmktPassLandings ??= { count: 0, listeners: new Map() };
  return globalForLandings.__predmktPassLandings;
}

/** How many passes (ok or failed: both change what is stored) have ended in this process. */
export function passesLanded(): number {
  return landings().count;
}

/** Registers (or replaces, by name) work to run after every pass that ends in this process. */
export function onPassLanded(name: string, listener: Listener): void {
  landings().listeners.set(name, listener);
}

/** Called by runPass when a pass has ended; a failing listener is logged and never fails the pass. */
export async function passLanded(result: LandedPass): Promise<void> {
  const state = landings();
  state.count += 1;
  for (const [name, listener] of state.listeners) {
    const started = performance.now();
    try {
      await listener(result);
      log.info("after-pass work", { name, ms: Math.round(performance.now() - started) });
    } catch (error) {
      log.warn("after-pass work failed", { name, ...errorFields(error) });
    }
  }
}
