/* eslint-disable @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-member-access -- the stream and the API answer untyped JSON */
// The stream section of `npm run bench` (docs/stream.md): delivery latency from the simulator's emit to a client's
// receipt with the worker's websocket ingest and with sampler-only ingest; 1,000 concurrent streams on one instance
// (memory per stream, event-loop delay, CPU); completeness over a run with injected socket faults.
// Self-hosted topology on PostgreSQL: `next start` + `npm run worker` (LISTEN/NOTIFY between them).
import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../scripts/lib/build";
import { simulatorControl, simulatorUpstreamEnv } from "./lib/simulator";

const STREAM_SECONDS = Number(process.env.BENCH_STREAM_SECONDS ?? 30);
const SAMPLER_SECONDS = Number(process.env.BENCH_STREAM_SAMPLER_SECONDS ?? 130);
const SAMPLER_INTERVAL_S = Number(process.env.BENCH_STREAM_SAMPLER_INTERVAL_S ?? 60);
const CONCURRENT = Number(process.env.BENCH_STREAM_CONNECTIONS ?? 1000);
/** Events per second the concurrency figure feeds every stream (the goal's load, issue 29). */
const EVENTS_PER_S = Number(process.env.BENCH_STREAM_EVENTS_PER_S ?? 50);
/** `concurrency`: the concurrent-streams figure alone (no worker, no latency or completeness runs). */
const ONLY = process.env.BENCH_STREAM_ONLY ?? "";
/** The stream route's headers (lib/stream/sse.ts SSE_HEADERS), for the bare floor server. */
const SSE_BENCH_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
};

export interface StreamBenchContext {
  distDir: string;
  simUrl: string;
  jwtSecret: string;
  cronSecret: string;
  scratch: string;
  progress: (line: string) => void;
  addRow: (figure: string, value: string, database: string) => void;
  figures: Record<string, unknown>;
}

interface Received {
  id: string;
  timestampS: number;
  at: number;
}

/** A raw SSE reader over node:http (no per-connection overhead beyond the socket). */
function sse(
  url: string,
  onTrade?: (data: { id: string; timestamp: string }, id: string) => void,
  onChunk?: (chunk: string) => void,
): { close: () => void; opened: Promise<number> } {
  let req: http.ClientRequest;
  const opened = new Promise<number>((resolve, reject) => {
    req = http.get(url, { headers: { accept: "text/event-stream" }, agent: false }, (res) => {
      resolve(res.statusCode ?? 0);
      let buffer = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        onChunk?.(chunk);
        if (!onTrade) return;
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!block.startsWith("event: trade")) continue;
          const id = /\nid: (\S+)/.exec(block)?.[1] ?? "";
          const data = /\ndata: (.*)/.exec(block)?.[1];
          if (data) onTrade(JSON.parse(data), id);
        }
      });
      res.on("error", () => undefined);
    });
    req.on("error", reject);
  });
  return { close: () => req.destroy(), opened };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN;
const ms = (v: number) => (Number.isFinite(v) ? `${Math.round(v)} ms` : "–");
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

function rssMb(pid: number | undefined): number {
  if (!pid) return NaN;
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

async function waitForTrades(url: string, key: string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${url}/api/predmkt/trades?limit=1`, { headers: { authorization: `Bearer ${key}` } }).catch(() => null);
    if (res?.ok && (await res.json()).meta.as_of) return;
    if (Date.now() > deadline) throw new Error("no sampler pass completed in time");
    await sleep(1000);
  }
}

function startWorker(env: Record<string, string>): { child: ChildProcess; logs: () => string } {
  const full: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) full[k] = v;
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
    cwd: ROOT,
    env: { ...full, ...env } as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => (output = (output + d).slice(-50_000)));
  child.stderr?.on("data", (d) => (output = (output + d).slice(-50_000)));
  return { child, logs: () => output };
}

export async function streamBench(ctx: StreamBenchContext): Promise<void> {
  const processes = await import("./lib/processes");
  const database = await import("./lib/database");
  const { TradeV1Schema } = await import("../lib/upstream/schemas");
  const sim = simulatorControl(ctx.simUrl);
  if (!(await database.reachable(database.POSTGRES_ADMIN_URL))) {
    ctx.addRow("stream", "not measured: the self-hosted topology (server + worker) needs PostgreSQL", "–");
    return;
  }
  const common = {
    JWT_SECRET: ctx.jwtSecret,
    CRON_SECRET: ctx.cronSecret,
    ...simulatorUpstreamEnv(ctx.simUrl),
    RATE_LIMIT_ENTERPRISE: "1000000",
    STREAM_LIMIT_ENTERPRISE: String(CONCURRENT * 2),
    STREAM_MAX_DURATION_S: "3600",
  };
  const label = "PostgreSQL";
  if (ONLY !== "concurrency") await streamConcurrency(ctx, common);
  if (ONLY === "concurrency") return streamConcurrency(ctx, common);

  // ---- worker ingest: server + worker process ------------------------------------------------------------------
  const db = await database.createPostgresDatabase(`predmkt_bench_stream_${process.pid}`);
  let worker: ReturnType<typeof startWorker> | null = null;
  try {
    const server = await processes.startServer(ctx.distDir, {
      ...common,
      ...db.serverEnv,
      DATA_DIR: path.join(ctx.scratch, "stream-server"),
    });
    worker = startWorker({
      ...common,
      ...db.serverEnv,
      DATA_DIR: path.join(ctx.scratch, "stream-worker"),
      SAMPLER_INTERVAL_S: "15",
      WORKER_WATCHDOG_S: "5",
    });
    const key = await database.createKey(db.connectionString(), "enterprise");
    const streamUrl = `${server.url}/api/predmkt/stream?api_key=${key}&topics=trades`;
    ctx.progress("stream: worker ingest — waiting for the worker's first sampler pass");
    await waitForTrades(server.url, key);
    await sleep(5000);

    // Latency: emit (simulator) → receipt (a client of the stream).
    await sim("/ws/counters", "DELETE");
    const received: Received[] = [];
    const client = sse(streamUrl, (t) => received.push({ id: t.id, timestampS: Date.parse(t.timestamp) / 1000, at: Date.now() }));
    await client.opened;
    ctx.progress(`stream: worker ingest — measuring emit → receipt for ${STREAM_SECONDS} s`);
    await sleep(STREAM_SECONDS * 1000);
    const emitted = new Map(
      ((await sim("/ws/emitted")).trades as { payload: unknown; emitted_at_ms: number }[]).flatMap((e) => {
        const parsed = TradeV1Schema.safeParse(e.payload);
        return parsed.success ? [[parsed.data.id, e.emitted_at_ms] as const] : [];
      }),
    );
    await sleep(3000);
    client.close();
    const latencies = received.filter((r) => emitted.has(r.id)).map((r) => r.at - emitted.get(r.id)!);
    latencies.sort((a, b) => a - b);
    ctx.figures.stream_latency_worker = {
      trades: latencies.length,
      emitted: emitted.size,
      p50_ms: percentile(latencies, 50),
      p95_ms: percentile(latencies, 95),
      p99_ms: percentile(latencies, 99),
    };
    ctx.addRow(
      "emit → receipt, worker ingest (websocket → PostgreSQL → NOTIFY → SSE)",
      `p50 ${ms(percentile(latencies, 50))}, p95 ${ms(percentile(latencies, 95))}, p99 ${ms(percentile(latencies, 99))} over ${latencies.length} trades`,
      label,
    );

    // Completeness with injected socket faults: every trade the REST tape shows for the window must be streamed.
    ctx.progress("stream: completeness with injected faults (drops, a silent stall, a disconnect)");
    const streamed = new Map<string, number>();
    const watcher = sse(streamUrl, (t) => streamed.set(t.id, (streamed.get(t.id) ?? 0) + 1));
    await watcher.opened;
    await sleep(2000);
    const from = Math.floor(Date.now() / 1000);
    await sim("/ws/faults", "POST", { drop_rate: 0.2 });
    await sleep(10_000);
    await sim("/ws/faults", "DELETE");
    await sim("/ws/faults", "POST", { stall: true });
    await sleep(8000);
    await sim("/ws/faults", "DELETE");
    await sleep(3000);
    await sim("/ws/faults", "POST", { disconnect: true, refuse_ms: 3000 });
    await sleep(8000);
    const to = Math.floor(Date.now() / 1000) - 1;
    const faults = (await sim("/ws")).counters as Record<string, number>;
    // The worker's own sampler loop (15 s) is the backstop for a fill lost on both sockets at once.
    await sleep(35_000);
    watcher.close();
    // The simulator's tape has the upstream's unreadable items (a trade without a price, README "Polymarket as it
    // really is"); the service drops them item by item, so the count of what must be streamed does too.
    const rawTape = (await (await fetch(`${ctx.simUrl}/data/trades?limit=10000`)).json()) as unknown[];
    const readable = rawTape.flatMap((t) => {
      const parsed = TradeV1Schema.safeParse(t);
      return parsed.success ? [parsed.data] : [];
    });
    const unreadable = rawTape.length - readable.length;
    const tape = readable.filter((t) => t.timestamp_s >= from && t.timestamp_s <= to);
    const delivered = tape.filter((t) => streamed.has(t.id)).length;
    const duplicates = [...streamed.values()].filter((n) => n > 1).length;
    ctx.figures.stream_completeness = {
      window_s: to - from,
      tape_trades: tape.length,
      delivered,
      duplicates,
      unreadable_tape_items: unreadable,
      dropped_messages: faults.messages_dropped,
      stalled_messages: faults.messages_stalled,
      disconnects: faults.disconnects,
    };
    ctx.addRow(
      "completeness over a run with injected socket faults",
      `${delivered}/${tape.length} trades of a ${to - from} s window (${tape.length ? ((delivered / tape.length) * 100).toFixed(2) : "–"} %), ${duplicates} duplicates (${unreadable} unreadable tape items skipped); faults: ${faults.messages_dropped} messages dropped, ${faults.messages_stalled} stalled, ${faults.disconnects} disconnects`,
      label,
    );
    worker.child.kill("SIGTERM");
    await server.stop();
  } catch (error) {
    ctx.progress(`stream: failed: ${(error as Error).message}\n${worker?.logs().slice(-3000) ?? ""}`);
    ctx.addRow("worker ingest", `failed: ${(error as Error).message.slice(0, 200)}`, label);
  } finally {
    if (worker && worker.child.exitCode === null) worker.child.kill("SIGKILL");
    await db.drop();
  }

  // ---- sampler-only ingest ---------------------------------------------------------------------------------------
  const db2 = await database.createPostgresDatabase(`predmkt_bench_stream2_${process.pid}`);
  try {
    const server = await processes.startServer(ctx.distDir, {
      ...common,
      ...db2.serverEnv,
      DATA_DIR: path.join(ctx.scratch, "stream-sampler"),
      SAMPLER_INTERVAL_S: String(SAMPLER_INTERVAL_S),
    });
    const key = await database.createKey(db2.connectionString(), "enterprise");
    ctx.progress("stream: sampler-only ingest — waiting for the first pass");
    await waitForTrades(server.url, key);
    const received: Received[] = [];
    const client = sse(`${server.url}/api/predmkt/stream?api_key=${key}&topics=trades`, (t) =>
      received.push({ id: t.id, timestampS: Date.parse(t.timestamp) / 1000, at: Date.now() }),
    );
    await client.opened;
    const openedAt = Date.now();
    ctx.progress(`stream: sampler-only ingest (a pass every ${SAMPLER_INTERVAL_S} s) — measuring for ${SAMPLER_SECONDS} s`);
    await sleep(SAMPLER_SECONDS * 1000);
    client.close();
    // A trade is "emitted" when its second begins (the simulator's REST tape shows it from then on).
    const latencies = received
      .filter((r) => r.timestampS * 1000 >= openedAt)
      .map((r) => r.at - r.timestampS * 1000)
      .sort((a, b) => a - b);
    ctx.figures.stream_latency_sampler = {
      interval_s: SAMPLER_INTERVAL_S,
      trades: latencies.length,
      p50_ms: percentile(latencies, 50),
      p95_ms: percentile(latencies, 95),
      p99_ms: percentile(latencies, 99),
    };
    ctx.addRow(
      `emit → receipt, sampler-only ingest (a pass every ${SAMPLER_INTERVAL_S} s)`,
      `p50 ${ms(percentile(latencies, 50))}, p95 ${ms(percentile(latencies, 95))}, p99 ${ms(percentile(latencies, 99))} over ${latencies.length} trades`,
      label,
    );
    await server.stop();
  } catch (error) {
    ctx.addRow("sampler-only ingest", `failed: ${(error as Error).message.slice(0, 200)}`, label);
  } finally {
    await db2.drop();
  }
}

/**
 * Opens CONCURRENT streams of `url` in batches of 50 and holds them 25 s: the process's RSS before they open and each
 * second of the last 15 s (median and largest), and the events per stream received over those 15 s (`marker` starts
 * each counted event) beside what was `stored`.
 */
async function holdStreams(pid: number, url: string, marker: string, stored: () => number) {
  // The median of 5 readings a second apart, as for the readings after (V8's collections move RSS by megabytes).
  const before: number[] = [];
  for (let s = 0; s < 5; s++) {
    before.push(rssMb(pid));
    await sleep(1000);
  }
  const rssBefore = percentile(
    before.sort((a, b) => a - b),
    50,
  );
  let received = 0;
  const count = (chunk: string) => {
    for (let i = chunk.indexOf(marker); i >= 0; i = chunk.indexOf(marker, i + 1)) received++;
  };
  // One client in 20 also times each event from the moment the feed sent its row (`"sent_at":<ms>` in its data).
  const latencies: number[] = [];
  let timing = false;
  const countAndTime = (chunk: string) => {
    count(chunk);
    if (!timing) return;
    const now = Date.now();
    for (const m of chunk.matchAll(/"sent_at":(\d+)/g)) latencies.push(now - Number(m[1]));
  };
  const clients: ReturnType<typeof sse>[] = [];
  let refused = 0;
  for (let i = 0; i < CONCURRENT; i++) {
    clients.push(sse(url, undefined, i % 20 === 0 ? countAndTime : count));
    if ((i + 1) % 50 === 0) {
      const statuses = await Promise.all(clients.slice(i - 49, i + 1).map((x) => x.opened.catch(() => 0)));
      refused += statuses.filter((s) => s !== 200).length;
    }
  }
  const open = CONCURRENT - refused;
  await sleep(10_000);
  const windowStart = performance.now();
  const receivedBefore = received;
  const storedBefore = stored();
  timing = true;
  const rss: number[] = [];
  for (let s = 0; s < 15; s++) {
    await sleep(1000);
    rss.push(rssMb(pid));
  }
  timing = false;
  const windowS = (performance.now() - windowStart) / 1000;
  rss.sort((a, b) => a - b);
  latencies.sort((a, b) => a - b);
  return {
    open,
    refused,
    clients,
    rssBefore,
    // Between two of V8's full collections the heap fills with garbage and empties again: RSS swings by 10-20 MB within
    // the window, so one reading at its end says more about when V8 last collected than about the streams.
    rssMedian: percentile(rss, 50),
    rssMax: rss[rss.length - 1],
    /** Feed's send → a client's receipt, ms (NaN where the events carry no send time: the bare floor's). */
    latencyP50: percentile(latencies, 50),
    latencyP99: percentile(latencies, 99),
    eventsPerS: (received - receivedBefore) / windowS / Math.max(1, open),
    // What the feed managed to store meanwhile (a loaded machine can hold it below EVENTS_PER_S).
    storedPerS: (stored() - storedBefore) / windowS,
  };
}

/** RSS growth per open stream, from before the streams opened to `rssMb`. */
const kbPerStream = (rssMb: number, held: { rssBefore: number; open: number }) =>
  ((rssMb - held.rssBefore) * 1024) / Math.max(1, held.open);

/**
 * The floor beside the streams: the same clients on a bare node:http SSE server (`startBareSseServer`, same node flags)
 * writing an event of the same size at the same rate to every connection. What it grows per stream is Node's own
 * per-connection cost at this rate, not ours.
 */
async function bareStreamsFloor(sampleEvent: string) {
  const processes = await import("./lib/processes");
  const bare = await processes.startBareSseServer(sampleEvent, EVENTS_PER_S, { ...SSE_BENCH_HEADERS });
  try {
    await sleep(2000);
    const held = await holdStreams(bare.pid, `${bare.url}/stream`, "event: resolution", () => EVENTS_PER_S * 1000);
    for (const c of held.clients) c.close();
    return {
      streams: held.open,
      events_per_s: held.eventsPerS,
      rss_before_mb: held.rssBefore,
      rss_median_mb: held.rssMedian,
      rss_max_mb: held.rssMax,
      per_stream_kb: kbPerStream(held.rssMedian, held),
      per_stream_kb_max: kbPerStream(held.rssMax, held),
    };
  } finally {
    await bare.stop();
  }
}

/**
 * CONCURRENT streams on one instance, each fed EVENTS_PER_S: the server alone on PostgreSQL, and this process appends
 * one stream-log row per 1/EVENTS_PER_S s with its NOTIFY (a resolution transition whose payload is the size of a
 * `/trades` item: the simulator's trade flow is far below 50/s, and the hub's cost does not depend on the topic).
 * RSS per stream is the server's growth from before the streams open to the median of its RSS read each second from
 * 10 to 25 s after (the largest reading beside it); events/s is what the clients received over those 15 s; event-loop
 * delay and CPU are the hub's own report for that time. The same clients on a bare node:http server give the floor.
 */
export async function streamConcurrency(ctx: StreamBenchContext, common: Record<string, string>): Promise<void> {
  const processes = await import("./lib/processes");
  const database = await import("./lib/database");
  const pg = (await import("pg")).default;
  const db = await database.createPostgresDatabase(`predmkt_bench_streams_${process.pid}`);
  const feed = new pg.Pool({ connectionString: db.connectionString(), max: 4 });
  let feeding: NodeJS.Timeout | undefined;
  try {
    const server = await processes.startServer(ctx.distDir, {
      ...common,
      ...db.serverEnv,
      DATA_DIR: path.join(ctx.scratch, "stream-streams"),
    });
    const key = await database.createKey(db.connectionString(), "enterprise");
    const streamUrl = `${server.url}/api/predmkt/stream?api_key=${key}&topics=resolution`;
    const item = { market: { id: "bench", condition_id: `0x${"ab".repeat(32)}`, event_slug: "bench" }, pad: "x".repeat(480) };
    let n = 0;
    let stored = 0;
    // Paced by the clock, not by the timer's count: a tick that fires late (a loaded machine) appends every row due
    // since the last one, so the log grows at EVENTS_PER_S on average.
    const feedStart = performance.now();
    feeding = setInterval(() => {
      const due = Math.floor(((performance.now() - feedStart) / 1000) * EVENTS_PER_S) - n;
      for (let i = 0; i < due; i++) {
        n++;
        void feed
          .query(
            `WITH row AS (INSERT INTO stream_events (topic, ref, payload) VALUES ('resolution', $1, $2::jsonb) RETURNING seq)
             SELECT pg_notify('predmkt_stream', seq::text) FROM row`,
            [`bench-${n}`, JSON.stringify({ ...item, n, sent_at: Date.now() })],
          )
          .then(() => stored++)
          .catch(() => undefined);
      }
    }, 1000 / EVENTS_PER_S);
    // Warm: the hub starts with the first stream, and the routes compile once.
    const warm = sse(streamUrl);
    await warm.opened;
    await sleep(3000);
    warm.close();
    ctx.progress(`stream: opening ${CONCURRENT} concurrent streams, ${EVENTS_PER_S} events/s each`);
    const opened = await holdStreams(server.pid, streamUrl, "event: resolution", () => stored);
    const { open, refused, eventsPerS, storedPerS, rssBefore, rssMedian, rssMax, latencyP50, latencyP99, clients } = opened;
    const last = server
      .logs()
      .split("\n")
      .filter((l) => l.includes('"message":"stream hub"'))
      .map((l) => JSON.parse(l) as Record<string, number>)
      .filter((l) => l.streams >= open)
      .at(-1);
    const pings: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t = performance.now();
      await (await fetch(`${server.url}/api/ping`)).arrayBuffer();
      pings.push(performance.now() - t);
    }
    pings.sort((a, b) => a - b);
    for (const c of clients) c.close();
    clearInterval(feeding);
    const perStreamKb = kbPerStream(rssMedian, opened);
    const perStreamKbMax = kbPerStream(rssMax, opened);
    ctx.figures.stream_concurrency = {
      streams: open,
      refused,
      fed_events_per_s: EVENTS_PER_S,
      stored_events_per_s: storedPerS,
      events_per_s: eventsPerS,
      rss_before_mb: rssBefore,
      rss_median_mb: rssMedian,
      rss_max_mb: rssMax,
      per_stream_kb: perStreamKb,
      per_stream_kb_max: perStreamKbMax,
      sent_to_received_p50_ms: latencyP50,
      sent_to_received_p99_ms: latencyP99,
      hub: last ?? null,
      ping_p50_ms: percentile(pings, 50),
      ping_p99_ms: percentile(pings, 99),
      loadavg: readFileSync("/proc/loadavg", "utf8").trim(),
    };
    ctx.addRow(
      `${CONCURRENT} concurrent streams on one instance, ${EVENTS_PER_S} events/s fed`,
      `${open} open (${refused} refused); ${eventsPerS.toFixed(1)} events/s per stream received of ${storedPerS.toFixed(1)} stored; RSS ${Math.round(rssBefore)} → median ${Math.round(rssMedian)}, largest ${Math.round(rssMax)} MB (≈ ${perStreamKb.toFixed(0)} KB per stream, ${perStreamKbMax.toFixed(0)} at the largest); ` +
        `feed's send → receipt p50 ${ms(latencyP50)}, p99 ${ms(latencyP99)}; ` +
        (last
          ? `event-loop delay p50 ${last.event_loop_delay_p50_ms} ms, p99 ${last.event_loop_delay_p99_ms} ms; CPU ${last.cpu_percent} %; `
          : "no hub report; ") +
        `/api/ping meanwhile p50 ${pings.length ? percentile(pings, 50).toFixed(1) : "–"} ms, p99 ${percentile(pings, 99).toFixed(1)} ms`,
      "PostgreSQL",
    );
    await server.stop();
    ctx.progress(`stream: the floor, the same ${CONCURRENT} clients on a bare node:http SSE server`);
    const floor = await bareStreamsFloor(`event: resolution\nid: ${"0".repeat(12)}\ndata: ${JSON.stringify({ ...item, n })}\n\n`);
    (ctx.figures.stream_concurrency as Record<string, unknown>).floor = floor;
    ctx.addRow(
      `floor: the same clients on a bare node:http SSE server, same node flags, ${EVENTS_PER_S} events/s`,
      `${floor.streams} open; ${floor.events_per_s.toFixed(1)} events/s per stream; RSS ${Math.round(floor.rss_before_mb)} → median ${Math.round(floor.rss_median_mb)}, largest ${Math.round(floor.rss_max_mb)} MB (≈ ${floor.per_stream_kb.toFixed(0)} KB per stream, ${floor.per_stream_kb_max.toFixed(0)} at the largest)`,
      "–",
    );
  } catch (error) {
    ctx.addRow("concurrent streams", `failed: ${(error as Error).message.slice(0, 200)}`, "PostgreSQL");
  } finally {
    if (feeding) clearInterval(feeding);
    await feed.end().catch(() => undefined);
    await db.drop();
  }
}

// `npx tsx bench/stream.ts`: this section alone (the build, a bench-scale simulator, the figures as a table).
if (process.argv[1]?.endsWith(path.join("bench", "stream.ts"))) {
  void (async () => {
    const os = await import("node:os");
    const { mkdtempSync, rmSync } = await import("node:fs");
    const { ensureBuild, sourceHash } = await import("../scripts/lib/build");
    const scratch = mkdtempSync(path.join(os.tmpdir(), "predmkt-bench-stream-"));
    Object.assign(process.env, {
      DATA_DIR: path.join(scratch, "tool"),
      JWT_SECRET: "bench-jwt-secret-0123456789abcdef0123456789",
      CRON_SECRET: "bench-cron-secret-0123456789abcdef0123",
    });
    delete process.env.DATABASE_URL;
    const processes = await import("./lib/processes");
    const distDir = path.join(".next-test", sourceHash());
    ensureBuild(distDir, (line) => console.log(line));
    const sim = await processes.startSimulatorProcess((process.env.BENCH_STREAM_SCALE as "demo" | "bench") ?? "bench", 1);
    const rows: { figure: string; value: string; database: string }[] = [];
    const figures: Record<string, unknown> = {};
    const started = Date.now();
    try {
      await streamBench({
        distDir,
        simUrl: sim.url,
        jwtSecret: process.env.JWT_SECRET!,
        cronSecret: process.env.CRON_SECRET!,
        scratch,
        progress: (line) => console.log(`[stream ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`),
        addRow: (figure, value, database) => rows.push({ figure, value, database }),
        figures,
      });
    } finally {
      await processes.stopAll();
      rmSync(scratch, { recursive: true, force: true });
    }
    console.table(rows);
    console.log(JSON.stringify(figures, null, 2));
    process.exit(0);
  })();
}
