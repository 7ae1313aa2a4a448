// Fault injection, counters and the control endpoints, over HTTP and through the programmatic API.
import { afterEach, describe, expect, it } from "vitest";
import { startSimulator } from "@/sim/polymarket";
import { getJson, type Row, simulatorForTests } from "./helpers";

const sim = simulatorForTests({ seed: 4 });
afterEach(async () => {
  await fetch(`${sim().url}/__sim/faults`, { method: "DELETE" });
});

function openToken(): string {
  return sim().summary().samples.busiest_markets[0].token_ids[0];
}

async function setFault(fault: Record<string, unknown>): Promise<Response> {
  return fetch(`${sim().url}/__sim/faults`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(fault),
  });
}

describe("faults", () => {
  it("error: answers the given status for the next `count` matching requests, then recovers", async () => {
    expect((await setFault({ target: "data", path: "/trades", mode: "error", status: 503, count: 2 })).status).toBe(200);
    expect((await fetch(`${sim().dataUrl}/trades?limit=1`)).status).toBe(503);
    expect((await fetch(`${sim().dataUrl}/holders?market=${sim().world.markets[0].conditionId}`)).status).toBe(200); // other path untouched
    expect((await fetch(`${sim().dataUrl}/trades?limit=1`)).status).toBe(503);
    expect((await fetch(`${sim().dataUrl}/trades?limit=1`)).status).toBe(200);
  });

  it("error defaults to 500 and applies to every path of the target without `path`", async () => {
    await setFault({ target: "gamma", mode: "error" });
    expect((await fetch(`${sim().gammaUrl}/events?limit=1`)).status).toBe(500);
    expect((await fetch(`${sim().gammaUrl}/markets/keyset?limit=1`)).status).toBe(500);
    expect((await fetch(`${sim().clobUrl}/prices-history?market=${openToken()}&interval=1d`)).status).toBe(200);
  });

  it("rate_limit: 429 with Retry-After", async () => {
    await setFault({ target: "*", mode: "rate_limit", retry_after_s: 7 });
    for (const url of [`${sim().gammaUrl}/events`, `${sim().dataUrl}/trades`, `${sim().clobUrl}/prices-history?market=1&interval=1d`]) {
      const res = await fetch(url);
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toBe("7");
      await res.text();
    }
  });

  it("latency: delays the normal answer", async () => {
    await setFault({ target: "clob", path: "/prices-history", mode: "latency", latency_ms: 300 });
    const started = Date.now();
    const res = await fetch(`${sim().clobUrl}/prices-history?market=${openToken()}&interval=1d`);
    expect(res.status).toBe(200);
    expect((await res.json()).history.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
  });

  it("malformed: 200 with a body that is not JSON", async () => {
    await setFault({ target: "gamma", path: "/events", mode: "malformed" });
    const res = await fetch(`${sim().gammaUrl}/events/keyset`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(() => JSON.parse(text)).toThrow();
  });

  it("truncated: the body ends before its announced length", async () => {
    await setFault({ target: "gamma", path: "/events", mode: "truncated" });
    const res = await fetch(`${sim().gammaUrl}/events?limit=5`);
    expect(res.status).toBe(200);
    const announced = Number(res.headers.get("content-length"));
    let failed = false;
    try {
      const text = await res.text();
      failed = Buffer.byteLength(text) < announced;
      JSON.parse(text);
    } catch {
      failed = true;
    }
    expect(failed).toBe(true);
  });

  it("hang: never answers until the client gives up", async () => {
    await setFault({ target: "data", path: "/holders", mode: "hang" });
    await expect(fetch(`${sim().dataUrl}/holders?market=x`, { signal: AbortSignal.timeout(300) })).rejects.toThrow();
  });

  it("close() terminates promptly even with a request hanging", async () => {
    const local = await startSimulator({ seed: 4 });
    local.setFault({ target: "*", mode: "hang" });
    const hung = fetch(`${local.gammaUrl}/events`).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await Promise.race([local.close(), new Promise((_, reject) => setTimeout(() => reject(new Error("close() did not finish")), 3000))]);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await hung).toBeInstanceOf(Error);
  });

  it("mode none and DELETE clear faults; programmatic setFault/clearFaults work too", async () => {
    await setFault({ target: "data", path: "/trades", mode: "error" });
    await setFault({ target: "data", path: "/trades", mode: "none" });
    expect((await fetch(`${sim().dataUrl}/trades?limit=1`)).status).toBe(200);
    sim().setFault({ target: "clob", mode: "error", status: 502 });
    expect((await fetch(`${sim().clobUrl}/prices-history?market=1&interval=1d`)).status).toBe(502);
    sim().clearFaults();
    expect((await fetch(`${sim().clobUrl}/prices-history?market=1&interval=1d`)).status).toBe(200);
  });

  it("rejects an invalid fault with 400", async () => {
    expect((await setFault({ target: "nowhere", mode: "error" })).status).toBe(400);
    expect((await setFault({ target: "data", mode: "explode" })).status).toBe(400);
    expect(() => sim().setFault({ target: "data", mode: "latency", latency_ms: -1 })).toThrow();
  });
});

describe("counters and world summary", () => {
  it("counts requests per API path (without query) and resets", async () => {
    await fetch(`${sim().url}/__sim/counters/reset`, { method: "POST" });
    await fetch(`${sim().dataUrl}/trades?limit=1`);
    await fetch(`${sim().dataUrl}/trades?limit=2`);
    await fetch(`${sim().gammaUrl}/events/keyset?limit=1`);
    await setFault({ target: "clob", mode: "error", count: 1 });
    await fetch(`${sim().clobUrl}/prices-history?market=1&interval=1d`);
    const { body } = await getJson<Record<string, number>>(`${sim().url}/__sim/counters`);
    expect(body).toEqual({ "/data/trades": 2, "/gamma/events/keyset": 1, "/clob/prices-history": 1 });
    expect(sim().counters()).toEqual(body);
    sim().resetCounters();
    expect((await getJson<Record<string, number>>(`${sim().url}/__sim/counters`)).body).toEqual({});
  });

  it("GET /__sim/world lists sample ids that resolve on the APIs", async () => {
    const { body } = await getJson<Row>(`${sim().url}/__sim/world`);
    const samples = body.samples as Record<string, string[]>;
    const counts = body.counts as Record<string, number>;
    expect(counts.open_events).toBeGreaterThanOrEqual(300);
    expect(counts.markets).toBeGreaterThanOrEqual(1500);
    expect((body.categories as Row[]).length).toBeGreaterThanOrEqual(8);
    const multi = await getJson<Row>(`${sim().gammaUrl}/events/slug/${samples.multi_market_event_slugs[0]}`);
    expect((multi.body.markets as Row[]).length).toBeGreaterThan(1);
    const binary = await getJson<Row>(`${sim().gammaUrl}/events/slug/${samples.binary_event_slugs[0]}`);
    expect((binary.body.markets as Row[]).length).toBe(1);
    expect((await fetch(`${sim().gammaUrl}/markets/${samples.market_ids[0]}`)).status).toBe(200);
    expect((await getJson<Row>(`${sim().clobUrl}/prices-history?market=${samples.token_ids[0]}&interval=1d`)).body.history).not.toEqual([]);
    expect((await getJson<Row[]>(`${sim().dataUrl}/holders?market=${samples.condition_ids[0]}`)).body.length).toBeGreaterThan(0);
  });
});
