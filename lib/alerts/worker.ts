// The self-hosted alert worker (docs/alerts.md#delivery): every ALERTS_POLL_MS it matches new stream events and hands
// what is due to the sender, so a match reaches its endpoint within about a poll of being stored. The sender's runs
// stay in flight across rounds (lib/alerts/sender.ts `startSender`): a round never waits for a slow receiver, so one
// endpoint that hangs until the deadline delays nobody else. Started by the server or `npm run worker` through the
// composition root (lib/server/jobs.ts); on Vercel the cron route does the same work once a minute (`drainOnce`).
import type { Db } from "@/lib/db/client";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { matchOnce } from "./match";
import { type QueueDeps, type Sender, startSender } from "./sender";

interface AlertWorker {
  stop: () => Promise<void>;
  /** Resolves after the next full round (match, then hand-over) and every delivery it started have finished. */
  settled: () => Promise<void>;
}

export function startAlerts(options: { db?: Db; pollMs?: number; queue?: QueueDeps } = {}): AlertWorker {
  const pollMs = options.pollMs ?? env.ALERTS_POLL_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let waiters: (() => void)[] = [];
  let sender: Sender | undefined;

  const round = async () => {
    const db = options.db ?? (await getDb());
    sender ??= startSender(db, options.queue);
    const now = options.queue?.now;
    // Catch up in batches; hand each batch's deliveries over at once so a backlog does not hold the first matches back.
    for (let i = 0; i < 20; i++) {
      const pass = await matchOnce(db, { now });
      if (pass.queued || i === 0) await sender.pump();
      if (!pass.more || stopped) break;
    }
  };

  const tick = () => {
    running = round()
      .catch((error: unknown) => log.warn("alerts round failed", errorFields(error)))
      .finally(() => {
        const done = waiters;
        waiters = [];
        for (const w of done) w();
        if (!stopped) {
          timer = setTimeout(tick, pollMs);
          timer.unref();
        }
      });
  };
  tick();
  log.info("alert worker started", { poll_ms: pollMs });
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
      await sender?.stop();
    },
    settled: async () => {
      await new Promise<void>((resolve) => waiters.push(resolve));
      await sender?.idle();
    },
  };
}
