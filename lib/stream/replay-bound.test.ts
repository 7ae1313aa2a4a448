// A replay reads a bounded part of the stream log per request, whatever its filter (docs/stream.md "Replay"): a
// filter that matches nothing in the whole retained log answers within a bounded time and row count, and a log
// longer than one request's bound ends in `event: gap` with the cursor to resume from.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-key";
import { closeDb, type Db, getDb } from "@/lib/db/client";
import { TimeoutError, withTimeout } from "@/lib/timeout";
import { REPLAY_MAX_SPAN, REPLAY_SPAN, openStream } from "./sse";
import { cursorOf, decodeCursor, encodeCursor, type StreamFilter } from "./types";

const LOG_ROWS = 30_000;
let db: Db;
let keyId: string;

beforeAll(async () => {
  db = await getDb();
  keyId = (await createApiKey(db, { tier: "enterprise", owner: "replay-bound-test" })).record.id;
  // A log of trades in 50 markets, none of them in the filtered event. Stored before the hub starts, which takes the
  // newest seq as the replay's bound.
  await db.$executeRawUnsafe(
    `INSERT INTO stream_events (topic, ref, market_id, usd_size)
     SELECT 'trade', 'bound-' || g, 'bound-market-' || (g % 50), 5 FROM generate_series(1, ${LOG_ROWS}) g`,
  );
}, 300_000);
afterAll(closeDb);

const nothing: StreamFilter = { topics: ["trade", "abnormal"], minUsd: 0, marketId: null, eventSlug: "no-such-event" };

async function replay(cursor: bigint, replayMaxSpan?: number) {
  const stats: { rows: number; ms: number }[] = [];
  const abort = new AbortController();
  const response = await openStream({
    filter: nothing,
    keyId,
    tier: "enterprise",
    cursor,
    signal: abort.signal,
    replayMaxSpan,
    onReplayed: (s) => stats.push(s),
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  // One read at a time: a read still pending when a wait ends is the next wait's, so no chunk is read and dropped.
  let pending = reader.read();
  const take = async (ms: number): Promise<"read" | "waiting" | "done"> => {
    const result = await withTimeout(pending, ms).catch((error: unknown) => {
      if (error instanceof TimeoutError) return null;
      throw error;
    });
    if (!result) return "waiting";
    if (result.value) text += decoder.decode(result.value, { stream: true });
    if (result.done) return "done";
    pending = reader.read();
    return "read";
  };
  const deadline = Date.now() + 60_000;
  while (stats.length === 0 && Date.now() < deadline) if ((await take(100)) === "done") break;
  // Whatever was written before the replay reported (the gap and the end come before the report).
  while ((await take(50)) === "read");
  abort.abort();
  return { text, stats: stats[0] };
}

describe("bounded replay", () => {
  it("a filter matching nothing in the whole log answers in bounded time and rows", async () => {
    const { text, stats } = await replay(cursorOf(1, "trade"));
    expect(stats.rows).toBeLessThanOrEqual(Math.min(LOG_ROWS, REPLAY_MAX_SPAN));
    expect(stats.rows).toBeGreaterThanOrEqual(LOG_ROWS - 1);
    expect(stats.ms).toBeLessThan(20_000);
    expect(text).not.toMatch(/event: (trade|gap)/);
    console.log(
      `replay of ${LOG_ROWS} log rows, nothing matching: ${stats.rows} rows in ${Math.round(stats.ms)} ms (${Math.ceil(LOG_ROWS / REPLAY_SPAN)} queries)`,
    );
  });

  it("past one request's bound: event: gap with the resume cursor as its id, then the end; resuming continues", async () => {
    const span = 10_000;
    const first = await replay(cursorOf(1, "trade"), span);
    expect(first.stats.rows).toBe(span);
    const gap = /event: gap\nid: (\w+)\ndata: (.*)\n\n/.exec(first.text);
    expect(gap).not.toBeNull();
    const data = JSON.parse(gap![2]) as { reason: string; last_event_id: string };
    expect(data).toMatchObject({ reason: "replay_limit", last_event_id: gap![1] });
    expect(first.text).toMatch(/event: end\ndata: \{"reason":"replay_limit"\}/);
    const resume = decodeCursor(gap![1])!;
    expect(encodeCursor(resume)).toBe(gap![1]);
    const second = await replay(resume, span);
    expect(second.stats.rows).toBe(span);
    expect(Number(resume / 2n)).toBe(span);
  });
});
