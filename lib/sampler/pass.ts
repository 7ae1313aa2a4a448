// One sampler pass: every open event and market (keyset paging) with each outcome's price, the new part of the global
// trade tape, and, less often, the holders of the biggest markets with their entry prices. Each stage commits as it
// goes and is idempotent, so a pass that dies half-way loses nothing committed and the next pass simply carries on;
// a lease makes overlapping passes (cron + loop, two replicas) skip instead of double-writing.
import { randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { errorFields, log } from "@/lib/log";
import type { NormalizedTrade } from "@/lib/upstream/types";
import { DEFAULT_CONFIG, type SamplerConfig } from "./config";
import { acquireLease, releaseLease, renewLease } from "./lease";
import type { SamplerSource } from "./source";
import {
  applyRetention,
  closeUnseen,
  getState,
  replaceWhales,
  rollUp,
  setState,
  vacuum,
  type WhaleRow,
  writeEventsPage,
  writeTrades,
} from "./store";

export type PassStatus = "ok" | "failed" | "skipped";

export interface PassCounts {
  events: number;
  markets: number;
  outcomes: number;
  samples: number;
  trades: number;
  whales: number;
}

export interface PassResult {
  status: PassStatus;
  run_id: number | null;
  started_at: string;
  finished_at: string;
  counts: PassCounts;
  error: string | null;
}

export interface PassOptions {
  db: Db;
  source: SamplerSource;
  trigger?: string;
  config?: Partial<SamplerConfig>;
  /** The clock samples are stamped with (tests move it forward). */
  now?: () => Date;
}

/** Keys in sampler_state: the time each kind of data was last completely sampled (the endpoints' `as_of`). */
export const STATE = {
  events: "events_at",
  prices: "prices_at",
  trades: "trades_at",
  tradesWatermark: "trades_watermark",
  whales: "whales_at",
  retention: "retention_at",
  vacuumHot: "vacuum_hot_at",
  vacuumBig: "vacuum_big_at",
} as const;

const MAX_EVENT_PAGES = 1000;

export async function runPass(options: PassOptions): Promise<PassResult> {
  const { db, source } = options;
  const config = { ...DEFAULT_CONFIG, ...options.config };
  const now = options.now ?? (() => new Date());
  const holder = randomUUID();
  const startedAt = now();
  const wallStart = performance.now();
  const counts: PassCounts = { events: 0, markets: 0, outcomes: 0, samples: 0, trades: 0, whales: 0 };

  if (!(await acquireLease(db, holder, config.leaseTtlMs))) {
    return { status: "skipped", run_id: null, started_at: startedAt.toISOString(), finished_at: now().toISOString(), counts, error: null };
  }
  let runId: number | null = null;
  try {
    // We hold the lease, so any run still marked running belongs to a pass that died without finishing.
    await db.samplerRun.updateMany({
      where: { status: "running" },
      data: { status: "abandoned", error: "the pass did not finish (process ended or lease expired)" },
    });
    runId = (await db.samplerRun.create({ data: { trigger: options.trigger ?? "manual", status: "running", startedAt } })).id;
    const renew = () => renewLease(db, holder, config.leaseTtlMs);

    await sampleEvents(db, source, config, now, counts, renew);
    await rollUp(db, now());
    await renew();
    await sampleTrades(db, source, config, now, counts, renew);
    await sampleWhales(db, source, config, now, counts, renew);
    await maintain(db, config, now, renew);

    const finishedAt = now();
    await db.samplerRun.update({ where: { id: runId }, data: { status: "ok", finishedAt, ...counts } });
    log.info("sampler pass", { run_id: runId, trigger: options.trigger, ms: Math.round(performance.now() - wallStart), ...counts });
    return { status: "ok", run_id: runId, started_at: startedAt.toISOString(), finished_at: finishedAt.toISOString(), counts, error: null };
  } catch (error) {
    const finishedAt = now();
    const message = error instanceof Error ? error.message : String(error);
    log.warn("sampler pass failed", { run_id: runId, ...counts, ...errorFields(error) });
    if (runId !== null) {
      await db.samplerRun
        .update({ where: { id: runId }, data: { status: "failed", finishedAt, error: message.slice(0, 2000), ...counts } })
        .catch(() => undefined);
    }
    return { status: "failed", run_id: runId, started_at: startedAt.toISOString(), finished_at: finishedAt.toISOString(), counts, error: message };
  } finally {
    await releaseLease(db, holder).catch(() => undefined);
  }
}

async function sampleEvents(db: Db, source: SamplerSource, config: SamplerConfig, now: () => Date, counts: PassCounts, renew: () => Promise<void>) {
  const listingStartedAt = now();
  let cursor: string | null = null;
  const seenCursors = new Set<string>();
  for (let page = 0; page < MAX_EVENT_PAGES; page++) {
    const result = await source.eventsPage(cursor, config.eventsPageSize);
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

async function sampleTrades(db: Db, source: SamplerSource, config: SamplerConfig, now: () => Date, counts: PassCounts, renew: () => Promise<void>) {
  const watermark = await getState(db, STATE.tradesWatermark);
  const since = watermark ? Number(watermark.value) : null;
  let newest = since ?? 0;
  for (let page = 0; page < config.tradesMaxPages; page++) {
    const trades: NormalizedTrade[] = await source.tradesPage(page * config.tradesPageSize, config.tradesPageSize);
    if (!trades.length) break;
    // A quiet tape can hand back fills older than the retention; storing them again would only churn.
    const keepFrom = now().getTime() / 1000 - config.tradeRetentionS;
    counts.trades += await writeTrades(db, trades.filter((t) => t.timestamp_s >= keepFrom), config);
    await renew();
    for (const t of trades) newest = Math.max(newest, t.timestamp_s);
    const oldest = Math.min(...trades.map((t) => t.timestamp_s));
    // Newest first: once a page reaches back past what the last pass saw, the rest is already stored. Trades of the
    // watermark's own second may straddle pages, so the boundary second is re-read and deduplicated by id.
    if (trades.length < config.tradesPageSize || (since !== null && oldest < since)) break;
  }
  if (newest > 0) await setState(db, STATE.tradesWatermark, now(), String(newest));
  await setState(db, STATE.trades, now());
}

async function sampleWhales(db: Db, source: SamplerSource, config: SamplerConfig, now: () => Date, counts: PassCounts, renew: () => Promise<void>) {
  const last = await getState(db, STATE.whales);
  if (last && now().getTime() - last.at.getTime() < config.whalesEveryS * 1000) return;
  const markets = await db.market.findMany({
    where: { open: true },
    orderBy: [{ volumeUsd: "desc" }, { id: "asc" }],
    take: config.whaleMarkets,
    select: { id: true, conditionId: true, question: true },
  });
  const outcomes = await db.outcome.findMany({ where: { marketId: { in: markets.map((m) => m.id) } } });
  const byToken = new Map(outcomes.map((o) => [o.tokenId, o]));
  const rows: WhaleRow[] = [];
  for (const market of markets) {
    const groups = await source.holders(market.conditionId, config.whaleHoldersPerOutcome);
    for (const group of groups) {
      const outcome = byToken.get(group.token_id);
      if (!outcome) continue;
      const holders = [...group.holders].sort((a, b) => b.shares - a.shares).slice(0, config.whaleHoldersPerOutcome);
      const entries = await Promise.all(
        holders.map(async (h) => {
          const positions = await source.positions(h.wallet, market.conditionId);
          return positions.find((p) => p.token_id === group.token_id)?.avg_price ?? null;
        }),
      );
      holders.forEach((h, i) =>
        rows.push({
          wallet: h.wallet.toLowerCase(),
          token_id: group.token_id,
          market_id: market.id,
          condition_id: market.conditionId,
          question: market.question,
          outcome: outcome.name,
          outcome_index: outcome.index,
          pseudonym: h.pseudonym || null,
          shares: h.shares,
          entry_price: entries[i],
        }),
      );
    }
    await renew();
  }
  counts.whales += await replaceWhales(db, markets.map((m) => m.id), rows, now(), config);
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
