// Preloaded into the server (`--import`) when the bench runs with BENCH_CPU_PROF=<dir>: each SIGUSR2 starts or stops
// the V8 CPU profiler in-process (node:inspector), and a stop writes <dir>/<label>-<pid>.cpuprofile (open it in Chrome
// DevTools or summarise it with `npx tsx bench/profile-summary.ts <file>`), so the bench profiles one phase only.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import path from "node:path";

const dir = process.env.BENCH_CPU_PROF_DIR;
let session = null;
let count = 0;
process.on("SIGUSR2", () => {
  if (!dir) return;
  if (!session) {
    session = new Session();
    session.connect();
    session.post("Profiler.setSamplingInterval", { interval: 200 });
    session.post("Profiler.enable", () => session.post("Profiler.start"));
    return;
  }
  const current = session;
  session = null;
  current.post("Profiler.stop", (error, result) => {
    if (!error) writeFileSync(path.join(dir, `phase${++count}-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    current.disconnect();
  });
});
