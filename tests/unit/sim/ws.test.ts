// The simulator's websockets: message shapes against recorded real messages, the subscription protocols, the
// heartbeat, the faults users report, and the emitted-trade counter agreeing with the REST tape.
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { fixture, shapeMismatches, simulatorForTests } from "./helpers";
import { pollUntil } from "@/tests/helpers/poll";

interface Conn {
  ws: WebSocket;
  texts: string[];
  json: unknown[];
  waitFor(predicate: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  closed: Promise<void>;
}

async function connect(url: string, first?: unknown): Promise<Conn> {
  const ws = new WebSocket(url);
  const conn: Conn = {
    ws,
    texts: [],
    json: [],
    waitFor: async (predicate, what, timeoutMs = 15_000) => {
      await pollUntil(predicate, Boolean, timeoutMs, 20, what);
    },
    closed: new Promise((resolve) => ws.once("close", () => resolve())),
  };
  ws.on("message", (raw) => {
    const text = raw.toString();
    conn.texts.push(text);
    if (text.startsWith("{") || text.startsWith("[")) conn.json.push(JSON.parse(text));
  });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  if (first !== undefined) ws.send(JSON.stringify(first));
  return conn;
}

const ACTIVITY = { action: "subscribe", subscriptions: [{ topic: "activity", type: "trades", filters: "" }] };

describe("simulator websockets", () => {
  // The simulator's clock runs ten times as fast as the wall clock: the world's trades and price moves come ten times
  // as often, so what these tests wait for (a trade among 400 markets, a price change, five trades, a stalled message)
  // arrives in a tenth of the time. Nothing here depends on the pace, only on what is sent and in which shape.
  const startedMs = Date.now();
  const sim = simulatorForTests({ seed: 3, scale: "demo", clock: () => startedMs + (Date.now() - startedMs) * 10 });
  const control = async (path: string, method = "GET", body?: unknown) =>
    (await fetch(`${sim().url}/__sim${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) })).json();

  it("market channel: book dump on subscribe, PING → PONG, last_trade_price and price_change in the recorded shapes", async () => {
    // Enough open markets that some top of book moves within seconds.
    const assets = sim()
      .world.markets.filter((m) => sim().world.isOpen(sim().world.events[m.eventIndex]))
      .slice(0, 400)
      .flatMap((m) => [...m.tokenIds]);
    const conn = await connect(sim().clobWsUrl, { assets_ids: assets, type: "market", custom_feature_enabled: true });
    await conn.waitFor(() => conn.json.some(Array.isArray), "the initial book dump");
    const dump = conn.json.find(Array.isArray) as Record<string, unknown>[];
    expect(dump.map((b) => b.asset_id).sort()).toEqual([...assets].sort());
    expect(dump[0]).toMatchObject({ event_type: "book", market: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    conn.ws.send("PING");
    await conn.waitFor(() => conn.texts.includes("PONG"), "PONG");
    const events = () => conn.json.filter((j) => !Array.isArray(j)) as Record<string, unknown>[];
    await conn.waitFor(() => events().some((e) => e.event_type === "last_trade_price"), "a last_trade_price", 60_000);
    const trade = events().find((e) => e.event_type === "last_trade_price")!;
    expect(shapeMismatches(fixture("ws_market_last_trade_price__nautilus.json"), trade)).toEqual([]);
    expect(assets).toContain(trade.asset_id);
    await conn.waitFor(() => events().some((e) => e.event_type === "price_change"), "a price_change", 60_000);
    const change = events().find((e) => e.event_type === "price_change")!;
    const recorded = fixture<Record<string, unknown> & { price_changes: Record<string, unknown>[] }>(
      "ws_market_price_change__nautilus_price_change_v2.json",
    );
    expect(shapeMismatches(recorded, change)).toEqual([]);
    expect(shapeMismatches(recorded.price_changes[0], (change.price_changes as Record<string, unknown>[])[0])).toEqual([]);
    conn.ws.close();
  }, 90_000);

  it("activity feed: every emitted trade, in the Data API's trade shape, matching the REST tape", async () => {
    const conn = await connect(sim().rtdsUrl, ACTIVITY);
    // RTDS answers a ping with an empty text frame (research note §6.2).
    conn.ws.send("ping");
    await conn.waitFor(() => conn.texts.includes(""), "the ping's empty answer");
    // Counted from here, the subscription being in place (its ping's answer came after it): every trade emitted from now on
    // reaches this subscriber. A trade emitted between the subscription and the reset is received but not listed.
    await control("/ws/counters", "DELETE");
    const beforeReset = conn.json.length;
    await conn.waitFor(() => conn.json.length >= beforeReset + 5, "five trades", 60_000);
    conn.ws.close();
    await conn.closed;
    const messages = conn.json as {
      topic: string;
      type: string;
      timestamp: number;
      payload: Record<string, unknown>;
      connection_id: string;
    }[];
    expect(messages[0]).toMatchObject({
      topic: "activity",
      type: "trades",
      timestamp: expect.any(Number),
      connection_id: expect.any(String),
    });
    const emitted = (await control("/ws/emitted")).trades as { payload: Record<string, unknown> }[];
    // Everything emitted since the reset reached the one subscriber, in emission order, after at most the few trades
    // emitted between its subscription and the reset.
    const received = messages.map((m) => m.payload);
    const firstEmitted = JSON.stringify(emitted[0]?.payload);
    const firstListed = received.findIndex((p) => JSON.stringify(p) === firstEmitted);
    expect(firstListed).toBeGreaterThanOrEqual(0);
    expect(firstListed).toBeLessThanOrEqual(beforeReset + 5);
    expect(received.slice(firstListed).length).toBeGreaterThanOrEqual(5);
    expect(received.slice(firstListed)).toEqual(emitted.map((e) => e.payload).slice(0, received.length - firstListed));
    const counters = (await control("/ws")).counters;
    expect(counters.trades_emitted).toBe(emitted.length);
    // The REST tape shows the same fills, field for field.
    const rest = (await (await fetch(`${sim().dataUrl}/trades?limit=1000`)).json()) as Record<string, unknown>[];
    const restByKey = new Map(rest.map((t) => [`${t.transactionHash}|${t.asset}|${t.size}|${t.price}|${t.side}`, t]));
    for (const m of messages) {
      const p = m.payload;
      expect(restByKey.get(`${p.transactionHash}|${p.asset}|${p.size}|${p.price}|${p.side}`)).toEqual(p);
    }
  }, 90_000);

  it("faults: a silent stall keeps the socket open and answering pings; drops are counted; disconnect closes", async () => {
    const conn = await connect(sim().rtdsUrl, ACTIVITY);
    await control("/ws/faults", "POST", { stall: true });
    const before = conn.json.length;
    const stalledBefore = (await control("/ws")).counters.messages_stalled;
    await pollUntil(
      async () => (await control("/ws")).counters.messages_stalled,
      (stalled) => stalled !== stalledBefore,
      60_000,
      100,
      "a stalled message",
    );
    conn.ws.send("PING");
    await conn.waitFor(() => conn.texts.includes(""), "the ping's answer while stalled");
    expect(conn.ws.readyState).toBe(WebSocket.OPEN);
    expect(conn.json.length).toBe(before);
    await control("/ws/faults", "POST", { stall: false, drop_next: 2 });
    await pollUntil(
      async () => (await control("/ws")).counters.messages_dropped,
      (dropped) => dropped >= 2,
      60_000,
      100,
      "two dropped messages",
    );
    expect((await control("/ws")).counters.messages_dropped).toBe(2);
    await control("/ws/faults", "POST", { disconnect: true });
    await conn.closed;
    await control("/ws/faults", "DELETE");
  }, 150_000);
});
