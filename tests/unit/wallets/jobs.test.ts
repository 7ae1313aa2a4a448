// The leaderboard job (lib/wallets/jobs.ts, started by the composition root): its first pass completes the ledgers of
// the board's top wallets, the heavy one past the offset cap included, inside Polymarket's rate limits (the simulator
// enforces them and counts what it had to delay or refuse); the leaderboard then shows our PnL for each; the next
// pass reads no activity for ledgers that are current; stop ends the loop. Clock, interval and first delay injected.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as leaderboardGet } from "@/app/api/predmkt/leaderboard/route";
import { getDb } from "@/lib/db/client";
import { clearLocalCache } from "@/lib/upstream";
import { governorPeaks, requestsByEndpoint } from "@/lib/upstream/governor";
import { startLeaderboardLedgers } from "@/lib/wallets/jobs";
import type { LeaderboardPass } from "@/lib/wallets/leaderboard";
import { type Simulator, startOfUtcDay, startSimulator } from "@/sim/polymarket";
import { simWallets } from "@/sim/polymarket/wallets";
import { callJson } from "../../helpers/handler";
import { pointUpstreamAt } from "../upstream/stub-server";

const T0 = startOfUtcDay(Date.now()) + 6 * 3600_000 + 41_500;
const now = () => T0;
let sim: Simulator;
let restore: () => void;

beforeAll(async () => {
  await getDb();
  sim = await startSimulator({ seed: 1, clock: now, reality: { rateLimits: true } });
  restore = pointUpstreamAt(sim.url, { UPSTREAM_TIMEOUT_MS: 10_000, UPSTREAM_MAX_RETRIES: 1 });
  clearLocalCache();
}, 240_000);
afterAll(async () => {
  restore();
  await sim.close();
});

const diff = (after: Record<string, number>, before: Record<string, number>) =>
  Object.fromEntries(
    Object.entries(after)
      .map(([k, v]) => [k, v - (before[k] ?? 0)])
      .filter(([, v]) => (v as number) > 0),
  );

describe("leaderboard job", { timeout: 240_000 }, () => {
  it("completes the top wallets' ledgers within the rate limits, after which the leaderboard shows our PnL for them", async () => {
    const wallets = simWallets(sim.world, sim.prices);
    const passes: { result?: LeaderboardPass; error?: unknown; requests: Record<string, number>; ms: number }[] = [];
    let mark = { requests: requestsByEndpoint(), at: performance.now() };
    let secondPass!: () => void;
    const second = new Promise<void>((resolve) => (secondPass = resolve));
    const stop = startLeaderboardLedgers({
      intervalS: 0.05,
      firstDelayMs: 0,
      top: 20,
      now,
      onPass: (outcome) => {
        const requests = requestsByEndpoint();
        passes.push({ ...outcome, requests: diff(requests, mark.requests), ms: performance.now() - mark.at });
        mark = { requests, at: performance.now() };
        if (passes.length === 2) {
          stop!(); // inside the callback: the loop schedules nothing after this pass
          secondPass();
        }
      },
    });
    expect(stop).not.toBeNull();
    await second;
    const [first, next] = passes;
    expect(first.error).toBeUndefined();
    // The simulator's board lists its seven ledger wallets; every one is read to the end in the first pass.
    expect(first.result).toEqual({ wallets: wallets.wallets.length, complete: wallets.wallets.length });
    const heavy = wallets.wallets.find((w) => w.kind === "heavy")!;
    expect(first.requests["data /activity"]).toBeGreaterThan(heavy.events.length / 500);
    // Within Polymarket's limits: nothing was delayed or refused upstream, and no scope went past our budget.
    expect(sim.throttle()).toMatchObject({ delayed: 0, refused: 0 });
    for (const scope of governorPeaks()) expect(scope.peak, scope.scope).toBeLessThanOrEqual(scope.budget);
    // The second pass finds every ledger current (same clock): no activity read at all.
    expect(next.result).toEqual(first.result);
    expect(next.requests["data /activity"] ?? 0).toBe(0);
    console.log(
      `[leaderboard job] pass 1: ${Math.round(first.ms)} ms, ${JSON.stringify(first.requests)}; ` +
        `pass 2: ${Math.round(next.ms)} ms, ${JSON.stringify(next.requests)}`,
    );

    const { status, body } = await callJson(leaderboardGet, "/api/predmkt/leaderboard?window=all&limit=50");
    expect(status).toBe(200);
    for (const w of wallets.wallets) {
      const row = body.data.find((r: { address: string }) => r.address === w.address);
      expect(row, w.kind).toMatchObject({ ledger_complete: true, pnl_note: null, pnl_as_of: new Date(T0).toISOString() });
      const truth = Math.round(wallets.truthPnl(w, Math.floor(T0 / 1000)) * 100) / 100;
      expect(Math.abs(row.pnl_usd - truth), w.kind).toBeLessThanOrEqual(0.011);
    }
    expect(passes).toHaveLength(2);
  });
});
