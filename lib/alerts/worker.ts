// The self-hosted alert worker (docs/alerts.md#delivery): every ALERTS_POLL_MS it matches new stream events and
// delivers what is due, so a match reaches its endpoint within about a poll of being stored. Started by the server
// (lib/server/boot.ts) or `npm run worker`; on Vercel the cron route does the same work once a minute.
import type { Db } from "@/lib/db/client";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { drainOnce, type QueueDeps } from "./deliveries";
import { matchOnce } from "./match";

export interface AlertWorker {
  stop: () => Promise<void>;
  /** Resolves after the next full round (match, then drain) has finished. */
  settled: () => Promise<void>;
}

export function startAlerts(options: { db?: Db; pollMs?: number; queue?: QueueDeps } = {}): AlertWorker {
  const pollMs = options.pollMs ?? env.ALERTS_POLL_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let waiters: (() => void)[] = [];

  const round = async () => {
    const db = options.db ?? (await getDb());
    const now = options.queue?.now;
    // Catch up in batches; deliver between them so a backlog does not hold the first matches back.
    for (let i = 0; i < 20; i++) {
      const pass = await matchOnce(db, { now });
      if (pass.queued || i === 0) await drainOnce(db, options.queue);
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
    },
    settled: () => new Promise((resolve) => waiters.push(resolve)),
  };
}
