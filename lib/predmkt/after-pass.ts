// Work every reader needs after a pass, done once right after it lands (in the process that ran it, and through
// the KV store for the others) instead of by the first reader: stats, categories, movers for every window,
// abnormal trades, the tick feed and whales. Each is the per-pass value its endpoint slices (lib/predmkt/per-pass.ts).
// Registered as a pass listener by the composition root (lib/server/jobs.ts), never by importing this file.
import { errorFields, log } from "@/lib/log";
import { getStats, listCategories } from "./events";
import { latestTicks } from "./history";
import { movers } from "./movers";
import { abnormalTrades } from "./trades";
import { listWhales } from "./whales";
import { MOVER_WINDOWS } from "./windows";

export async function computeAfterPass(): Promise<{ computed: number; failed: number }> {
  const jobs: [string, () => Promise<unknown>][] = [
    ["stats", getStats],
    ["categories", listCategories],
    ...MOVER_WINDOWS.map((w): [string, () => Promise<unknown>] => [`movers ${w}`, () => movers(w, 1)]),
    ["abnormal", () => abnormalTrades(1)],
    ["ticks", () => latestTicks(1)],
    ["whales", () => listWhales({ limit: 1 })],
  ];
  let failed = 0;
  // One after another: the pass has just loaded the database; readers still get their answers in between.
  for (const [name, job] of jobs) {
    await job().catch((error) => {
      failed += 1;
      log.warn("after-pass aggregate failed", { name, ...errorFields(error) });
    });
  }
  return { computed: jobs.length - failed, failed };
}

/** The listener after a pass: a pass that failed before writing anything changed nothing a reader sees. */
export async function afterPassWork(result: { status: string; counts: object }): Promise<void> {
  const wrote = result.status === "ok" || Object.values(result.counts).some((n) => typeof n === "number" && n > 0);
  if (wrote) await computeAfterPass();
}
