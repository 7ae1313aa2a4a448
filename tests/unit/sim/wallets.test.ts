// The simulator's ledger wallets: every activity type, the Data API's per-user shapes, caps and errors
// (sim/polymarket/SOURCES.md "Wallets"), and Polymarket-side figures that follow from the same ledger.
import { describe, expect, it } from "vitest";
import { historyPriceAt } from "@/sim/polymarket/clob";
import { ACTIVITY_OFFSET_MAX, boardFigures, simWallets } from "@/sim/polymarket/wallets";
import { getJson, type Row, simulatorForTests } from "./helpers";

const sim = simulatorForTests({ seed: 1 });
const wallet = (kind: string) => simWallets(sim().world, sim().prices).wallets.find((w) => w.kind === kind)!;
const now = () => Math.floor(sim().context().nowMs / 1000);

describe("simulator ledger wallets", () => {
  it("have every activity type, and one wallet has more than 10,000 rows", () => {
    const all = simWallets(sim().world, sim().prices).wallets.flatMap((w) => w.events.map((e) => e.type));
    expect(new Set(all)).toEqual(new Set(["TRADE", "SPLIT", "MERGE", "REDEEM", "REWARD", "CONVERSION", "MAKER_REBATE"]));
    expect(wallet("heavy").events.length).toBeGreaterThan(10_000);
  });

  it("serve /activity newest first in the documented row shape, windowed by start/end", async () => {
    const w = wallet("redeemer");
    const { status, body } = await getJson<Row[]>(
      `${sim().dataUrl}/activity?user=${w.address.toUpperCase().replace("0X", "0x")}&limit=500`,
    );
    expect(status).toBe(200);
    expect(body.length).toBe(w.events.length);
    for (let i = 1; i < body.length; i++) expect(body[i - 1].timestamp as number).toBeGreaterThanOrEqual(body[i].timestamp as number);
    const keys = [
      "proxyWallet",
      "timestamp",
      "conditionId",
      "type",
      "size",
      "usdcSize",
      "transactionHash",
      "price",
      "asset",
      "side",
      "outcomeIndex",
      "title",
      "slug",
      "eventSlug",
      "outcome",
      "name",
      "pseudonym",
    ];
    for (const k of keys) expect(body[0]).toHaveProperty(k);
    const mid = body[Math.floor(body.length / 2)].timestamp as number;
    const older = await getJson<Row[]>(`${sim().dataUrl}/activity?user=${w.address}&end=${mid}&limit=500`);
    expect(older.body.every((r) => (r.timestamp as number) <= mid)).toBe(true);
    const redeems = await getJson<Row[]>(`${sim().dataUrl}/activity?user=${w.address}&type=REDEEM`);
    expect(redeems.body.length).toBeGreaterThan(0);
    expect(redeems.body.every((r) => r.type === "REDEEM")).toBe(true);
  });

  it("clamp limit to 500, refuse an offset past the cap and a bad user with 400 {error}", async () => {
    const w = wallet("heavy");
    const big = await getJson<Row[]>(`${sim().dataUrl}/activity?user=${w.address}&limit=5000`);
    expect(big.body).toHaveLength(500);
    const past = await getJson<{ error: string }>(`${sim().dataUrl}/activity?user=${w.address}&offset=${ACTIVITY_OFFSET_MAX + 1}`);
    expect(past.status).toBe(400);
    expect(past.body.error).toMatch(/offset/);
    expect((await getJson(`${sim().dataUrl}/activity?user=${w.address}&offset=${ACTIVITY_OFFSET_MAX}`)).status).toBe(200);
    expect((await getJson<{ error: string }>(`${sim().dataUrl}/activity`)).body.error).toMatch(/user/);
    expect((await getJson(`${sim().dataUrl}/activity?user=0x123`)).status).toBe(400);
    expect((await getJson(`${sim().dataUrl}/activity?user=${w.address}&type=BOGUS`)).status).toBe(400);
  });

  it("drop redeemed positions from /positions; /value is the open shares at the current price", async () => {
    const w = wallet("redeemer");
    const wallets = simWallets(sim().world, sim().prices);
    const { body } = await getJson<Row[]>(`${sim().dataUrl}/positions?user=${w.address}&sizeThreshold=0`);
    expect(body.length).toBe(2); // the two open positions; six resolved markets were redeemed
    const value = await getJson<{ user: string; value: number }[]>(`${sim().dataUrl}/value?user=${w.address}`);
    expect(value.body[0].value).toBeCloseTo(wallets.value(w, now()), 4);
    const naive = body.reduce((s, p) => s + (p.cashPnl as number) + (p.realizedPnl as number), 0);
    // The truth includes the redeemed winners the naive sum cannot see.
    expect(Math.abs(wallets.truthPnl(w, now()) - naive)).toBeGreaterThan(100);
  });

  it("keep resolved but unredeemed positions in /positions as redeemable at 1 or 0", async () => {
    const { body } = await getJson<Row[]>(`${sim().dataUrl}/positions?user=${wallet("unredeemed").address}`);
    const resolved = body.filter((p) => p.redeemable === true);
    expect(resolved.map((p) => p.curPrice).sort()).toEqual([0, 1]);
  });

  it("list maker fills in /trades only with takerOnly=false", async () => {
    const w = wallet("market_maker");
    const taker = await getJson<Row[]>(`${sim().dataUrl}/trades?user=${w.address}&limit=1000`);
    const all = await getJson<Row[]>(`${sim().dataUrl}/trades?user=${w.address}&limit=1000&takerOnly=false`);
    expect(all.body.length).toBe(w.events.filter((e) => e.type === "TRADE").length);
    expect(taker.body.length).toBeLessThan(all.body.length / 2);
  });

  it("rank a leaderboard over the ledger wallets, with the documented caps and a user lookup", async () => {
    const board = await getJson<Row[]>(`${sim().dataUrl}/v1/leaderboard?timePeriod=ALL&orderBy=PNL&limit=50`);
    expect(board.status).toBe(200);
    expect(board.body.length).toBeGreaterThan(3);
    for (let i = 1; i < board.body.length; i++) expect(board.body[i - 1].pnl as number).toBeGreaterThanOrEqual(board.body[i].pnl as number);
    expect(Object.keys(board.body[0]).sort()).toEqual([
      "pnl",
      "profileImage",
      "proxyWallet",
      "rank",
      "userName",
      "verifiedBadge",
      "vol",
      "xUsername",
    ]);
    expect((await getJson(`${sim().dataUrl}/v1/leaderboard?limit=51`)).status).toBe(400);
    expect((await getJson(`${sim().dataUrl}/v1/leaderboard?timePeriod=YEAR`)).status).toBe(400);
    const one = await getJson<Row[]>(`${sim().dataUrl}/v1/leaderboard?timePeriod=ALL&user=${wallet("heavy").address}`);
    expect(one.body).toHaveLength(1);
  });

  it("mark a finite window's start at the price history's point in force then, the one a client can read", async () => {
    const wallets = simWallets(sim().world, sim().prices);
    const n = now();
    const since = n - 7 * 86_400;
    const lastPoint = async (token: string, t: number) => {
      const url = `${sim().clobUrl}/prices-history?market=${token}&startTs=${t - 3600}&endTs=${t}&fidelity=1`;
      return (await getJson<{ history: { t: number; p: number }[] }>(url)).body.history.filter((p) => p.t <= t).at(-1)!.p;
    };
    // An open market, off the history's minute grid; a resolved one, half a minute after its resolution.
    const open = wallet("heavy").events.find((e) => e.type === "TRADE")!;
    const openMarket = sim().world.markets[open.market!];
    expect(historyPriceAt(sim().prices, openMarket, 0, since + 17)).toBe(await lastPoint(openMarket.tokenIds[0], since + 17));
    const won = sim().world.markets[wallet("unredeemed").events[0].market!];
    const after = won.closedSec + 30;
    expect(historyPriceAt(sim().prices, won, 0, after)).toBe(await lastPoint(won.tokenIds[0], after));
    expect([0, 1]).toContain(historyPriceAt(sim().prices, won, 0, after));
    // The 7-day board: cash flows inside the window + value now − the history-marked value at its start.
    for (const w of wallets.wallets) {
      let flows = 0;
      for (const e of w.events) {
        if (e.at <= since || e.at > n) continue;
        flows += (e.type === "TRADE" && e.side === "BUY") || e.type === "SPLIT" ? -e.usdc : e.usdc;
      }
      const expected = flows + wallets.value(w, n) - wallets.historyValue(w, since);
      expect(boardFigures(wallets, w, "WEEK", n).pnl, w.kind).toBeCloseTo(expected, 5);
    }
  });

  it("answer an address it does not know with empty lists and zeros", async () => {
    const nobody = "0x" + "ab".repeat(20);
    expect((await getJson<Row[]>(`${sim().dataUrl}/activity?user=${nobody}`)).body).toEqual([]);
    expect((await getJson(`${sim().dataUrl}/value?user=${nobody}`)).body).toEqual([{ user: nobody, value: 0 }]);
    expect((await getJson(`${sim().dataUrl}/traded?user=${nobody}`)).body).toEqual({ user: nobody, traded: 0 });
  });
});
