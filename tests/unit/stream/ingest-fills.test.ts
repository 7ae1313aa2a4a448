// The ingest worker against the simulator with the live feeds as Polymarket really sends them (reality switches:
// RTDS `trades` with maker rows and `orders_matched` taker rows, RTDS stamps a second before the block, EIP-55
// wallets, REST 5–9 s behind the block, the Data API's per-URL CDN cache): one tape row per real fill, the taker's,
// across the live feed and the REST catch-up after a restart; drift (a renamed RTDS field) turns health unhealthy;
// `-live` activity shows a fill despite the CDN cache. Real clock, in-memory database (docs/stream.md).
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { Trade } from "@/sim/polymarket/flow";
import { pollUntil } from "../../helpers/poll";
import { workerOverSimulator } from "../../helpers/worker-over-simulator";

const N = 30;
const REALITY = { rtdsMakerRows: true, rtdsEarlyShare: 0.77, checksumWallets: true, restLag: true, cdnCache: true };

// The small world: what is tested is one burst's fills in the busiest markets, not how many markets there are.
const w = workerOverSimulator({
  sim: { seed: 5, scale: "small", reality: REALITY },
  env: { WORKER_MIN_VOLUME_24H_USD: "0", WORKER_CONNECT_INTERVAL_MS: "20" },
  // The worker first lists the markets to subscribe 2 s after its start, maybe while its first pass is still writing
  // them, and then once a minute: list them again now that the pass is in, and wait until every open market's tokens
  // are subscribed and their first books read, so that no fill lands in a market not yet subscribed and no late book
  // dump passes for the books that follow the fills.
  ready: async (worker, db) => {
    await worker.subscriptions.refresh();
    const tokens = (
      await db.$queryRawUnsafe<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM outcomes o JOIN markets m ON m.id = o.market_id WHERE m.open`,
      )
    )[0].n;
    await pollUntil(
      async () => worker.stats(),
      (st) => st.subscriptions.tokens >= tokens && st.book_frames >= tokens,
      30_000,
      100,
      "every open market subscribed, with its first books",
    );
  },
});

/** Old keying (before this change): the fill id hashed the second, so RTDS's early stamp made a second row. */
function oldKey(p: {
  transactionHash: string;
  asset: string;
  proxyWallet: string;
  side: string;
  size: number;
  price: number;
  timestamp: number;
}) {
  return [p.transactionHash, p.asset, p.proxyWallet.toLowerCase(), p.side, p.size, p.price, p.timestamp].join("|");
}

describe("ingest worker against the live feeds as they really are", { shuffle: false }, () => {
  let burst: Trade[] = [];
  let txs: string[] = [];

  it("stores one row per real fill, the taker's, in lower case, across the live feed and a restart's REST catch-up", async () => {
    // A listener of our own on RTDS `trades` and `orders_matched`: what the old worker subscribed (both types).
    const rtds = new WebSocket(w.sim.rtdsUrl);
    const heard: { type: string; payload: Parameters<typeof oldKey>[0] }[] = [];
    rtds.on("message", (raw) => {
      const text = raw.toString();
      if (text.startsWith("{")) {
        const m = JSON.parse(text) as { type: string; payload: Parameters<typeof oldKey>[0] };
        heard.push({ type: m.type, payload: m.payload });
      }
    });
    await new Promise((r) => rtds.once("open", r));
    rtds.send(
      JSON.stringify({
        action: "subscribe",
        subscriptions: [
          { topic: "activity", type: "trades" },
          { topic: "activity", type: "orders_matched" },
        ],
      }),
    );

    const booksBefore = w.worker!.stats().book_frames;
    // The fills start in the next second (our listener is subscribed already) and span two.
    const at = Math.floor(Date.now() / 1000) + 1;
    w.sim.burst(N, { atSec: at, spreadSec: 2 });
    burst = w.sim.flow.query({ markets: null, takerOnly: true, since: at, until: at + 2, need: 1_000_000 }).filter((t) => t.kind === 2);
    expect(burst.length).toBe(N);
    txs = burst.map((t) => w.sim.flow.txHash(t));
    const count = async () =>
      (await w.db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM trades WHERE tx_hash = ANY($1::text[])`, txs))[0].n;

    // Live: every fill heard on `orders_matched` and stored.
    await pollUntil(count, (n) => n >= N, 30_000);
    rtds.close();
    // Each fill's last_trade_price found its activity row by transaction hash, and was followed by its token's book
    // (docs: market-channel), which the worker read as the top of book.
    const live = await pollUntil(
      async () => w.worker!.stats(),
      (st) => st.book_frames - booksBefore >= N && st.matched_by_tx >= N,
      10_000,
    );
    expect(live.missed_unrepaired).toBe(0);
    const burstRows = heard.filter((h) => txs.includes(h.payload.transactionHash));
    const makerRows = burstRows.filter((h) => h.type === "trades").length - N;
    expect(makerRows, "the feed carried maker rows").toBeGreaterThan(0);
    expect(
      burstRows.some((h) => h.payload.proxyWallet !== h.payload.proxyWallet.toLowerCase()),
      "EIP-55 wallets on the feed",
    ).toBe(true);

    // Restart: the REST tape (5–9 s behind, behind a CDN) is read back by the new worker's first pass.
    await w.worker!.stop();
    w.worker = null;
    const restShows = async () => {
      const res = await fetch(`${w.sim.dataUrl}/v2/trades?limit=1000&_=${Date.now()}`);
      const body = (await res.json()) as { data: { transaction_hash: string; proxy_wallet: string; timestamp: number }[] };
      return body.data.filter((r) => txs.includes(r.transaction_hash));
    };
    const rest = await pollUntil(restShows, (rows) => rows.length >= N, 30_000, 500);
    await w.startWorker();

    const rows = await w.db.$queryRawUnsafe<{ tx_hash: string; wallet: string; side: string; shares: number }[]>(
      `SELECT tx_hash, wallet, side, shares FROM trades WHERE tx_hash = ANY($1::text[])`,
      txs,
    );
    expect(rows.length, "rows for the burst after the REST catch-up").toBe(N);
    for (const t of burst) {
      const row = rows.find((r) => r.tx_hash === w.sim.flow.txHash(t))!;
      expect(row.wallet).toBe(w.sim.world.wallet(t.wallet).address.toLowerCase());
      expect(row.side).toBe(t.side);
      expect(row.shares).toBe(t.size);
    }

    // The same burst keyed the old way (both RTDS types, the second in the id), with the REST rows the sampler adds.
    const oldIds = new Set([
      ...burstRows.map((h) => oldKey(h.payload)),
      ...rest.map((r) => {
        const t = burst.find((b) => w.sim.flow.txHash(b) === r.transaction_hash)!;
        return oldKey({
          transactionHash: r.transaction_hash,
          asset: w.sim.world.markets[t.market].tokenIds[t.outcome],
          proxyWallet: r.proxy_wallet,
          side: t.side,
          size: t.size,
          price: t.price,
          timestamp: r.timestamp,
        });
      }),
    ]);
    console.log(
      `rows per real fill on a ${N}-fill burst: before ${(oldIds.size / N).toFixed(2)} (${oldIds.size} rows: ${makerRows} maker rows, ` +
        `RTDS second ≠ block second), after ${(rows.length / N).toFixed(2)} (${rows.length} rows)`,
    );
  }, 180_000);

  it("-live market activity shows a fill as soon as the REST tape has it, despite the CDN's per-URL cache", async () => {
    const { getMarketActivityLive } = await import("@/lib/predmkt/live");
    const busiest = w.sim.summary().samples.busiest_markets[0];
    const market = w.sim.world.markets.find((m) => m.id === busiest.id)!;
    // The naive URL is stuck in the CDN: the page it cached now is what it answers for the next 300 s.
    const naive = `${w.sim.dataUrl}/trades?market=${market.conditionId}&limit=500&takerOnly=true`;
    await fetch(naive);
    // Then a fill reaches the REST tape: its block 15 s ago, past the 5–9 s lag (a fill that just became visible).
    const at = Math.floor(Date.now() / 1000) - 15;
    w.sim.burst(1, { atSec: at, spreadSec: 1, market: market.index });
    const fill = w.sim.flow
      .query({ markets: [market.index], takerOnly: true, since: at, until: at, need: 1_000_000 })
      .find((x) => x.kind === 2)!;
    const tx = w.sim.flow.txHash(fill);
    const fresh = (await (await fetch(`${naive}&_=${Date.now()}`)).json()) as { transactionHash: string }[];
    expect(fresh.map((r) => r.transactionHash)).toContain(tx);
    const stuck = await fetch(naive);
    expect(stuck.headers.get("x-cache")).toMatch(/^Hit/);
    expect(((await stuck.json()) as { transactionHash: string }[]).map((r) => r.transactionHash)).not.toContain(tx);
    // -live reads past the CDN: its first read of the market shows the fill.
    const body = await getMarketActivityLive(market.id, { holders_limit: 5, trades_limit: 500 });
    expect(body.meta.cache).toBe("miss");
    expect(body.data.trades.map((x) => x.tx_hash)).toContain(tx);
    expect(Date.parse(body.meta.as_of)).toBeLessThanOrEqual(Date.now());
  }, 60_000);

  it("turns a renamed RTDS field into counted failures and an unhealthy feed in /api/health", async () => {
    const { healthReport } = await import("@/lib/server/health");
    // Built fresh on every call (no 5 s report cache): the poll below sees the failures as they are counted.
    const report = () => healthReport(Date.now(), 0);
    expect((await report()).upstream.live_feeds?.healthy ?? true).toBe(true);
    await w.simControl("/ws/faults", "POST", { rename_rtds_field: { from: "proxyWallet", to: "proxy_wallet_v2" } });
    try {
      w.sim.burst(40, { atSec: Math.floor(Date.now() / 1000) + 1, spreadSec: 3 });
      const unhealthy = await pollUntil(report, (h) => h.upstream.live_feeds?.healthy === false, 30_000, 200);
      expect(unhealthy.status).toBe("degraded");
      const rtds = unhealthy.upstream.live_feeds!.feeds.find((f) => f.feed === "rtds")!;
      expect(rtds.healthy).toBe(false);
      const matched = rtds.by_type.find((t) => t.type === "orders_matched")!;
      expect(matched.failed).toBeGreaterThanOrEqual(10);
      expect(matched.last_failure).toMatch(/proxyWallet/);
    } finally {
      await w.simControl("/ws/faults", "DELETE");
    }
  }, 60_000);
});
