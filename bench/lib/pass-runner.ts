// The child process of bench/pass-memory.ts: runs sampler passes the way the cron route does (runSamplerPassNow: the
// pass, then its after-pass listeners) when its parent asks, and answers each with the pass's result and its own V8
// heap figures. A process of its own so that its parent can read its resident memory from /proc without sharing it.
import { runSamplerPassNow } from "@/lib/server/jobs";

interface Ask {
  pass: number;
}

// Each upstream request is logged as it starts (its host and path, ids left in): the parent stamps the lines, so the
// RSS trace shows which stage of the pass (events listing, tape, holders) each stretch of memory belongs to.
const fetchUpstream = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  console.log(JSON.stringify({ message: "fetch", path: url.pathname }));
  return fetchUpstream(input, init);
};

const send = (message: unknown) => new Promise<void>((resolve) => process.send!(message, () => resolve()));

process.on("message", (ask: Ask) => {
  void (async () => {
    const started = performance.now();
    const result = await runSamplerPassNow(`bench-pass-${ask.pass}`);
    const wallS = (performance.now() - started) / 1000;
    const heap = process.memoryUsage();
    const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;
    await send({
      pass: ask.pass,
      wall_s: Math.round(wallS * 10) / 10,
      status: result.status,
      error: result.error,
      counts: result.counts,
      upstream_requests: result.upstream_requests,
      memory_after_mb: {
        rss: mb(heap.rss),
        heap_used: mb(heap.heapUsed),
        heap_total: mb(heap.heapTotal),
        external: mb(heap.external),
        array_buffers: mb(heap.arrayBuffers),
      },
    });
  })();
});

void send({ ready: true });
