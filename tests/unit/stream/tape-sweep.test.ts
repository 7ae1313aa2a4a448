// An activity row dropped in a market the worker's market channel does not subscribe: no `last_trade_price` comes to
// reveal it, so only the worker's tape sweep can store it before the next sampler pass (an hour here). The market
// channel subscribes nothing (a 24 h volume floor no market reaches), RTDS drops every message of a burst (the
// simulator's `drop_rate`, real-time-data-client#42), briefly enough that the watchdog (30 s) sees no silence.
// Real clock, in-memory database (docs/stream.md).
import { describe, expect, it } from "vitest";
import { pollUntil } from "../../helpers/poll";
import { workerOverSimulator } from "../../helpers/worker-over-simulator";

const N = 5;

const w = workerOverSimulator({
  sim: { seed: 5, scale: "small" },
  env: { WORKER_MIN_VOLUME_24H_USD: "1000000000", WORKER_WATCHDOG_S: "30" },
});

describe("ingest worker when the activity feed drops a fill the market channel cannot reveal", () => {
  it("stores the dropped fills from its tape sweep, within the sweep interval plus the Data API's lag", async () => {
    expect(w.worker!.stats().subscriptions.tokens, "no market subscribed on the market channel").toBe(0);
    const before = w.worker!.stats();
    await w.simControl("/ws/counters", "DELETE");
    await w.simControl("/ws/faults", "POST", { drop_rate: 1, drop_channel: "rtds" });
    const at = Math.floor(Date.now() / 1000) + 1;
    w.sim.burst(N, { atSec: at, spreadSec: 1 });
    const txs = w.sim.flow
      .query({ markets: null, takerOnly: true, since: at, until: at, need: 1_000_000 })
      .filter((t) => t.kind === 2)
      .map((t) => w.sim.flow.txHash(t));
    expect(txs.length).toBe(N);
    // Every fill of the burst emitted, into the drop.
    const emittedTxs = async () =>
      ((await w.simControl("/ws/emitted")).trades as { payload: { transactionHash: string } }[]).map((e) => e.payload.transactionHash);
    await pollUntil(emittedTxs, (emitted) => txs.every((tx) => emitted.includes(tx)), 15_000, 100, "the burst emitted");
    const counters = (await w.simControl("/ws")).counters as Record<string, number>;
    await w.simControl("/ws/faults", "DELETE");
    expect(counters.messages_dropped, "the burst's activity rows dropped").toBeGreaterThanOrEqual(N);
    const stored = async () =>
      (
        await w.db.$queryRawUnsafe<{ n: number }[]>(
          `SELECT count(DISTINCT tx_hash)::int AS n FROM trades WHERE tx_hash = ANY($1::text[])`,
          txs,
        )
      )[0].n;
    // A sweep every 10 s reaching 11 s back, the fills on the tape at most 10 s after their block: well within 35 s.
    // The sweep stores page by page and counts when its walk ends, so the rows can show a moment before the count.
    await pollUntil(
      async () => ({ stored: await stored(), swept: w.worker!.stats().tape_sweep_trades - before.tape_sweep_trades }),
      ({ stored, swept }) => stored >= N && swept >= N,
      35_000,
      250,
      "every dropped fill stored, counted by the tape sweep",
    );
    const after = w.worker!.stats();
    // Neither an outage's gap fill nor a missed-fill repair stored them: the feed stayed up and no last trade came.
    expect(after.gap_fills).toBe(before.gap_fills);
    expect(after.missed_detected).toBe(before.missed_detected);
  }, 90_000);
});
