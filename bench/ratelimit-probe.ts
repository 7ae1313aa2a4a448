// Child process of the benchmark: times the gateway's rate-limit step (`consume()` in lib/auth/ratelimit.ts) with the
// store that this process's environment selects (none → in-process memory, REDIS_URL → Redis, UPSTASH_* → Upstash
// REST), one request at a time, and prints one JSON line. Run by bench/run.ts; env decides the store.
import { percentile } from "./lib/load";

async function main() {
  const { consume, rateLimitStoreKind } = await import("@/lib/auth/ratelimit");
  const count = Number(process.env.PROBE_REQUESTS ?? 3000);
  const identifiers = Array.from({ length: 50 }, (_, i) => `key:bench-probe-${process.pid}-${i}`);
  for (let i = 0; i < 300; i++) await consume(identifiers[i % identifiers.length], 1_000_000_000);
  const times: number[] = [];
  const stores = new Set<string>();
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const result = await consume(identifiers[i % identifiers.length], 1_000_000_000);
    times.push(performance.now() - started);
    stores.add(result.store);
  }
  times.sort((a, b) => a - b);
  const us = (ms: number) => Math.round(ms * 1000);
  process.stdout.write(
    `${JSON.stringify({ configured: rateLimitStoreKind(), answered_by: [...stores], requests: count, p50_us: us(percentile(times, 50)), p99_us: us(percentile(times, 99)), mean_us: us(times.reduce((a, b) => a + b, 0) / count) })}\n`,
  );
  const { getKv } = await import("@/lib/kv/redis");
  await getKv()?.close();
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
