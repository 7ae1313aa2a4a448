// The dashboard's live tape: a trade the simulator emits on its websocket reaches the worker, the database, the
// stream and the browser's table within seconds, without a reload and without polling.
import { readFileSync } from "node:fs";
import path from "node:path";
import { TradeV1Schema } from "../../lib/upstream/schemas";
import { E2E_DATA_DIR } from "./stack";
import { expect, open, test } from "./fixtures";

const simulatorUrl = () => (JSON.parse(readFileSync(path.join(E2E_DATA_DIR, "simulator.json"), "utf8")) as { url: string }).url;

test("trades: the tape shows a trade within seconds of the simulator emitting it", async ({ page, traffic }) => {
  await open(page, "/trades");
  await expect(page.getByTestId("stream-status")).toHaveAttribute("data-state", "live");
  const callsBefore = traffic.apiCalls.filter((u) => u.pathname === "/api/predmkt/trades").length;
  const since = Date.now();
  let emitted: { id: string; at: number } | null = null;
  await expect
    .poll(
      async () => {
        const body = (await (await fetch(`${simulatorUrl()}/__sim/ws/emitted`)).json()) as {
          trades: { payload: unknown; emitted_at_ms: number }[];
        };
        const fresh = body.trades.find((t) => t.emitted_at_ms > since);
        if (fresh) emitted = { id: TradeV1Schema.parse(fresh.payload).id, at: fresh.emitted_at_ms };
        return emitted !== null;
      },
      { timeout: 60_000, intervals: [200] },
    )
    .toBe(true);
  const { id, at } = emitted!;
  await expect(page.locator(`[data-testid="trades-table"] tr[data-trade-id="${id}"]`)).toBeVisible({ timeout: 10_000 });
  const delay = Date.now() - at;
  test.info().annotations.push({ type: "emit → visible (ms, upper bound incl. polling the simulator)", description: String(delay) });
  expect(delay).toBeLessThan(10_000);
  // The tape did not poll the list while the stream was live.
  expect(traffic.apiCalls.filter((u) => u.pathname === "/api/predmkt/trades").length).toBe(callsBefore);
  expect(traffic.apiCalls.some((u) => u.pathname === "/api/predmkt/stream")).toBe(true);
});
