// One sampler pass: every open event and market (keyset paging) with each outcome's price, the new part of the global
// trade tape, and, less often, the holders of the biggest markets with their entry prices. Each stage commits as it
// goes and is idempotent, so a pass that dies half-way loses nothing committed and the next pass simply carries on;
// a lease makes overlapping passes (cron + loop, two replicas) skip instead of double-writing.
import { randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { errorFields, log } from "@/lib/log";
import { countRequests } from "@/lib/upstream";
import { DEFAULT_CONFIG, type SamplerConfig } from "./config";
import { passLanded } from "@/lib/sampled/landings";
import { STATE } from "@/lib/sampled/state";
import { acquireLease, releaseLease, renewLease } from "./lease";
import type { SamplerSource } from "./source";
import type { TapeGap } from "@/lib/sampled/tape-gaps";
import { sampleTape } from "./tape";
import { refreshWhales } from "./whales";
import { applyRetention, closeUnseen, getState, rollUp, setState, vacuum, writeEventsPage } from "./store";
import { observeSamplerPass } from "@/lib/metrics/registry";

export type PassStatus = "ok" | "failed" | "skipped";

export interface PassCounts {
  events: number;
  markets: number;
  outcomes: number;
  samples: number;
  trades: number;
  whales: number;
  /** Upstream list items dropped as unusable (each logged once with its id; the rest of its page was used). */
  dropped: number;
}

export interface PassResult {
  status: PassStatus;
  run_id: number | null;
  started_at: string;
  finished_at: string;
  counts: PassCounts;
  /** Stretches of the tape this pass found unreadable (never silently skipped). */
  tape_gaps: TapeGap[];
  /** Upstream requests this pass sent (every attempt, retries included), by "host /path" with ids folded. */
  upstream_requests: Record<string, number>;
  error: string | null;
}

export interface PassOptions {
  db: Db;
  source: SamplerSource;
  trigger?: string;
  config?: Partial<SamplerConfig>;
  /** The clock samples are stamped with (tests move it forward). */
  now?: () => Date;
  /**
   * The clock the tape walk spends its time budget on, in milliseconds (default `performance.now`: monotonic, so a
   * wall-clock step does not stretch or cut the budget). Tests advance it per page to cut a walk where they mean to.
   */
  budgetClock?: () => number;
}

const MAX_EVENT_PAGES = 1000;

export async function runPass(options: PassOptions): Promise<PassResult> {
  const result = await runLeasedPass(options);
  if (result.status !== "skipped") {
    observeSamplerPass(result.status, (Date.parse(result.finished_at) - Date.parse(result.started_at)) / 1000);
  }
  // A pass that wrote anything (ok, or failed half-way) moves readers on; per-pass work is done right after it.
  if (result.status !== "skipped") await passLanded(result);
  return result;
}

async function runLeasedPass(options: PassOptions): Promise<PassResult> {
  const { db, source } = options;
  const config = { ...DEFAULT_CONFIG, ...options.config };
  const now = options.now ?? (() => new Date());
  const holder = randomUUID();
  const startedAt = now();
  const wallStart = performance.now();
  const counts: PassCounts = { events: 0, markets: 0, outcomes: 0, samples: 0, trades: 0, whales: 0, dropped: 0 };

  if (!(await acquireLease(db, holder, config.leaseTtlMs))) {
    return {
      status: "skipped",
      run_id: null,
      started_at: startedAt.toISOString(),
      finished_at: now().toISOString(),
      counts,
      tape_gaps: [],
      upstream_requests: {},
      error: null,
    };
  }
  let runId: number | null = null;
  let tapeGaps: TapeGap[] = [];
  const requests = new Map<string, number>();
  const upstreamRequests = () => Object.fromEntries([...requests.entries()].sort(([a], [b]) => a.localeCompare(b)));
  const result = (status: "ok" | "failed", finishedAt: Date, error: string | null): PassResult => ({
    status,
    run_id: runId,
    started_at: startedAt.toISOString(),
    finished_at: finishedAt.toISOString(),
    counts,
    tape_gaps: tapeGaps,
    upstream_requests: upstreamRequests(),
    error,
  });
  try {
    // We hold the lease, so any run still marked running belongs to a pass that died without finishing.
    await db.samplerRun.updateMany({
      where: { status: "running" },
      data: { status: "abandoned", error: "the pass did not finish (process ended or lease expired)" },
    });
    runId = (await db.samplerRun.create({ data: { trigger: options.trigger ?? "manual", status: "running", startedAt } })).id;
    const renew = () => renewLease(db, holder, config.leaseTtlMs);

    await countRequests(requests, async () => {
      await sampleEvents(db, source, config, now, counts, renew);
      await rollUp(db, now());
      await renew();
      const tape = await sampleTape(db, source, config, now, renew, options.budgetClock);
      counts.trades += tape.trades;
      counts.dropped += tape.dropped;
      tapeGaps = tape.gaps;
      await setState(db, STATE.trades, now());
      await sampleWhales(db, source, config, now, counts, renew);
      await maintain(db, config, now, renew);
    });

    const finishedAt = now();
    await db.samplerRun.update({
      where: { id: runId },
      data: {
        status: "ok",
        finishedAt,
        ...counts,
        tapeGaps: tapeGaps.length ? (tapeGaps as unknown as object) : undefined,
        upstreamRequests: upstreamRequests(),
      },
    });
    log.info("sampler pass", {
      run_id: runId,
      trigger: options.trigger,
      ms: Math.round(performance.now() - wallStart),
      ...counts,
      upstream_requests: [...requests.values()].reduce((sum, n) => sum + n, 0),
    });
    return result("ok", finishedAt, null);
  } catch (error) {
    const finishedAt = now();
    const message = error instanceof Error ? error.message : String(error);
    log.warn("sampler pass failed", { run_id: runId, ...counts, ...errorFields(error) });
    if (runId !== null) {
      await db.samplerRun
        .update({
          where: { id: runId },
          data: { status: "failed", finishedAt, error: message.slice(0, 2000), ...counts, upstreamRequests: upstreamRequests() },
        })
        .catch(() => undefined);
    }
    return result("failed", finishedAt, message);
  } finally {
    await releaseLease(db, holder).catch(() => undefined);
  }
}

async function sampleEvents(
  db: Db,
  source: SamplerSource,
  config: SamplerConfig,
  now: () => Date,
  counts: PassCounts,
  renew: () => Promise<void>,
) {
  const listingStartedAt = now();
  let cursor: string | null = null;
  const seenCursors = new Set<string>();
  for (let page = 0; page < MAX_EVENT_PAGES; page++) {
    const result = await source.eventsPage(cursor, config.eventsPageSize);
    counts.dropped += result.dropped.length;
    // Each page is stamped with the time it was fetched: raw samples carry the real time they were taken.
    const written = await writeEventsPage(db, result.events, now(), config);
    counts.events += written.events;
    counts.markets += written.markets;
    counts.outcomes += written.outcomes;
    counts.samples += written.samples;
    await renew();
    if (!result.next_cursor || seenCursors.has(result.next_cursor)) break;
    seenCursors.add(result.next_cursor);
    cursor = result.next_cursor;
  }
  // Only a complete listing may say what is no longer open; a failed one has thrown before this line.
  await closeUnseen(db, listingStartedAt);
  const at = now();
  await setState(db, STATE.events, at);
  await setState(db, STATE.prices, at);
}

async function sampleWhales(
  db: Db,
  source: SamplerSource,
  config: SamplerConfig,
  now: () => Date,
  counts: PassCounts,
  renew: () => Promise<void>,
) {
  const last = await getState(db, STATE.whales);
  if (last && now().getTime() - last.at.getTime() < config.whalesEveryS * 1000) return;
  const result = await refreshWhales(db, source, config, now, renew);
  counts.whales += result.positions;
  await setState(db, STATE.whales, now());
}

/** Housekeeping on its own clocks: retention every 15 minutes, VACUUM of hot tables every 10, of big ones every 6 h. */
async function maintain(db: Db, config: SamplerConfig, now: () => Date, renew: () => Promise<void>) {
  const due = async (key: string, everyS: number) => {
    const last = await getState(db, key);
    return !last || now().getTime() - last.at.getTime() >= everyS * 1000;
  };
  if (await due(STATE.retention, config.retentionEveryS)) {
    await applyRetention(db, now(), config);
    await setState(db, STATE.retention, now());
    await renew();
  }
  if (await due(STATE.vacuumHot, config.vacuumHotEveryS)) {
    await vacuum(db, "hot");
    await setState(db, STATE.vacuumHot, now());
    await renew();
  }
  if (await due(STATE.vacuumBig, config.vacuumBigEveryS)) {
    await vacuum(db, "big");
    await setState(db, STATE.vacuumBig, now());
  }
}
