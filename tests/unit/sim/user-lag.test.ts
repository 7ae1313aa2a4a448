// How far behind the block the Data API's user form shows a fill (reality `restLag`; sim/polymarket/SOURCES.md, "Live
// feeds"): rebuilt every 4 s from the blocks at least 1 s old (research note §3.3), the market form 3–10 s. On a frozen
// clock: the rebuild before the first one to reach the fill's block does not show it, that one does, 1–4 s after the
// block — on `/v2/trades?user=` (a world wallet) and on `/trades?user=` and `/activity?user=` (a ledger wallet), while
// the market form of the same instant does not reach as far.
import { describe, expect, it } from "vitest";
import { REST_REBUILD_S, REST_USER_BEHIND_S, restVisibleUntil } from "@/sim/polymarket/data-api";
import { simWallets } from "@/sim/polymarket/wallets";
import { simulatorForTests } from "./helpers";

describe("simulated Data API user-form lag", () => {
  let nowMs = Date.now();
  const sim = simulatorForTests({ seed: 4, scale: "small", clock: () => nowMs, reality: { restLag: true } });
  const get = async (path: string) =>
    (await (await fetch(`${sim().dataUrl}${path}`)).json()) as Record<string, unknown>[] | { data: Record<string, unknown>[] };
  const rows = (body: Awaited<ReturnType<typeof get>>) => (Array.isArray(body) ? body : body.data);
  /** The first rebuild (a multiple of 4 s) that reads the block: at least 1 s after it. */
  const rebuildShowing = (block: number) => Math.ceil((block + REST_USER_BEHIND_S) / REST_REBUILD_S) * REST_REBUILD_S;

  it("shows a world wallet's fill on /v2/trades?user= at the first rebuild 1 s past its block, and not before", async () => {
    const since = Math.floor(Date.now() / 1000) - 3600;
    const fill = sim().flow.query({ markets: null, takerOnly: true, since, until: since + 600, need: 1 })[0];
    expect(fill, "a fill in the hour before").toBeDefined();
    const tx = sim().flow.txHash(fill);
    const user = sim().world.wallet(fill.wallet).address;
    const shows = async (atMs: number) => {
      nowMs = atMs;
      const list = rows(await get(`/v2/trades?user=${user}&limit=1000&_=${atMs}`));
      return list.some((t) => t.transaction_hash === tx || t.transactionHash === tx);
    };
    const at = rebuildShowing(fill.timestamp);
    expect(at - fill.timestamp, "the lag after the block").toBeGreaterThanOrEqual(1);
    expect(at - fill.timestamp, "the lag after the block").toBeLessThanOrEqual(4);
    expect(await shows(at * 1000 - 1)).toBe(false);
    expect(await shows(at * 1000)).toBe(true);
    // The market form of the same instant reads blocks at least 2 s older than the rebuild: short of the user form.
    const ctx = { world: sim().world, reality: sim().reality(), nowMs: at * 1000 };
    expect(restVisibleUntil(ctx as Parameters<typeof restVisibleUntil>[0])).toBeLessThan(at - REST_USER_BEHIND_S);
  });

  it("shows a ledger wallet's trade on /trades?user= and /activity?user= at the same rebuild, and not before", async () => {
    const ledger = simWallets(sim().world, sim().prices);
    const wallet = ledger.wallets.find((w) => w.events.some((e) => e.type === "TRADE" && !e.maker))!;
    const trade = [...wallet.events].reverse().find((e) => e.type === "TRADE" && !e.maker && e.at <= Date.now() / 1000)!;
    expect(trade, "a past taker trade of a ledger wallet").toBeDefined();
    const shows = async (path: string, atMs: number) => {
      nowMs = atMs;
      return rows(await get(`${path}?user=${wallet.address}&limit=500&_=${atMs}`)).some((t) => t.transactionHash === trade.tx);
    };
    for (const path of ["/trades", "/activity"]) {
      expect(await shows(path, rebuildShowing(trade.at) * 1000 - 1), `${path} before`).toBe(false);
      expect(await shows(path, rebuildShowing(trade.at) * 1000), `${path} at the rebuild`).toBe(true);
    }
  });
});
