// The composition root of every process's background work: which jobs a process runs and which listeners they
// fire. The server boot (lib/server/boot.ts), the cron routes (app/api/cron/*), `npm run sampler` and
// `npm run worker` all start their work here, so a listener can never be missing from one of them because a module
// happened not to be imported (docs/architecture.md "Jobs"). Nothing here runs on import.
//
// Adding a job: write its start function where its domain lives (returning a stop function), add a switch to
// `JobPlan`, start it in `startJobs` and say which processes turn it on. Work that must follow every sampler pass
// (the wallet ledger's completion, alert delivery, …) is one more `onPassLanded` line in `registerPassListeners`.
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { repeatEvery } from "@/lib/loop";
import { defaultOracleContext } from "@/lib/oracle/context";
import { startOracleIndexerLoop } from "@/lib/oracle/indexer";
import { prerenderDefaultAnswers } from "@/lib/api/sampled-answers";
import { afterPassWork, computeAfterPass } from "@/lib/predmkt/after-pass";
import { currentPass, refreshPassClock } from "@/lib/predmkt/pass-clock";
import { indexAndPublish, startResolutionPublisher } from "@/lib/resolution/push";
import { type PassResult, runSamplerPass, startSamplerLoop } from "@/lib/sampler";
import { onPassLanded, passesLanded } from "@/lib/sampled/landings";

/** Listeners run after every sampler pass that ends in this process (idempotent: registered by name). */
export function registerPassListeners(): void {
  // The sampled aggregates every reader needs, computed once right after the pass (lib/predmkt/after-pass.ts).
  onPassLanded("sampled aggregates", afterPassWork);
  // Then the answers most readers ask for, so the gateway replays even the first of them (lib/api/prerender.ts).
  onPassLanded("default answers", prerenderAfterPass);
  // Last the pass clock, read afresh, so the first reader after the pass reads no `sampler_runs` row
  // (lib/predmkt/pass-clock.ts): a read made before the answers above may be older than PASS_POLL_MS by then.
  onPassLanded("pass clock", refreshPassClock);
  // Register further after-pass work here (one line each): it runs in whichever process ran the pass.
}

interface JobPlan {
  /** The sampler loop, every this many seconds (0: none). */
  samplerIntervalS?: number;
  /** The ingest worker (websockets; it runs its own sampler loop every samplerIntervalS or 60 s). */
  ingest?: boolean;
  /** The oracle indexer loop and the resolution stream's publisher. */
  oracle?: boolean;
  /** The alert worker: matches stored stream events to subscriptions and delivers webhooks (docs/alerts.md). */
  alerts?: boolean;
  /** The job that completes the ledgers of the leaderboard's top wallets (docs/wallets.md "Leaderboard"). */
  walletLedgers?: boolean;
  /**
   * In a process that serves readers but runs no sampler, compute the aggregates of a pass another process ran (the
   * worker, `npm run sampler`, a cron instance) as soon as it is seen, every this many ms (0: never; readers pay).
   */
  passWatchMs?: number;
}

interface Jobs {
  /** What runs, for the start-up log. */
  running: string[];
  stop(): Promise<void>;
}

export async function startJobs(plan: JobPlan): Promise<Jobs> {
  registerPassListeners();
  const running: string[] = [];
  const stops: (() => void | Promise<void>)[] = [];
  if (plan.ingest) {
    // Imported on demand: the websocket client is only loaded by the processes that ingest.
    const { startWorker } = await import("@/lib/stream/ingest/worker");
    const worker = startWorker(plan.samplerIntervalS ? { samplerIntervalS: plan.samplerIntervalS } : {});
    stops.push(() => worker.stop());
    running.push("ingest worker (with the sampler loop)");
  } else if (plan.samplerIntervalS && plan.samplerIntervalS > 0) {
    stops.push(startSamplerLoop(plan.samplerIntervalS));
    running.push(`sampler loop every ${plan.samplerIntervalS} s`);
  } else if (plan.passWatchMs && plan.passWatchMs > 0) {
    stops.push(watchForeignPasses(plan.passWatchMs));
    running.push(`after-pass aggregates of other processes' passes (checked every ${plan.passWatchMs} ms)`);
  }
  if (plan.oracle) {
    const ctx = defaultOracleContext();
    stops.push(startOracleIndexerLoop(ctx, ctx.config.indexIntervalS));
    // Each new disputes answer's lifecycle transitions go to the live stream's `resolution` topic.
    stops.push(startResolutionPublisher(ctx));
    running.push(`oracle indexer every ${ctx.config.indexIntervalS} s, resolution publisher`);
  }
  if (plan.walletLedgers) {
    const { startLeaderboardLedgers } = await import("@/lib/wallets/jobs");
    const stop = startLeaderboardLedgers();
    if (stop) {
      stops.push(stop);
      running.push("leaderboard wallet ledgers");
    }
  }
  if (plan.alerts) {
    const { startAlerts } = await import("@/lib/alerts/worker");
    const alerts = startAlerts();
    stops.push(() => alerts.stop());
    running.push("alert worker");
  }
  return {
    running,
    stop: async () => {
      for (const stop of stops.reverse()) await stop();
    },
  };
}

/** The plan of a server process (lib/server/boot.ts), from its settings. */
export function serverJobPlan(): JobPlan {
  const sampling = env.SAMPLER_INTERVAL_S > 0;
  return {
    ingest: env.WORKER_IN_SERVER,
    samplerIntervalS: env.SAMPLER_INTERVAL_S,
    oracle: sampling,
    // Wherever the stream is fed in-process (the demo, a self-hosted server with its loops); otherwise `npm run worker`
    // or the cron route deliver.
    alerts: env.WORKER_IN_SERVER || sampling,
    walletLedgers: sampling,
    passWatchMs: env.PASS_WATCH_MS,
  };
}

/** The default answers of the pass that just landed here; a failure is logged and counted (sampled-answers.ts). */
async function prerenderAfterPass(): Promise<void> {
  const { prerendered, failed } = await prerenderDefaultAnswers();
  if (failed) log.warn("default answers after the pass", { prerendered, failed });
}

/** One sampler pass now (the cron route), with its listeners. */
export function runSamplerPassNow(trigger: string): Promise<PassResult> {
  registerPassListeners();
  return runSamplerPass({ trigger });
}

/** One oracle indexer pass now and its resolution transitions (the cron route). */
export function runOraclePassNow() {
  return indexAndPublish(defaultOracleContext());
}

/**
 * Watches the pass clock for a pass that ended in another process and computes its aggregates here at once, so the
 * first reader after it is served from memory. A pass this process ran has already had its listeners.
 */
function watchForeignPasses(everyMs: number): () => void {
  let seen: string | null = null;
  let landedHere = passesLanded();
  return repeatEvery(
    everyMs / 1000,
    async () => {
      const stamp = await currentPass();
      const local = passesLanded() !== landedHere;
      landedHere = passesLanded();
      if (stamp.generation === seen) return;
      seen = stamp.generation;
      if (local || !stamp.endedAt) return;
      const started = performance.now();
      const { computed, failed } = await computeAfterPass();
      const answers = await prerenderDefaultAnswers();
      log.info("after-pass work", {
        name: "sampled aggregates (pass of another process)",
        computed,
        failed,
        // The default answers built from them (lib/api/sampled-answers.ts).
        prerendered: answers.prerendered,
        prerender_failed: answers.failed,
        ms: Math.round(performance.now() - started),
      });
    },
    "after-pass watcher crashed",
  );
}
