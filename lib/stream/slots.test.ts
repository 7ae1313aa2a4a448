// Stream slots always come back (docs/stream.md "Slots"): HEAD opens nothing, an abort before or during the start
// releases the lease, a body nobody reads gives it back after a deadline, the sweep ends the streams of keys that
// stopped being usable, and empty lease sets are dropped. Embedded database, in-process leases (no shared store).
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApiKey } from "@/lib/auth/api-key";
import type { Tier } from "@/lib/auth/tiers";
import { closeDb, type Db, getDb } from "@/lib/db/client";
import { proxy } from "@/proxy";
import { pollUntil } from "@/tests/helpers/poll";
import { streamEvents, type StreamQuery } from "./index";
import { inProcessStreamSlots } from "./limits";
import { openStream } from "./sse";

// The hub sweeps for keys that stopped being usable every min(5, KEY_CACHE_TTL_S) seconds (hub.ts): a 1 s key cache
// makes that every second, so "the sweep" awaits one second's sweep instead of up to five.
vi.hoisted(() => {
  process.env.KEY_CACHE_TTL_S = "1";
});

let db: Db;
beforeAll(async () => {
  db = await getDb();
});
afterAll(closeDb);

const QUERY: StreamQuery = { topics: ["trades"], min_usd: 0 };
const filter = { topics: ["trade" as const], minUsd: 0, marketId: null, eventSlug: null };

async function newKey(tier: Tier = "starter") {
  const { key, record } = await createApiKey(db, { tier, owner: "slots-test" });
  return { key, client: { keyId: record.id, tier, via: "api_key" as const } };
}

function open(keyId: string, signal: AbortSignal, unpulledDeadlineMs?: number) {
  return openStream({ filter, keyId, tier: "starter", cursor: null, signal, unpulledDeadlineMs });
}

async function readUntil(body: ReadableStream<Uint8Array>, pattern: RegExp, timeoutMs = 15_000): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(text)) {
    if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms; got ${JSON.stringify(text)}`);
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

describe("HEAD on the stream", () => {
  it("four HEADs then a GET on a starter key: the HEADs take nothing and the GET streams", async () => {
    const { key, client } = await newKey();
    for (let i = 0; i < 4; i++) {
      // At the gateway: 405, before any handler runs.
      const gated = await proxy(new NextRequest(`http://localhost/api/predmkt/stream?api_key=${key}`, { method: "HEAD" }));
      expect(gated.status).toBe(405);
      expect(gated.headers.get("allow")).toBe("GET, OPTIONS");
      // And should one reach the handler, it gets the headers with nothing opened.
      const direct = await streamEvents(QUERY, client, new Request("http://localhost/api/predmkt/stream", { method: "HEAD" }));
      expect(direct.status).toBe(200);
      expect(direct.body).toBeNull();
    }
    expect(inProcessStreamSlots().leases).toBe(0);
    const aborts = [new AbortController(), new AbortController()];
    // A starter key's two slots are both free: two GETs stream.
    for (const abort of aborts) {
      const response = await streamEvents(QUERY, client, new Request("http://localhost/api/predmkt/stream", { signal: abort.signal }));
      expect(response.status).toBe(200);
      expect(await readUntil(response.body!, /: stream open/)).toMatch(/^retry: \d+/);
    }
    for (const abort of aborts) abort.abort();
    await pollUntil(
      async () => inProcessStreamSlots(),
      (slots) => slots.leases === 0 && slots.sets === 0,
      5_000,
      20,
    );
  });

  it("1,000 HEADs leave no slot taken", async () => {
    const { client } = await newKey();
    for (let i = 0; i < 1000; i++) {
      await streamEvents(QUERY, client, new Request("http://localhost/api/predmkt/stream", { method: "HEAD" }));
    }
    expect(inProcessStreamSlots()).toEqual({ sets: 0, leases: 0 });
  });
});

describe("aborts and unread bodies", () => {
  it("an abort before the stream starts releases the slot", async () => {
    const { client } = await newKey();
    const abort = new AbortController();
    abort.abort();
    await open(client.keyId, abort.signal);
    expect(inProcessStreamSlots()).toEqual({ sets: 0, leases: 0 });
  });

  it("an abort while the stream is starting releases the slot", async () => {
    const { client } = await newKey();
    for (let i = 0; i < 3; i++) {
      const abort = new AbortController();
      const opening = open(client.keyId, abort.signal);
      abort.abort(); // while the slot, the hub and the database are being awaited
      await opening;
    }
    expect(inProcessStreamSlots()).toEqual({ sets: 0, leases: 0 });
  });

  it("a body nobody reads gives its slot back after the deadline; one that is read keeps it", async () => {
    const { client } = await newKey();
    const unread = await open(client.keyId, new AbortController().signal, 300);
    const read = new AbortController();
    const reading = await open(client.keyId, read.signal, 300);
    expect(await readUntil(reading.body!, /: stream open/)).toContain("retry:");
    expect(inProcessStreamSlots().leases).toBe(2);
    await pollUntil(
      async () => inProcessStreamSlots().leases,
      (n) => n === 1,
      5_000,
      50,
    );
    expect(unread.status).toBe(200);
    read.abort();
    await pollUntil(
      async () => inProcessStreamSlots(),
      (slots) => slots.sets === 0,
      5_000,
      20,
    );
  });
});

describe("the sweep", () => {
  it("ends the streams of revoked, expired and rotated-past-grace keys", async () => {
    const cases = [
      { reason: "revoked", data: { status: "revoked" as const, revokedAt: new Date() } },
      { reason: "expired", data: { expiresAt: new Date(Date.now() - 1000) } },
      { reason: "rotated", data: { rotatedAt: new Date(Date.now() - 2000), graceEndsAt: new Date(Date.now() - 1000) } },
    ];
    const streams = [];
    for (const c of cases) {
      const { client } = await newKey();
      const response = await open(client.keyId, new AbortController().signal);
      streams.push({ ...c, keyId: client.keyId, body: response.body! });
    }
    for (const s of streams) await db.apiKey.update({ where: { id: s.keyId }, data: s.data });
    for (const s of streams) {
      const text = await readUntil(s.body, /event: end\ndata: .*\n\n/);
      expect(text).toContain(`"reason":"${s.reason}"`);
    }
    await pollUntil(
      async () => inProcessStreamSlots(),
      (slots) => slots.sets === 0,
      5_000,
      20,
    );
  });
});
