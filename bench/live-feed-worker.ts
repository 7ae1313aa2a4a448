// The ingest worker as `npm run worker` runs it (lib/stream/ingest/worker.ts `startWorker` with the after-pass
// listeners, as lib/server/jobs.ts starts it), in its own process, for bench/live-feed.ts. The oracle indexer, alerts
// and wallet ledgers of `npm run worker` are left out: the bench measures the live feed alone. The parent talks over
// IPC: `refresh` (read the subscribed set again, once the first sampler pass has listed the markets), `mark` (start a
// measurement window), `report` (the window's figures: frames received, event-loop delay, CPU, RSS, the worker's
// counters), `profile-start` / `profile-stop` (a CPU profile of the window, written to the file given).
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { env } from "@/lib/env";
import { registerPassListeners } from "@/lib/server/jobs";
import { startWorker, type WorkerStats } from "@/lib/stream/ingest/worker";

type Command = { cmd: "refresh" | "mark" | "report" | "stop" } | { cmd: "profile-start" } | { cmd: "profile-stop"; file: string };

const send = (message: unknown) => process.send?.(message);

function totals(stats: WorkerStats) {
  return {
    messages: stats.sockets.reduce((sum, s) => sum + s.messages, 0),
    price_frames: stats.price_frames,
    book_frames: stats.book_frames,
    trades_heard: stats.trades_heard,
    prices_changed: stats.prices_changed,
    reconnects: stats.sockets.reduce((sum, s) => sum + s.reconnects, 0),
    stalls: stats.sockets.reduce((sum, s) => sum + s.stalls, 0),
  };
}

function main(): void {
  registerPassListeners();
  const worker = startWorker({ samplerIntervalS: env.SAMPLER_INTERVAL_S > 0 ? env.SAMPLER_INTERVAL_S : 3600 });
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let mark = { at: performance.now(), cpu: process.cpuUsage(), totals: totals(worker.stats()) };
  let rssPeak = 0;
  const rssTimer = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 250);
  rssTimer.unref();
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result))),
    );

  process.on("message", (raw: Command) => {
    void (async () => {
      switch (raw.cmd) {
        case "refresh":
          await worker.subscriptions.refresh();
          send({ cmd: "refresh", subscriptions: worker.subscriptions.stats() });
          break;
        case "mark":
          delay.reset();
          rssPeak = process.memoryUsage().rss;
          mark = { at: performance.now(), cpu: process.cpuUsage(), totals: totals(worker.stats()) };
          send({ cmd: "mark" });
          break;
        case "report": {
          const wall = (performance.now() - mark.at) / 1000;
          const cpu = process.cpuUsage(mark.cpu);
          const now = totals(worker.stats());
          const delta = Object.fromEntries(Object.entries(now).map(([k, v]) => [k, v - mark.totals[k as keyof typeof now]]));
          const stats = worker.stats();
          send({
            cmd: "report",
            wall_s: wall,
            delta,
            cpu_percent_of_one_core: ((cpu.user + cpu.system) / 1e6 / wall) * 100,
            loop_delay_ms: {
              p50: delay.percentile(50) / 1e6,
              p99: delay.percentile(99) / 1e6,
              max: delay.max / 1e6,
            },
            rss_mb: process.memoryUsage().rss / 1e6,
            rss_peak_mb: rssPeak / 1e6,
            subscriptions: stats.subscriptions,
            sockets: stats.sockets.length,
            drift: worker.drift.report(),
          });
          break;
        }
        case "profile-start":
          await post("Profiler.enable");
          await post("Profiler.setSamplingInterval", { interval: 1000 });
          await post("Profiler.start");
          send({ cmd: "profile-start" });
          break;
        case "profile-stop": {
          const { profile } = (await post("Profiler.stop")) as { profile: unknown };
          writeFileSync(raw.file, JSON.stringify(profile));
          send({ cmd: "profile-stop", file: raw.file });
          break;
        }
        case "stop":
          await worker.stop();
          send({ cmd: "stop" });
          process.exit(0);
      }
    })().catch((error: unknown) => send({ cmd: "error", message: (error as Error).message }));
  });
  send({ cmd: "ready" });
}

main();
