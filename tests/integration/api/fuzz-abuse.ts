// The contract fuzzer's abuse cases (issue 26): what a client can take for free, measured against the real server.
// Each case counts its requests into the fuzzer's report (contract-fuzzer.ts) and answers its figures:
// - stream slots after HEADs and aborted streams (a starter key's slots must all come back);
// - deep replay: the worst time and the rows of the log one replay request reads;
// - a unique-parameter flood: the bytes of answers written to the shared store, and the rate-limit keys after it.
// Used by contract.test.ts ("contract fuzzer") and so by `npm run fuzz`.
import net from "node:net";
import type IORedis from "ioredis";
import pg from "pg";
import { cursorOf, decodeCursor, encodeCursor } from "@/lib/stream/types";
import { openSse } from "../../helpers/sse";
import type { FuzzReport } from "./contract-fuzzer";

function count(report: FuzzReport, operation: string, status: number): void {
  report.total++;
  const counts = (report.byOperation[operation] ??= {});
  counts[status] = (counts[status] ?? 0) + 1;
  report.byStatus[status] = (report.byStatus[status] ?? 0) + 1;
  if (status >= 500) report.failures.push(`${operation}: ${status}`);
}

async function pool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- Stream slots ----

interface SlotFigures {
  limit: number;
  heads: number;
  headStatuses: Record<string, number>;
  /** Slots a fresh GET could take right after the HEADs. */
  freeAfterHeads: number;
  aborts: number;
  /** Aborted GETs that had been given a slot (the others were refused while earlier aborts were being released). */
  abortsStreamed: number;
  /** Slots free once the aborts' releases have landed, and how long after the last abort that was. */
  freeAfterAborts: number;
  msUntilFree: number;
}

const STREAM_PATH = "/api/predmkt/stream?topics=trades";

/** How many streams the key can open now: opens up to limit + 1 and closes them again. */
async function freeSlots(baseUrl: string, key: string, limit: number, report: FuzzReport): Promise<number> {
  const open = [];
  try {
    for (let i = 0; i <= limit; i++) {
      const stream = await openSse(`${baseUrl}${STREAM_PATH}`, { authorization: `Bearer ${key}` });
      count(report, "abuse: stream probe", stream.status);
      if (stream.status !== 200) break;
      open.push(stream);
      await stream.waitFor(() => stream.comments.includes("stream open"), 15_000, "the stream's first comment");
    }
    return open.length;
  } finally {
    for (const stream of open) stream.close();
  }
}

/** A GET of the stream whose connection is reset before (or just as) the answer arrives. */
function resetBeforeAnswer(port: number, key: string, afterMs: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.write(`GET ${STREAM_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n\r\n`);
      setTimeout(() => socket.resetAndDestroy(), afterMs);
    });
    socket.on("error", () => undefined);
    socket.on("close", () => resolve());
  });
}

export async function streamSlotCase(options: {
  baseUrl: string;
  key: string;
  limit: number;
  heads: number;
  aborts: number;
  report: FuzzReport;
}): Promise<SlotFigures> {
  const { baseUrl, key, limit, report } = options;
  const auth = { authorization: `Bearer ${key}` };
  const headStatuses: Record<string, number> = {};
  await pool(
    Array.from({ length: options.heads }, (_, i) => i),
    8,
    async () => {
      const res = await fetch(`${baseUrl}${STREAM_PATH}`, { method: "HEAD", headers: auth });
      headStatuses[res.status] = (headStatuses[res.status] ?? 0) + 1;
      count(report, "abuse: HEAD stream", res.status);
    },
  );
  const freeAfterHeads = await freeSlots(baseUrl, key, limit, report);

  // Half reset before the answer (the handler may already run: Next fires no abort for it, the unread body's
  // deadline gives the slot back), half cancelled once the headers are in (the body is cancelled at once).
  const port = Number(new URL(baseUrl).port);
  let abortsStreamed = 0;
  await pool(
    Array.from({ length: options.aborts }, (_, i) => i),
    2,
    async (i) => {
      if (i % 2 === 0) return resetBeforeAnswer(port, key, i % 7);
      const abort = new AbortController();
      const res = await fetch(`${baseUrl}${STREAM_PATH}`, { headers: auth, signal: abort.signal });
      count(report, "abuse: aborted stream", res.status);
      if (res.status === 200) abortsStreamed++;
      abort.abort();
      await res.body?.cancel().catch(() => undefined);
    },
  );
  const lastAbort = performance.now();
  let freeAfterAborts = 0;
  while (performance.now() - lastAbort < 30_000) {
    freeAfterAborts = await freeSlots(baseUrl, key, limit, report);
    if (freeAfterAborts === limit) break;
    await sleep(250);
  }
  return {
    limit,
    heads: options.heads,
    headStatuses,
    freeAfterHeads,
    aborts: options.aborts,
    abortsStreamed,
    freeAfterAborts,
    msUntilFree: Math.round(performance.now() - lastAbort),
  };
}

// ---- Deep replay ----

interface ReplayFigures {
  logRows: number;
  insertMs: number;
  replays: { filter: string; ms: number; rows: number; gap: string | null }[];
}

/**
 * Appends `rows` trades of a market no filter names to the stream log (through the server's database bridge), then
 * replays from before them with filters that match nothing: each request must stop at its bound with `event: gap`.
 */
export async function deepReplayCase(options: {
  baseUrl: string;
  key: string;
  connectionString: string;
  rows: number;
  filters: Record<string, string>;
  report: FuzzReport;
}): Promise<ReplayFigures> {
  const { baseUrl, key, report } = options;
  const db = new pg.Client({ connectionString: options.connectionString });
  await db.connect();
  let from: number;
  let marker: number;
  const started = performance.now();
  try {
    from = Number((await db.query<{ seq: string }>("SELECT coalesce(max(seq), 0) AS seq FROM stream_events")).rows[0].seq);
    await db.query(
      `INSERT INTO stream_events (topic, ref, market_id, usd_size)
       SELECT 'trade', 'fuzz-replay-' || g, 'fuzz-replay-market', 1 FROM generate_series(1, $1::int) g`,
      [options.rows],
    );
    // A resolution transition after them, which a live stream of that topic receives once its hub has read up to it.
    const inserted = await db.query<{ seq: string }>(
      `INSERT INTO stream_events (topic, ref, payload) VALUES ('resolution', 'fuzz-replay-marker', $1::jsonb) RETURNING seq`,
      [JSON.stringify({ marker: "fuzz-replay", market: { event_slug: "fuzz-replay-none", condition_id: null } })],
    );
    marker = Number(inserted.rows[0].seq);
  } finally {
    await db.end();
  }
  const insertMs = Math.round(performance.now() - started);
  const auth = { authorization: `Bearer ${key}` };
  // The hub learns of rows inserted by hand through its catch-up read (every few seconds while a stream is open).
  const live = await openSse(`${baseUrl}/api/predmkt/stream?topics=resolution`, auth);
  count(report, "abuse: replay", live.status);
  try {
    await live.waitFor(
      (messages) => messages.some((m) => m.id !== null && (decodeCursor(m.id) ?? 0n) >= cursorOf(marker, "trade")),
      60_000,
      "the hub to read up to the marker",
    );
  } finally {
    live.close();
  }
  const replays: ReplayFigures["replays"] = [];
  for (const [name, query] of Object.entries(options.filters)) {
    const t0 = performance.now();
    const cursor = encodeCursor(cursorOf(from, "abnormal"));
    const stream = await openSse(`${baseUrl}/api/predmkt/stream?${query}&last_event_id=${cursor}`, auth);
    count(report, "abuse: replay", stream.status);
    try {
      await stream.waitFor((messages) => messages.some((m) => m.event === "gap" || m.event === "end"), 120_000, `the replay of ${name}`);
    } finally {
      stream.close();
    }
    const ms = Math.round(performance.now() - t0);
    const gap = stream.messages.find((m) => m.event === "gap");
    const resume = gap?.id ? decodeCursor(gap.id) : null;
    replays.push({ filter: name, ms, rows: resume === null ? -1 : Number(resume / 2n) - from, gap: (gap?.data.reason as string) ?? null });
  }
  return { logRows: options.rows, insertMs, replays };
}

// ---- Unique-parameter flood ----

interface FloodFigures {
  requests: number;
  statuses: Record<string, number>;
  /** Bytes of shared answers in the cache store before and after (all writers). */
  answerBytes: { before: number; after: number };
  /** Keys the flood added to the cache store, their bytes (MEMORY USAGE), and how many are per-pass aggregates. */
  newKeys: number;
  newBytes: number;
  newPerPassKeys: number;
  /** Sampler passes with a budget counter alive, and the bytes all writers asked to share under them. */
  versions: number;
  claimedBytes: number;
  budgetBytes: number;
  /** Rate-limit keys alive before the flood; those gone after it whose own TTL had not run out; keys Redis evicted. */
  limitKeysBefore: number;
  limitKeysLost: number;
  evictedKeys: number;
  answerKeysInLimitsStore: number;
}

async function scanKeys(redis: IORedis, match: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = "0";
  do {
    const [next, keys] = await redis.scan(cursor, "MATCH", match, "COUNT", 1000);
    cursor = next;
    found.push(...keys);
  } while (cursor !== "0");
  return found;
}

/** What the cache store holds; `known` keys (there before the flood) are left out of `newBytes`. */
async function storeFigures(redis: IORedis, known = new Set<string>()) {
  let answers = 0;
  for (const key of await scanKeys(redis, "predmkt:answer:v1:*")) answers += await redis.strlen(key);
  const keys = await scanKeys(redis, "*");
  let newBytes = 0;
  let newKeys = 0;
  for (const key of keys) {
    if (known.has(key)) continue;
    newKeys++;
    newBytes += Number((await redis.memory("USAGE", key)) ?? 0);
  }
  const perPass = (await scanKeys(redis, "predmkt:perpass:v1:*")).filter((key) => !known.has(key)).length;
  const counters = await scanKeys(redis, "predmkt:answer-budget:v1:*");
  let claimed = 0;
  for (const key of counters) claimed += Number((await redis.get(key)) ?? 0);
  return { keys, answers, newKeys, newBytes, perPass, versions: counters.length, claimed };
}

/** Keys the Redis server evicted since it started (all databases). */
async function evictedKeys(redis: IORedis): Promise<number> {
  return Number(/evicted_keys:(\d+)/.exec(await redis.info("stats"))?.[1] ?? 0);
}

/** The query strings of the flood: every one distinct; a share on the canonical grid (shared), most not. */
function floodQueries(n: number): string[] {
  const grid = [5, 10, 20, 25, 50, 100];
  return Array.from({ length: n }, (_, i) => {
    switch (i % 6) {
      case 0:
        return `/api/predmkt/events?limit=${(i % 97) + 1}&offset=${i}`;
      case 1:
        return `/api/predmkt/events?q=flood${i}`;
      case 2:
        return `/api/predmkt/trades?min_usd=${i}.5`;
      case 3:
        return `/api/predmkt/whales?min_usd=${1000 + i}`;
      case 4:
        // Canonical: on the grid, distinct by offset (a multiple of 20 up to 1,000), limit and order.
        return `/api/predmkt/events?limit=${grid[Math.floor(i / 6) % grid.length]}&offset=${(Math.floor(i / 36) % 51) * 20}&order=${["volume", "liquidity"][Math.floor(i / 6) % 2]}`;
      default:
        return `/api/predmkt/movers?window=24h&limit=${(i % 49) + 1}`;
    }
  });
}

export async function uniqueParameterFloodCase(options: {
  baseUrl: string;
  key: string;
  requests: number;
  cache: IORedis;
  limits: IORedis;
  budgetBytes: number;
  report: FuzzReport;
}): Promise<FloodFigures> {
  const { baseUrl, key, report } = options;
  const auth = { authorization: `Bearer ${key}` };
  // Rate-limit state that exists before the flood must all be there after it.
  await fetch(`${baseUrl}/api/predmkt/stats`, { headers: auth }).then((r) => r.text());
  const limitKeys = await scanKeys(options.limits, "predmkt:*");
  const ttls = await Promise.all(limitKeys.map((key) => options.limits.pttl(key)));
  const evictedBefore = await evictedKeys(options.cache);
  const started = Date.now();
  const before = await storeFigures(options.cache);
  const statuses: Record<string, number> = {};
  await pool(floodQueries(options.requests), 4, async (path) => {
    const res = await fetch(`${baseUrl}${path}`, { headers: auth });
    await res.text();
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    count(report, "abuse: unique-parameter flood", res.status);
  });
  const after = await storeFigures(options.cache, new Set(before.keys));
  const elapsed = Date.now() - started;
  let limitKeysLost = 0;
  for (const [i, key] of limitKeys.entries()) {
    const expiredByItself = ttls[i] >= 0 && ttls[i] <= elapsed;
    if (!expiredByItself && !(await options.limits.exists(key))) limitKeysLost++;
  }
  return {
    requests: options.requests,
    statuses,
    answerBytes: { before: before.answers, after: after.answers },
    newKeys: after.newKeys,
    newBytes: after.newBytes,
    newPerPassKeys: after.perPass,
    versions: after.versions,
    claimedBytes: after.claimed,
    budgetBytes: options.budgetBytes,
    limitKeysBefore: limitKeys.length,
    limitKeysLost,
    evictedKeys: (await evictedKeys(options.cache)) - evictedBefore,
    answerKeysInLimitsStore: (await scanKeys(options.limits, "predmkt:answer*")).length,
  };
}
