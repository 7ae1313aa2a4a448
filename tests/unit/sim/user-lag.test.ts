// How far behind the block the Data API's user form shows a fill (reality `restLag`; sim/polymarket/SOURCES.md, "Live
// feeds"): `?user=` about 3 s (research note §3.1), the market form 3–10 s. On a frozen clock: a fill's block + 2 s
// does not show it yet, block + 3 s does — on `/v2/trades?user=` (a world wallet) and on `/trades?user=` and
// `/activity?user=` (a ledger wallet), while the market form of the same fill may still hide it.
import { describe, expect, it } from "vitest";
import { restVisibleUntil, REST_USER_LAG_S } from "@/sim/polymarket/data-api";
import { simWallets } from "@/sim/polymarket/wallets";
import { simulatorForTests } from "./helpers";

describe("simulated Data API user-form lag", () => {
  let nowMs = Date.now();
  const sim = simulatorForTests({ seed: 4, scale: "small", clock: () => nowMs, reality: { restLag: true } });
  const get = async (path: string) =>
    (await (await fetch(`${sim().dataUrl}${path}`)).json()) as Record<string, unknown>[] | { data: Record<string, unknown>[] };
  const rows = (body: Awaited<ReturnType<typeof get>>) => (Array.isArray(body) ? body : body.data);

  it("shows a world wallet's fill on /v2/trades?user= 3 s after its block, and not before", async () => {
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
    expect(await shows((fill.timestamp + REST_USER_LAG_S - 1) * 1000 + 999)).toBe(false);
    expect(await shows((fill.timestamp + REST_USER_LAG_S) * 1000)).toBe(true);
    // The market form of the same instant reads blocks at least 2 s older than a rebuild: never further than the user form.
    const ctx = { world: sim().world, reality: sim().reality(), nowMs: (fill.timestamp + REST_USER_LAG_S) * 1000 };
    expect(restVisibleUntil(ctx as Parameters<typeof restVisibleUntil>[0])).toBeLessThanOrEqual(fill.timestamp + REST_USER_LAG_S - 2);
  });

  it("shows a ledger wallet's trade on /trades?user= and /activity?user= 3 s after its block, and not before", async () => {
    const ledger = simWallets(sim().world, sim().prices);
    const wallet = ledger.wallets.find((w) => w.events.some((e) => e.type === "TRADE" && !e.maker))!;
    const trade = [...wallet.events].reverse().find((e) => e.type === "TRADE" && !e.maker && e.at <= Date.now() / 1000)!;
    expect(trade, "a past taker trade of a ledger wallet").toBeDefined();
    const shows = async (path: string, atMs: number) => {
      nowMs = atMs;
      return rows(await get(`${path}?user=${wallet.address}&limit=500&_=${atMs}`)).some((t) => t.transactionHash === trade.tx);
    };
    for (const path of ["/trades", "/activity"]) {
      expect(await shows(path, (trade.at + REST_USER_LAG_S - 1) * 1000 + 999), `${path} before`).toBe(false);
      expect(await shows(path, (trade.at + REST_USER_LAG_S) * 1000), `${path} at the lag`).toBe(true);
    }
  });
});
