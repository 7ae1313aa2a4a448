// A pass counts the upstream requests it sends, by host and endpoint (ids folded), and writes them with its run row
// (sampler_runs.upstream_requests) and its result (the cron route's body). Checked against the simulator's own
// per-path request counter, so a request the pass sent but did not count (or counted but never sent) fails the test.
import { describe, expect, it } from "vitest";
import { samplerOverSimulator } from "./harness";

const m = samplerOverSimulator({ seed: 11, scale: "small" }, async () => ({
  sampler: await import("@/lib/sampler"),
  upstream: await import("@/lib/upstream"),
}));

const config = { eventsPageSize: 100, whaleMarketsPerPass: 20 };

/** The simulator's counter ("/data/v2/trades" → n), folded to the pass's keys ("data /v2/trades" → n). */
function simRequestsByEndpoint(): Record<string, number> {
  const folded: Record<string, number> = {};
  for (const [path, n] of Object.entries(m.sim.counters())) {
    const match = /^\/(gamma|data|clob)(\/.*)$/.exec(path);
    if (!match) throw new Error(`unexpected simulator counter ${path}`);
    const key = m.upstream.endpointKey(match[1] as "gamma" | "data" | "clob", match[2]);
    folded[key] = (folded[key] ?? 0) + n;
  }
  return folded;
}

describe("upstream requests per pass", { shuffle: false }, () => {
  it("records exactly the requests the simulator received from the pass, by endpoint, on the run row", async () => {
    m.sim.resetCounters();
    const result = await m.sampler.runSamplerPass({ now: m.clock, config });
    expect(result.status).toBe("ok");
    const received = simRequestsByEndpoint();
    expect(result.upstream_requests).toEqual(received);
    // The first pass lists events, reads the tape and refreshes whales: each shows up under its own endpoint.
    expect(result.upstream_requests["gamma /events/keyset"]).toBeGreaterThanOrEqual(1);
    expect(Object.keys(result.upstream_requests).some((k) => k.startsWith("data /v2/trades"))).toBe(true);
    expect(Object.keys(result.upstream_requests).some((k) => k.startsWith("data /v2/holders") || k.startsWith("data /holders"))).toBe(true);
    // Ids never reach the keys.
    for (const key of Object.keys(result.upstream_requests)) expect(key).not.toMatch(/\/(\d+|0x[0-9a-f]+)(\/|$)|\?/i);
    const run = await m.db.samplerRun.findUniqueOrThrow({ where: { id: result.run_id! } });
    expect(run.upstreamRequests).toEqual(received);
  });

  it("counts retries, and leaves out requests the same process sends outside the pass", async () => {
    m.sim.resetCounters();
    // One Cloudflare 520 on the tape: the client retries, and the retry is a request the pass sent.
    m.sim.setFault({ target: "data", path: "/v2/trades", mode: "cloudflare", status: 520, count: 1 });
    const market = await m.db.market.findFirstOrThrow({ where: { open: true }, select: { conditionId: true } });
    const [result, outside] = await Promise.all([
      m.sampler.runSamplerPass({ now: m.clock, config }),
      m.upstream.gamma.getMarket(market.conditionId),
    ]);
    m.sim.clearFaults();
    expect(result.status).toBe("ok");
    expect(outside).not.toBeNull();
    const received = simRequestsByEndpoint();
    const outsideKeys = Object.keys(received).filter((k) => k.startsWith("gamma /markets"));
    expect(outsideKeys.length).toBeGreaterThan(0);
    // Everything the simulator received, less the concurrent lookup, is the pass's count; the 520 and its retry included.
    const expected = Object.fromEntries(Object.entries(received).filter(([k]) => !outsideKeys.includes(k)));
    expect(result.upstream_requests).toEqual(expected);
    expect(result.upstream_requests["data /v2/trades"]).toBeGreaterThanOrEqual(2);
    const run = await m.db.samplerRun.findUniqueOrThrow({ where: { id: result.run_id! } });
    expect(run.upstreamRequests).toEqual(expected);
  });
});
