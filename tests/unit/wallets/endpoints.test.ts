// The wallet endpoints through their route handlers (withApi, the contracts, the response check) over the simulator:
// any-case addresses answered lower-case, a never-traded address answered with zeros, a bad address or cursor a 400
// naming the parameter, CSV on the lists, cursor paging of the activity, the leaderboard with our PnL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as walletGet } from "@/app/api/predmkt/wallets/[address]/route";
import { GET as positionsGet } from "@/app/api/predmkt/wallets/[address]/positions/route";
import { GET as activityGet } from "@/app/api/predmkt/wallets/[address]/activity/route";
import { GET as leaderboardGet } from "@/app/api/predmkt/leaderboard/route";
import { getDb } from "@/lib/db/client";
import { clearLocalCache } from "@/lib/upstream";
import { type Simulator, startSimulator } from "@/sim/polymarket";
import { ledgerWalletAddress, simWallets } from "@/sim/polymarket/wallets";
import { callHandler, callJson, type RouteHandler } from "../../helpers/handler";
import { pointUpstreamAt } from "../upstream/stub-server";

let sim: Simulator;
let restore: () => void;
const h = (f: unknown) => f as RouteHandler;

beforeAll(async () => {
  await getDb();
  sim = await startSimulator({ seed: 1 });
  restore = pointUpstreamAt(sim.url, { UPSTREAM_TIMEOUT_MS: 10_000, UPSTREAM_MAX_RETRIES: 1 });
  clearLocalCache();
}, 240_000);
afterAll(async () => {
  restore();
  await sim.close();
});

describe("wallet endpoints", { timeout: 240_000 }, () => {
  const redeemer = ledgerWalletAddress(0);

  it("answers a mixed-case address lower-case, with labels and Polymarket's figures beside ours", async () => {
    const mixed = "0x" + redeemer.slice(2).toUpperCase();
    const { status, body } = await callJson(h(walletGet), `/api/predmkt/wallets/${mixed}`, { address: mixed });
    expect(status).toBe(200);
    expect(body.data.address).toBe(redeemer);
    expect(body.meta.complete).toBe(true);
    expect(body.data.labels).toContain("redeemer");
    expect(body.data.polymarket.leaderboard_pnl_usd).not.toBeNull();
    expect(body.data.pnl_difference_usd).toBeCloseTo(body.data.pnl_usd - body.data.polymarket.leaderboard_pnl_usd, 1);
    const truth = simWallets(sim.world, sim.prices).truthPnl(simWallets(sim.world, sim.prices).wallets[0], Math.floor(Date.now() / 1000));
    expect(Math.abs(body.data.pnl_usd - truth)).toBeLessThanOrEqual(0.01);
  });

  it("answers an address that never traded with 200 and zeros", async () => {
    const nobody = "0x" + "cd".repeat(20);
    const { status, body } = await callJson(h(walletGet), `/api/predmkt/wallets/${nobody}`, { address: nobody });
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ trades: 0, pnl_usd: 0, value_usd: 0, win_rate: null, labels: [] });
    expect(body.meta.complete).toBe(true);
    expect(body.meta.rows_read).toBe(0);
  });

  it("refuses an invalid address or cursor with a 400 naming the parameter", async () => {
    const bad = await callJson(h(walletGet), "/api/predmkt/wallets/0x123", { address: "0x123" });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("address");
    const cursor = await callJson(h(activityGet), `/api/predmkt/wallets/${redeemer}/activity?cursor=nope`, { address: redeemer });
    expect(cursor.status).toBe(400);
    expect(JSON.stringify(cursor.body)).toContain("cursor");
  });

  it("lists redeemed positions as closed and serves CSV", async () => {
    const closed = await callJson(h(positionsGet), `/api/predmkt/wallets/${redeemer}/positions?status=closed`, { address: redeemer });
    expect(closed.status).toBe(200);
    expect(closed.body.data.some((p: { status: string }) => p.status === "redeemed")).toBe(true);
    const { response } = await callHandler(h(positionsGet), `/api/predmkt/wallets/${redeemer}/positions?status=all&format=csv`, {
      address: redeemer,
    });
    expect(response.headers.get("content-type")).toMatch(/text\/csv/);
    expect((await response.text()).split("\r\n")[0]).toBe(
      "market_id,condition_id,question,event_slug,outcome,outcome_index,size,avg_price,cost_usd,current_price,value_usd,realized_pnl_usd,unrealized_pnl_usd,status",
    );
  });

  it("pages the activity newest first with a cursor, every row once", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const path: string = `/api/predmkt/wallets/${redeemer}/activity?limit=4${cursor ? `&cursor=${cursor}` : ""}`;
      const page = await callJson(h(activityGet), path, { address: redeemer });
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((r: { at: string; type: string; usd: number }) => `${r.at}:${r.type}:${r.usd}`));
      cursor = page.body.meta.next_cursor;
    } while (cursor);
    expect(seen).toHaveLength(simWallets(sim.world, sim.prices).wallets[0].events.length);
  });

  it("shows the leaderboard with our PnL once a ledger is complete", async () => {
    await callJson(h(walletGet), `/api/predmkt/wallets/${redeemer}`, { address: redeemer }); // tests run shuffled: read it here
    const { status, body } = await callJson(h(leaderboardGet), "/api/predmkt/leaderboard?window=all&limit=10");
    expect(status).toBe(200);
    const row = body.data.find((r: { address: string }) => r.address === redeemer);
    expect(row.ledger_complete).toBe(true);
    expect(row.pnl_usd).not.toBeNull();
    expect(row.wallet_url).toBe(`/api/predmkt/wallets/${redeemer}`);
    expect((await callJson(h(leaderboardGet), "/api/predmkt/leaderboard?window=2d")).status).toBe(400);
  });
});
