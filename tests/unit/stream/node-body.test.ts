// The live stream's body written straight to Node's response, as the production entry hands it over
// (scripts/lib/take-body.mjs, docs/stream.md "Memory"): the replay after Last-Event-ID and the live messages after it,
// the slot back when the client disconnects, the slow-consumer cut-off, and what Next hung on the response let go.
// A plain node:http server plays Next's part as far as the hand-off sees it; embedded database, in-process leases.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-key";
import { closeDb, type Db, getDb } from "@/lib/db/client";
import { getHub } from "@/lib/stream/hub";
import { inProcessStreamSlots } from "@/lib/stream/limits";
import { openStream } from "@/lib/stream/sse";
import { decodeCursor, type StreamFilter } from "@/lib/stream/types";
import { createBodyHandOff } from "@/scripts/lib/take-body.mjs";
import { pollUntil } from "../../helpers/poll";
import { storeResolutions } from "../../helpers/stream-log";

const resolutions: StreamFilter = { topics: ["resolution"], minUsd: 0, marketId: null, eventSlug: null };
const NEXT_META = Symbol("NextInternalRequestMeta");

let db: Db;
let keyId: string;
let server: http.Server;
let origin: string;
/** Per request: whether the route's Response had a body (it must not: the body was handed over). */
const bodies: boolean[] = [];
/** Per request, once the body started: what of Next's was still on the request and the response. */
const nextLeft: { listeners: number; ownMethods: string[]; meta: unknown }[] = [];

beforeAll(async () => {
  db = await getDb();
  keyId = (await createApiKey(db, { tier: "enterprise", owner: "node-body-test" })).record.id;
  const handOff = createBodyHandOff();
  (globalThis as { __predmktTakeBody?: unknown }).__predmktTakeBody = handOff.takeBody;
  server = http.createServer((req, res) =>
    handOff.run(res, () => {
      void (async () => {
        // Next: request meta on the request, a close listener that aborts the request's signal (holding the route's
        // context), error and end listeners of its request adapter and render, a `setHeader` patch, compression's
        // wrapper of `write`, the route's status and headers copied, and end() for a bodiless Response.
        (req as unknown as Record<symbol, unknown>)[NEXT_META] = { route: "stream" };
        const abort = new AbortController();
        const nextListeners = [() => abort.abort(), () => abort.abort(), () => abort.abort(), () => abort.abort()];
        res.once("close", nextListeners[0]);
        res.on("error", nextListeners[1]);
        req.on("error", nextListeners[2]);
        req.on("end", nextListeners[3]);
        const setHeader = res.setHeader.bind(res);
        res.setHeader = (name, value) => setHeader(name, value);
        const write = res.write.bind(res);
        res.write = ((...args: Parameters<typeof write>) => write(...args)) as typeof write;
        const raw = req.headers["last-event-id"];
        const response = await openStream({
          filter: resolutions,
          keyId,
          tier: "enterprise",
          cursor: typeof raw === "string" ? decodeCursor(raw) : null,
          signal: abort.signal,
        });
        bodies.push(response.body !== null);
        res.statusCode = response.status;
        response.headers.forEach((value, name) => res.setHeader(name, value));
        res.end();
        const listening = [...res.eventNames().flatMap((e) => res.listeners(e)), ...req.eventNames().flatMap((e) => req.listeners(e))];
        nextLeft.push({
          listeners: nextListeners.filter((l) => listening.includes(l)).length,
          ownMethods: (["setHeader", "write"] as const).filter((m) => res[m] !== http.ServerResponse.prototype[m]),
          meta: (req as unknown as Record<symbol, unknown>)[NEXT_META],
        });
      })();
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  delete (globalThis as { __predmktTakeBody?: unknown }).__predmktTakeBody;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await closeDb();
});

interface Client {
  response: http.IncomingMessage;
  text: () => string;
  ids: () => string[];
  ended: Promise<void>;
  close: () => void;
}

function connect(headers: Record<string, string> = {}): Promise<Client> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${origin}/stream`, { headers, agent: false }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      const ended = new Promise<void>((done) => response.once("end", done));
      response.on("error", () => undefined);
      resolve({
        response,
        text: () => text,
        ids: () => [...text.matchAll(/^event: resolution\nid: (\S+)$/gm)].map((m) => m[1]),
        ended,
        close: () => request.destroy(),
      });
    });
    request.on("error", reject);
  });
}

describe("the stream's body on Node's response (the production entry's hand-off)", () => {
  it("replays after Last-Event-ID, then continues live, with Next's hold on the request let go", async () => {
    const first = await connect();
    expect(first.response.statusCode).toBe(200);
    expect(first.response.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    await pollUntil(first.text, (t) => t.includes(": stream open"), 10_000, 20, "the stream's opening");
    await storeResolutions(db, 5, 100, "replay");
    await pollUntil(first.ids, (ids) => ids.length === 5, 10_000, 20, "five live messages");
    const ids = first.ids();
    first.close();

    const resumed = await connect({ "last-event-id": ids[0] });
    await pollUntil(resumed.ids, (got) => got.length === 4, 10_000, 20, "the replay");
    expect(resumed.ids()).toEqual(ids.slice(1));
    await storeResolutions(db, 1, 100, "after-replay");
    await pollUntil(resumed.ids, (got) => got.length === 5, 10_000, 20, "the live message after the replay");
    resumed.close();

    expect(bodies.every((hasBody) => !hasBody)).toBe(true);
    // Every stream opened so far (this test's two, and those of any test the shuffle ran before it).
    expect(nextLeft.length).toBeGreaterThanOrEqual(2);
    for (const left of nextLeft) expect(left).toEqual({ listeners: 0, ownMethods: [], meta: undefined });
  });

  it("gives the slot back when the client disconnects", async () => {
    await pollUntil(
      () => inProcessStreamSlots().leases,
      (n) => n === 0,
      10_000,
      20,
      "earlier streams' slots released",
    );
    const client = await connect();
    await pollUntil(client.text, (t) => t.includes(": stream open"), 10_000, 20, "the stream's opening");
    expect(inProcessStreamSlots().leases).toBe(1);
    client.close();
    await pollUntil(
      () => inProcessStreamSlots().leases,
      (n) => n === 0,
      10_000,
      20,
      "the disconnected stream's slot released",
    );
  });

  it("cuts off a client that stops reading with one `event: end` (slow_consumer), and gives its slot back", async () => {
    const hub = await getHub();
    const slowBefore = hub.slowConsumers;
    const client = await connect();
    await pollUntil(client.text, (t) => t.includes(": stream open"), 10_000, 20, "the stream's opening");
    client.response.pause();
    // 3 MB a batch to a client that reads nothing: once the socket's buffers are full, the queue passes its 4 MB bound.
    await pollUntil(
      async () => {
        await storeResolutions(db, 30, 100_000, "slow");
        return inProcessStreamSlots().leases;
      },
      (n) => n === 0,
      60_000,
      500,
      "the slow consumer's slot released",
    );
    expect(hub.slowConsumers).toBe(slowBefore + 1);
    client.response.resume();
    await client.ended;
    const end = 'event: end\ndata: {"reason":"slow_consumer"}\n\n';
    expect(client.text().match(/event: end\ndata: .*\n\n/g)).toEqual([end]);
    expect(client.text().endsWith(end)).toBe(true);
  });
});
