// The hub's fan-out (docs/stream.md "Fan-out"): a client that stops reading is cut off once its queue passes its
// bound, with `event: end` and its slot back (not an endless loop of end messages until the stack overflows), and a
// stream that fails to take a delivery costs no other stream its batch. Embedded database, in-process leases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-key";
import { closeDb, type Db, getDb } from "@/lib/db/client";
import { pollUntil } from "@/tests/helpers/poll";
import { storeResolutions } from "@/tests/helpers/stream-log";
import { getHub } from "./hub";
import { inProcessStreamSlots } from "./limits";
import { openStream } from "./sse";
import type { StreamFilter } from "./types";

let db: Db;
let keyId: string;
beforeAll(async () => {
  db = await getDb();
  keyId = (await createApiKey(db, { tier: "enterprise", owner: "fanout-test" })).record.id;
});
afterAll(closeDb);

const resolutions: StreamFilter = { topics: ["resolution"], minUsd: 0, marketId: null, eventSlug: null };

/** Reads a body until `pattern` shows, or it ends; one read at a time. */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, pattern: RegExp, timeoutMs = 30_000) {
  const decoder = new TextDecoder();
  let text = "";
  let done = false;
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(text) && !done) {
    if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms; got ${text.length} chars`);
    const next = await reader.read();
    done = next.done;
    if (next.value) text += decoder.decode(next.value, { stream: true });
  }
  return { text, done };
}

describe("fan-out", () => {
  it("a client that stops reading is cut off with one `event: end` (slow_consumer), and its slot comes back", async () => {
    const abort = new AbortController();
    const response = await openStream({ filter: resolutions, keyId, tier: "enterprise", cursor: null, signal: abort.signal });
    const reader = response.body!.getReader();
    await readUntil(reader, /: stream open/);
    expect(inProcessStreamSlots().leases).toBe(1);
    // ≈ 6 MB in two batches for a reader that reads nothing meanwhile: past the 4 MB bound.
    const hub = await getHub();
    const before = hub.delivered;
    await storeResolutions(db, 30, 100_000, "slow");
    await pollUntil(
      () => hub.delivered,
      (n) => n >= before + 30,
      30_000,
      20,
      "the first batch delivered",
    );
    await storeResolutions(db, 30, 100_000, "slow");
    await pollUntil(
      async () => inProcessStreamSlots().leases,
      (n) => n === 0,
      30_000,
      50,
      "the slow consumer's slot released",
    );
    // What it finds once it reads again: the dropped queue's place taken by exactly one end, then the end of the body.
    let text = "";
    for (;;) {
      const next = await readUntil(reader, /(?!)/, 30_000);
      text += next.text;
      if (next.done) break;
    }
    const ends = text.match(/event: end\ndata: .*\n\n/g) ?? [];
    const end = 'event: end\ndata: {"reason":"slow_consumer"}\n\n';
    expect(ends).toEqual([end]);
    expect(text.endsWith(end)).toBe(true);
    expect(hub.slowConsumers).toBeGreaterThanOrEqual(1);
    abort.abort();
  });

  it("streams with one filter share one group: 100 of them each get every message once, in order", async () => {
    const hub = await getHub();
    const groupsBefore = hub.filterGroups;
    const aborts: AbortController[] = [];
    const readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
    const shared: StreamFilter = { ...resolutions, eventSlug: "shared-filter" };
    for (let i = 0; i < 100; i++) {
      const abort = new AbortController();
      aborts.push(abort);
      const response = await openStream({ filter: { ...shared }, keyId, tier: "enterprise", cursor: null, signal: abort.signal });
      readers.push(response.body!.getReader());
    }
    expect(hub.filterGroups).toBe(groupsBefore + 1);
    for (const reader of readers) await readUntil(reader, /: stream open/);
    // Rows of that event (the filter reads the payload's event slug, as for a dispute whose market is not sampled).
    const rows = await db.$queryRawUnsafe<{ seq: bigint }[]>(
      `INSERT INTO stream_events (topic, ref, payload)
       SELECT 'resolution', 'shared-' || g, jsonb_build_object('market', jsonb_build_object('event_slug', 'shared-filter'), 'n', g)
       FROM generate_series(1, 5) g RETURNING seq`,
    );
    (await getHub()).notify(Math.max(...rows.map((r) => Number(r.seq))));
    for (const reader of readers) {
      const { text } = await readUntil(reader, /"n":5/);
      expect([...text.matchAll(/"n":(\d)/g)].map((m) => m[1])).toEqual(["1", "2", "3", "4", "5"]);
    }
    for (const abort of aborts) abort.abort();
    await pollUntil(
      () => hub.filterGroups,
      (n) => n === groupsBefore,
      5_000,
      20,
      "the group dropped with its last stream",
    );
  });

  it("a stream that fails to take a delivery costs the streams after it nothing", async () => {
    const hub = await getHub();
    // A subscriber that throws on every delivery, added before the healthy stream (the hub goes in insertion order).
    const failing = {
      filter: resolutions,
      keyId,
      deliver: () => {
        throw new Error("cannot take it");
      },
      close: () => undefined,
    };
    hub.add(failing);
    try {
      const abort = new AbortController();
      const response = await openStream({ filter: resolutions, keyId, tier: "enterprise", cursor: null, signal: abort.signal });
      const reader = response.body!.getReader();
      await readUntil(reader, /: stream open/);
      await storeResolutions(db, 3, 10, "after-failure");
      const { text } = await readUntil(reader, /"n":3,[^}]*"tag":"after-failure"/);
      expect([...text.matchAll(/"n":(\d),[^}]*"tag":"after-failure"/g)].map((m) => m[1])).toEqual(["1", "2", "3"]);
      abort.abort();
    } finally {
      hub.remove(failing);
    }
  });
});
