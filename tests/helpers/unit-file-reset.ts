// The unit project's setup file (vitest.config.mts): its files share worker processes instead of each starting one of
// its own (docs/testing.md "One process for many test files"), so each file must start from what a new process would
// give it. Before each file: the app's modules are evaluated anew (node_modules stay loaded: that is the saving), the
// environment is the one the worker started with, and the process-wide singletons the app keeps on globalThis
// (`__predmkt*`: the database, caches, meters, clocks) are gone. After each file: every timer the file's code started
// and did not clear is cleared (a usage meter's flush or a pass watcher of the file before would otherwise run on in
// the next file, against its database or its environment), and its database is closed.
import { promisify } from "node:util";
import { afterAll, vi } from "vitest";

interface RealTimers {
  setTimeout: typeof setTimeout;
  setInterval: typeof setInterval;
  clearTimeout: typeof clearTimeout;
}
type Callback = (...args: unknown[]) => void;

const worker = globalThis as unknown as Record<string, unknown> & {
  __unitWorkerEnv?: NodeJS.ProcessEnv;
  __unitRealTimers?: RealTimers;
  __unitFileTimers?: Set<NodeJS.Timeout>;
};
// Both are taken by the first file a worker runs, before any test code: the environment vitest.config.mts gives every
// file, and the timer functions Node gives every process.
const workerEnv = (worker.__unitWorkerEnv ??= { ...process.env });
const real = (worker.__unitRealTimers ??= {
  setTimeout: globalThis.setTimeout,
  setInterval: globalThis.setInterval,
  clearTimeout: globalThis.clearTimeout,
});

async function endFile(): Promise<void> {
  vi.useRealTimers();
  const timers = worker.__unitFileTimers;
  for (const timer of timers ?? []) real.clearTimeout(timer);
  const db = worker.__predmktDb as { close?: () => Promise<void> } | undefined;
  await db?.close?.().catch(() => undefined);
  // Closing may itself have started timers (a client's idle timeout).
  for (const timer of timers ?? []) real.clearTimeout(timer);
  timers?.clear();
  for (const key of Object.keys(worker)) if (key.startsWith("__predmkt")) delete worker[key];
  for (const key of Object.keys(process.env)) if (!(key in workerEnv)) delete process.env[key];
  Object.assign(process.env, workerEnv);
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
}

/** Timer functions that remember what this file started, so that endFile can clear what is left. */
function trackTimers(): void {
  const started = new Set<NodeJS.Timeout>();
  worker.__unitFileTimers = started;
  const trackedTimeout = (callback: Callback, ms?: number, ...args: unknown[]) => {
    const timer: NodeJS.Timeout = real.setTimeout(
      (...values: unknown[]) => {
        started.delete(timer);
        callback(...values);
      },
      ms,
      ...args,
    );
    started.add(timer);
    return timer;
  };
  // `util.promisify(setTimeout)` keeps working.
  Object.defineProperty(trackedTimeout, promisify.custom, { value: promisify(real.setTimeout) });
  globalThis.setTimeout = trackedTimeout as typeof setTimeout;
  globalThis.setInterval = ((callback: Callback, ms?: number, ...args: unknown[]) => {
    const timer = real.setInterval(callback, ms, ...args);
    started.add(timer);
    return timer;
  }) as typeof setInterval;
}

// A file that ran before this one in the worker has ended (endFile ran as its last hook); this runs before the test
// file is imported, so the imports below it evaluate fresh modules.
await endFile();
trackTimers();
vi.resetModules();
afterAll(endFile);
