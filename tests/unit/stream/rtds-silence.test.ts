// RTDS going silent on an open socket (the simulator's `rtds_silent_after_s` fault: the research note's ≈ 6-minute
// silence, real-time-data-client#35's silence with pings working; sim/polymarket/SOURCES.md, "Live feeds"), shortened
// to seconds: the worker's watchdog must see the silence, count it, reconnect, and read what it missed from REST.
// Real clock, in-memory database (docs/stream.md).
import { describe, expect, it } from "vitest";
import { pollUntil } from "../../helpers/poll";
import { workerOverSimulator } from "../../helpers/worker-over-simulator";

/** The worker's watchdog (WORKER_WATCHDOG_S) and how long after it opens each RTDS connection falls silent. */
const WATCHDOG_S = 2;
const SILENT_AFTER_S = 3;

const w = workerOverSimulator({
  sim: { seed: 5, scale: "small" },
  env: { WORKER_WATCHDOG_S: String(WATCHDOG_S), WORKER_CONNECT_INTERVAL_MS: "20" },
});
const rtdsStats = () => w.worker!.stats().sockets.find((s) => s.name === "activity feed")!;

describe("ingest worker when RTDS falls silent on an open socket", () => {
  it("detects each silence with its watchdog, counts it, reconnects, and fills the silence from the REST tape", async () => {
    // A steady tape, so that a healthy feed is never silent for the watchdog's 2 s: a fill every 0.2 s for 40 s.
    const at = Math.floor(Date.now() / 1000) + 1;
    w.sim.burst(200, { atSec: at, spreadSec: 40 });
    await pollUntil(
      () => rtdsStats().messages,
      (n) => n >= 5,
      15_000,
      100,
      "RTDS messages before the fault",
    );
    const before = { ...rtdsStats() };
    const gapFillsBefore = w.worker!.stats().gap_fills;
    await w.simControl("/ws/counters", "DELETE");
    await w.simControl("/ws/faults", "POST", { rtds_silent_after_s: SILENT_AFTER_S });
    // Every new connection falls silent again after 3 s: the watchdog must catch it each time.
    const after = await pollUntil(
      () => ({ ...rtdsStats() }),
      (s) => s.stalls - before.stalls >= 2 && s.reconnects - before.reconnects >= 2,
      30_000,
      200,
      "two silences caught and two reconnects",
    );
    const counters = (await w.simControl("/ws")).counters as Record<string, number>;
    await w.simControl("/ws/faults", "DELETE");
    expect(counters.messages_silenced, "the simulator withheld RTDS messages").toBeGreaterThan(0);
    expect(after.stalls - before.stalls).toBeGreaterThanOrEqual(2);
    // Each recovery reads the silence back from the REST tape.
    await pollUntil(
      () => w.worker!.stats().gap_fills,
      (n) => n - gapFillsBefore >= 2,
      30_000,
      200,
      "a gap fill per recovered silence",
    );
    // And every fill of the burst emitted before now is stored, the silenced ones included.
    const txs = w.sim.flow
      .query({ markets: null, takerOnly: true, since: at, until: Math.floor(Date.now() / 1000) - 1, need: 1_000_000 })
      .filter((t) => t.kind === 2)
      .map((t) => w.sim.flow.txHash(t));
    expect(txs.length).toBeGreaterThan(0);
    await pollUntil(
      async () =>
        (
          await w.db.$queryRawUnsafe<{ n: number }[]>(
            `SELECT count(DISTINCT tx_hash)::int AS n FROM trades WHERE tx_hash = ANY($1::text[])`,
            txs,
          )
        )[0].n,
      (n) => n >= new Set(txs).size,
      45_000,
      500,
      "every fill of the silence stored",
    );
  }, 120_000);
});
