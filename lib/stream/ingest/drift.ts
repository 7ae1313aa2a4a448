// Feed drift made loud (docs/stream.md, "Feed drift"). RTDS `activity` is not in Polymarket's current docs or SDK
// bindings, and the market channel's shapes change without notice (the `price_change` format changed in 2025): a
// renamed field must not turn live ingest off while the watchdog still sees traffic. Every message the worker reads
// is counted per feed and message type as parsed, failed or ignored (a type we do not use); each kind of failure is
// logged once with a sample; a feed whose recent messages mostly fail is reported unhealthy. The worker may run in
// another process than the server, so the report is written to the database (sampler_state, key FEED_HEALTH_KEY)
// for /api/health, and counted in the process's metrics.
import type { Db } from "@/lib/db/client";
import { log } from "@/lib/log";
import { metrics } from "@/lib/metrics/registry";

export const FEED_HEALTH_KEY = "live_feed_health";
/** A feed is judged on its recent messages: this window, and at least this many of them. */
export const DRIFT_WINDOW_MS = 60_000;
export const DRIFT_MIN_MESSAGES = 10;
/** More than this share of the window's messages failing makes the feed unhealthy. */
export const DRIFT_UNHEALTHY_SHARE = 0.5;

export type FeedName = "rtds" | "market";

interface TypeCounts {
  parsed: number;
  failed: number;
  ignored: number;
}

export interface FeedHealth {
  feed: FeedName;
  healthy: boolean;
  /** Messages and failures in the recent window the verdict is based on. */
  recent_messages: number;
  recent_failed: number;
  /** Counts since the worker started, per message type. */
  by_type: { type: string; parsed: number; failed: number; ignored: number; last_failure: string | null }[];
}

export interface FeedHealthReport {
  at: string;
  healthy: boolean;
  feeds: FeedHealth[];
}

export class FeedDrift {
  private readonly counts = new Map<string, TypeCounts & { lastFailure: string | null; unflushed: TypeCounts }>();
  private readonly logged = new Set<string>();
  /** Per feed, one entry per second: [second, messages, failed]. */
  private readonly windows = new Map<FeedName, [number, number, number][]>();

  constructor(private readonly now: () => number = Date.now) {}

  parsed(feed: FeedName, type: string): void {
    this.bump(feed, type, "parsed");
  }

  ignored(feed: FeedName, type: string): void {
    this.bump(feed, type, "ignored");
  }

  failed(feed: FeedName, type: string, reason: string, sample: unknown): void {
    const entry = this.bump(feed, type, "failed");
    entry.lastFailure = reason;
    const kind = `${feed}|${type}|${reason}`;
    if (!this.logged.has(kind) && this.logged.size < 500) {
      this.logged.add(kind);
      // Once per kind: a renamed field would otherwise log every message.
      log.warn("worker: feed message failed to parse (feed drift)", { feed, type, reason, sample: truncate(sample) });
    }
  }

  private bump(feed: FeedName, type: string, what: keyof TypeCounts) {
    const key = `${feed}|${type}`;
    let entry = this.counts.get(key);
    if (!entry)
      this.counts.set(
        key,
        (entry = { parsed: 0, failed: 0, ignored: 0, lastFailure: null, unflushed: { parsed: 0, failed: 0, ignored: 0 } }),
      );
    entry[what]++;
    // The metric is counted once a second, not per message: a labelled increment per frame was a visible share of
    // the worker's time at the market channel's real rates (bench/README.md, "Live market feed").
    entry.unflushed[what]++;
    const second = Math.floor(this.now() / 1000);
    if (second !== this.flushedSecond) this.flushMetrics(second);
    if (what !== "ignored") {
      const window = this.windows.get(feed) ?? [];
      const last = window.at(-1);
      if (last && last[0] === second) {
        last[1]++;
        if (what === "failed") last[2]++;
      } else window.push([second, 1, what === "failed" ? 1 : 0]);
      const from = second - DRIFT_WINDOW_MS / 1000;
      while (window.length && window[0][0] <= from) window.shift();
      this.windows.set(feed, window);
    }
    return entry;
  }

  private flushedSecond = 0;

  /** Adds the counts since the last flush to the process's metrics. */
  flushMetrics(second = Math.floor(this.now() / 1000)): void {
    this.flushedSecond = second;
    for (const [key, entry] of this.counts) {
      const split = key.indexOf("|");
      const feed = key.slice(0, split);
      const type = key.slice(split + 1);
      for (const outcome of ["parsed", "failed", "ignored"] as const) {
        if (entry.unflushed[outcome] === 0) continue;
        metrics().feedMessages.inc({ feed, type, outcome }, entry.unflushed[outcome]);
        entry.unflushed[outcome] = 0;
      }
    }
  }

  report(): FeedHealthReport {
    this.flushMetrics();
    const from = Math.floor(this.now() / 1000) - DRIFT_WINDOW_MS / 1000;
    const feeds: FeedHealth[] = (["rtds", "market"] as const).map((feed) => {
      const window = (this.windows.get(feed) ?? []).filter(([s]) => s > from);
      const messages = window.reduce((n, w) => n + w[1], 0);
      const failed = window.reduce((n, w) => n + w[2], 0);
      const healthy = messages < DRIFT_MIN_MESSAGES || failed <= messages * DRIFT_UNHEALTHY_SHARE;
      const byType = [...this.counts.entries()]
        .filter(([key]) => key.startsWith(`${feed}|`))
        .map(([key, c]) => ({
          type: key.slice(feed.length + 1),
          parsed: c.parsed,
          failed: c.failed,
          ignored: c.ignored,
          last_failure: c.lastFailure,
        }))
        .sort((a, b) => a.type.localeCompare(b.type));
      return { feed, healthy, recent_messages: messages, recent_failed: failed, by_type: byType };
    });
    return { at: new Date(this.now()).toISOString(), healthy: feeds.every((f) => f.healthy), feeds };
  }

  /** Writes the report where /api/health reads it (another process may serve the API). */
  async publish(db: Db): Promise<void> {
    const report = this.report();
    await db.samplerState.upsert({
      where: { key: FEED_HEALTH_KEY },
      create: { key: FEED_HEALTH_KEY, at: new Date(report.at), value: JSON.stringify(report) },
      update: { at: new Date(report.at), value: JSON.stringify(report) },
    });
  }
}

function truncate(sample: unknown): string {
  const text = JSON.stringify(sample) ?? String(sample);
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
}

/** The last published report, or null when no worker has published one (or it is older than `maxAgeMs`). */
export async function readFeedHealth(db: Db, nowMs = Date.now(), maxAgeMs = 120_000): Promise<FeedHealthReport | null> {
  const row = await db.samplerState.findUnique({ where: { key: FEED_HEALTH_KEY } });
  if (!row?.value || nowMs - row.at.getTime() > maxAgeMs) return null;
  try {
    return JSON.parse(row.value) as FeedHealthReport;
  } catch {
    return null;
  }
}
