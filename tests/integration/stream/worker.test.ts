// The ingest worker end to end (inside the server, as on the embedded database): the simulator's websockets in, the
// stream out. Every trade the simulator emits must reach a stream client exactly once — through the socket, or,
// when the socket drops it or stalls, through the REST tape.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TradeV1Schema } from "@/lib/upstream/schemas";
import { pollUntil } from "../../helpers/poll";
import { openSse, type SseClient, type SseMessage } from "../../helpers/sse";
import { type Stack, startStack } from "../../helpers/stack";

describe("ingest worker (websockets → database → stream)", () => {
  let stack: Stack;
  let stream: SseClient;
  const sim = (path: string, method = "GET", body?: unknown) =>
    fetch(`${stack.sim.url}/__sim${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) }).then((r) => r.json());

  /** The simulator's websocket counters since their last reset. */
  const counters = async () => (await sim("/ws")).counters as Record<string, number>;

  /** Emitted trades (as fill ids) since the last counter reset. */
  const emittedIds = async (): Promise<string[]> =>
    ((await sim("/ws/emitted")).trades as { payload: unknown }[]).map((e) => TradeV1Schema.parse(e.payload).id);

  const streamedIds = () => stream.messages.filter((m) => m.event === "trade").map((m) => m.data.id as string);

  /** Waits until every emitted trade has been streamed; then checks nothing came twice. */
  const expectComplete = async (ids: string[], what: string) => {
    expect(ids.length, `${what}: trades emitted`).toBeGreaterThan(0);
    const want = new Set(ids);
    await stream.waitFor(() => streamedIds().filter((id) => want.has(id)).length >= want.size, 45_000, `${what}: every emitted trade`);
    const streamed = streamedIds();
    expect(new Set(streamed).size, `${what}: no duplicate`).toBe(streamed.length);
    expect(streamed.filter((id) => want.has(id)).length).toBe(want.size);
  };

  beforeAll(async () => {
    // Every open market subscribed (no 24 h volume floor): the few hundred busiest move their top only a few times a
    // minute between them, and the ticks test waited most of its minute for five.
    stack = await startStack({
      chains: false,
      env: { WORKER_IN_SERVER: "true", SAMPLER_INTERVAL_S: "3600", WORKER_WATCHDOG_S: "2", WORKER_MIN_VOLUME_24H_USD: "0" },
    });
    // The worker's first sampler pass lists the markets the market channel subscribes to.
    const asOf = async () =>
      (await (await fetch(`${stack.app.url}/api/predmkt/trades?limit=1`, { headers: { authorization: `Bearer ${stack.key}` } })).json())
        .meta.as_of as string | null;
    await pollUntil(asOf, Boolean, 120_000, 500, "a sampler pass").catch((e: Error) => {
      throw new Error(`${e.message}\n${stack.app.logs()}`);
    });
    stream = await openSse(`${stack.app.url}/api/predmkt/stream?api_key=${stack.key}&topics=trades`);
    expect(stream.status).toBe(200);
    // Counted from here: trades emitted before the stream was open are not its to deliver.
    await sim("/ws/counters", "DELETE");
  }, 180_000);
  afterAll(async () => {
    stream?.close();
    await stack?.stop();
  });

  // The worker's sampler runs once (SAMPLER_INTERVAL_S=3600) before the stream opens: every tick after that comes
  // from the market channel's price_change frames.
  it("turns the market channel's price changes into ticks: each tick is a change the simulator emitted, within seconds", async () => {
    const ticks = await openSse(`${stack.app.url}/api/predmkt/stream?api_key=${stack.key}&topics=ticks`);
    try {
      expect(ticks.status).toBe(200);
      // Changes are recorded from here; a tick's timestamp is when the worker received its frame (same clock), so
      // ticks stamped half a second after the reset come from changes the record holds.
      await sim("/ws/counters", "DELETE");
      const recordedFrom = Date.now() + 500;
      const fresh = (m: SseMessage) => m.event === "tick" && Date.parse(m.data.timestamp as string) >= recordedFrom;
      const receivedAt = new Map<SseMessage, number>();
      const stamp = (messages: SseMessage[]) => {
        for (const m of messages) if (!receivedAt.has(m)) receivedAt.set(m, Date.now());
      };
      await ticks.waitFor((messages) => (stamp(messages), messages.filter(fresh).length >= 5), 60_000, "five ticks");
      const changes = (await sim("/ws/emitted")).price_changes as {
        asset_id: string;
        best_bid: string;
        best_ask: string;
        emitted_at_ms: number;
      }[];
      expect(changes.length, "price changes emitted").toBeGreaterThan(0);
      const latencies: number[] = [];
      // The ticks received while waiting (each stamped on arrival).
      for (const tick of [...receivedAt.keys()].filter(fresh)) {
        const at = receivedAt.get(tick)!;
        // Polymarket's displayed price: the midpoint while the spread is at most $0.10 (docs: prices-orderbook).
        const source = changes
          .filter((c) => c.asset_id === tick.data.token_id && c.emitted_at_ms <= at)
          .filter((c) => Number(c.best_ask) - Number(c.best_bid) <= 0.1 + 1e-9)
          .filter((c) => Math.abs((Number(c.best_bid) + Number(c.best_ask)) / 2 - (tick.data.price as number)) < 1e-6)
          .at(-1);
        expect(
          source,
          `tick ${JSON.stringify(tick.data)} received at ${at} matches an emitted price change (its token's: ${JSON.stringify(changes.filter((c) => c.asset_id === tick.data.token_id))}; from ${recordedFrom}, ${changes.length} in all)`,
        ).toBeDefined();
        latencies.push(at - source!.emitted_at_ms);
      }
      latencies.sort((a, b) => a - b);
      console.log(
        `price_change → tick latency over ${latencies.length} ticks: median ${latencies[latencies.length >> 1]} ms, max ${latencies.at(-1)} ms`,
      );
      // Batched every 250 ms; the bound leaves room for a loaded machine, far below any sampler interval.
      expect(latencies.at(-1)!).toBeLessThan(5000);
    } finally {
      ticks.close();
    }
  }, 120_000);

  it("streams every trade the simulator emits, once, in stream order, within seconds", async () => {
    await stream.waitFor(() => streamedIds().length >= 10, 60_000, "ten trades");
    const ids = await emittedIds();
    await expectComplete(ids, "steady state");
    const cursors = stream.messages.map((m) => parseInt(m.id!, 36));
    for (let i = 1; i < cursors.length; i++) expect(cursors[i]).toBeGreaterThan(cursors[i - 1]);
  }, 120_000);

  it("repairs dropped activity messages from the market channel's last trades and the REST tape", async () => {
    await sim("/ws/counters", "DELETE");
    await sim("/ws/faults", "POST", { drop_rate: 0.5, drop_channel: "rtds" });
    await pollUntil(counters, (c) => c.messages_dropped >= 5, 60_000, 200, "five activity messages dropped");
    await sim("/ws/faults", "DELETE");
    await expectComplete(await emittedIds(), "with dropped messages");
  }, 120_000);

  it("detects a silent socket (open, answering pings, no data) and fills the gap from REST", async () => {
    await sim("/ws/counters", "DELETE");
    await sim("/ws/faults", "POST", { stall: true });
    // One 60 s budget for both waits.
    const deadline = Date.now() + 60_000;
    // The watchdog (2 s) replaces the silent sockets: new connections show up while the stall lasts.
    await pollUntil(counters, (c) => c.connections >= 1, deadline - Date.now(), 200, "a new connection during the stall");
    // Stalled long enough that trades were emitted into the silence (the watchdog replaces sockets meanwhile).
    await pollUntil(counters, (c) => c.trades_emitted >= 5, deadline - Date.now(), 200, "five trades emitted into the stall");
    await sim("/ws/faults", "DELETE");
    await expectComplete(await emittedIds(), "after a silent stall");
  }, 150_000);

  it("reconnects after a disconnect and fills the outage from the REST tape", async () => {
    await sim("/ws/counters", "DELETE");
    // The sockets are back from the previous test's faults and carrying trades (the simulator emits only to listeners):
    // the disconnect then cuts a live feed, and the trades sent just before it are part of what must arrive once.
    await pollUntil(emittedIds, (ids) => ids.length > 0, 30_000, 100, "a trade emitted since the reset");
    const outageFrom = Math.floor(Date.now() / 1000);
    await sim("/ws/faults", "POST", { disconnect: true, refuse_ms: 4000 });
    // Trades in the outage for certain: the world's own flow can leave a few seconds without one.
    stack.sim.burst(20, { atSec: outageFrom + 1, spreadSec: 2 });
    // Reconnected once the refusal is over: count connections from the disconnect on.
    const before = (await counters()).connections;
    await pollUntil(counters, (c) => c.connections > before, 60_000, 200, "a reconnection after the refusal");
    const outageTo = Math.floor(Date.now() / 1000);
    expect((await counters()).disconnects).toBeGreaterThanOrEqual(1);
    // Nothing was emitted while nobody was connected: those trades exist only on the REST tape.
    const tape = (await (await fetch(`${stack.sim.dataUrl}/trades?limit=1000`)).json()) as unknown[];
    const missed = tape.map((t) => TradeV1Schema.parse(t)).filter((t) => t.timestamp_s > outageFrom && t.timestamp_s < outageTo);
    expect(missed.length).toBeGreaterThan(0);
    await expectComplete([...missed.map((t) => t.id), ...(await emittedIds())], "after a disconnect");
  }, 150_000);
});
