// Times sampler passes over the simulator's bench world (≥ 10,000 markets) on embedded PGlite (or DATABASE_URL).
// Usage: PGLITE_DIR=memory:// DATA_DIR=/tmp/bench npx tsx tests/unit/sampler/bench-pass.ts [passes]
import { startSimulator } from "@/sim/polymarket";

async function main() {
  const passes = Number(process.argv[2] ?? 3);
  let simNow = Date.now();
  const sim = await startSimulator({ seed: 1, scale: "bench", clock: () => simNow });
  Object.assign(process.env, sim.env);
  const { runSamplerPass } = await import("@/lib/sampler");
  const { upstreamSource } = await import("@/lib/sampler/upstream-source");
  // Time spent waiting on the upstream (HTTP + parsing), to tell it apart from database time.
  let upstreamMs = 0;
  const timed =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>) =>
    async (...args: A) => {
      const t = performance.now();
      try {
        return await fn(...args);
      } finally {
        upstreamMs += performance.now() - t;
      }
    };
  const source = {
    eventsPage: timed(upstreamSource.eventsPage.bind(upstreamSource)),
    tapePage: timed(upstreamSource.tapePage.bind(upstreamSource)),
    holders: timed(upstreamSource.holders.bind(upstreamSource)),
  };
  const { getDb, closeDb } = await import("@/lib/db/client");
  const db = await getDb();
  console.log("world:", JSON.stringify(sim.summary().counts));
  for (let i = 0; i < passes; i++) {
    const started = performance.now();
    upstreamMs = 0;
    const result = await runSamplerPass({ now: () => new Date(simNow), source });
    const ms = performance.now() - started;
    console.log(
      `pass ${i + 1}: ${result.status} in ${(ms / 1000).toFixed(1)} s (upstream ${(upstreamMs / 1000).toFixed(1)} s, database ${((ms - upstreamMs) / 1000).toFixed(1)} s)`,
      JSON.stringify(result.counts),
      result.error ?? "",
    );
    simNow += 60_000;
  }
  const [size] = await db.$queryRawUnsafe<{ bytes: bigint }[]>(`SELECT pg_database_size(current_database()) AS bytes`);
  console.log(`database after ${passes} passes: ${(Number(size.bytes) / 1e6).toFixed(1)} MB`);
  await closeDb();
  await sim.close();
}
void main();
