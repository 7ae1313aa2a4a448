// One hub per server process: it holds the process's single bus subscription, reads each newly stored range of the
// stream log once, and hands every open stream the messages its filter accepts. No stream polls anything itself.
// A slow catch-up read (one query per process, only while streams are open) repairs a lost notification, and a
// sweep closes the streams of keys that stopped being usable since they opened: revoked, expired, or rotated out
// past their grace period (the same rules as the gateway's, lib/auth/key-lifecycle.ts).
import { monitorEventLoopDelay } from "node:perf_hooks";
import { keyEndReason } from "@/lib/auth/key-lifecycle";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { type Subscription, subscribeStored } from "./bus";
import { toMessages } from "./messages";
import { newestSeq, readEvents } from "./read";
import { matches, type StreamFilter, type StreamMessage } from "./types";

const PAGE = 1000;
const CATCH_UP_MS = 5000;
const REPORT_MS = 10_000;

export interface HubSubscriber {
  filter: StreamFilter;
  keyId: string;
  deliver(messages: StreamMessage[]): void;
  close(reason: "revoked" | "expired" | "rotated" | "error"): void;
}

class Hub {
  lastSeq = 0;
  readonly subscribers = new Set<HubSubscriber>();
  private target = 0;
  private pumping: Promise<void> | null = null;
  private subscription: Subscription | null = null;
  private timers: NodeJS.Timeout[] = [];
  readonly ready: Promise<void>;
  /** Messages handed to streams since start (for the bench and health). */
  delivered = 0;

  constructor() {
    this.ready = this.start();
  }

  private async start(): Promise<void> {
    const db = await getDb();
    this.lastSeq = await newestSeq(db);
    this.target = this.lastSeq;
    this.subscription = await subscribeStored(
      (seq) => this.notify(seq),
      () => void this.catchUp(),
    );
    const catchUp = setInterval(() => void this.catchUp(), CATCH_UP_MS);
    // Revocation must reach open streams within the key cache's TTL, which the per-key lookup cache would delay.
    const sweep = setInterval(() => void this.sweepRevoked(), Math.max(1, Math.min(5, env.KEY_CACHE_TTL_S)) * 1000);
    // While streams are open, a line every 10 s says how many, and what they cost the process (the bench reads it).
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    let cpu = process.cpuUsage();
    let cpuAt = performance.now();
    const report = setInterval(() => {
      const used = process.cpuUsage(cpu);
      const wall = performance.now() - cpuAt;
      cpu = process.cpuUsage();
      cpuAt = performance.now();
      if (this.subscribers.size) {
        log.info("stream hub", {
          streams: this.subscribers.size,
          delivered: this.delivered,
          event_loop_delay_p50_ms: Math.round(delay.percentile(50) / 1e4) / 100,
          event_loop_delay_p99_ms: Math.round(delay.percentile(99) / 1e4) / 100,
          cpu_percent: Math.round(((used.user + used.system) / 1000 / wall) * 1000) / 10,
          rss_mb: Math.round(process.memoryUsage().rss / 1e5) / 10,
        });
      }
      delay.reset();
    }, REPORT_MS);
    for (const t of [catchUp, sweep, report]) t.unref?.();
    this.timers.push(catchUp, sweep, report);
    log.info("stream hub started", { bus: this.subscription.kind, last_seq: this.lastSeq });
  }

  notify(seq: number): void {
    if (seq <= this.target) return;
    this.target = seq;
    this.pump();
  }

  private async catchUp(): Promise<void> {
    if (this.subscribers.size === 0) return;
    try {
      this.notify(await newestSeq(await getDb()));
    } catch (error) {
      log.warn("stream hub: catch-up read failed", errorFields(error));
    }
  }

  private pump(): void {
    if (this.pumping) return;
    this.pumping = this.drain()
      .catch((error) => log.warn("stream hub: read failed; retrying on the next notification", errorFields(error)))
      .finally(() => {
        this.pumping = null;
        if (this.target > this.lastSeq && this.subscribers.size) setTimeout(() => this.pump(), 500).unref?.();
      });
  }

  private async drain(): Promise<void> {
    const db = await getDb();
    while (this.target > this.lastSeq) {
      if (this.subscribers.size === 0) {
        // Nobody to tell: a stream that opens later replays from the database up to lastSeq.
        this.lastSeq = this.target;
        return;
      }
      const upto = this.target;
      const page = await readEvents(db, this.lastSeq, upto, PAGE);
      const withAbnormal = [...this.subscribers].some((s) => s.filter.topics.includes("abnormal"));
      const messages = await toMessages(db, page.events, withAbnormal);
      // A full page may have more behind it; a short one reached `upto`.
      this.lastSeq = page.full && page.lastSeq !== null ? page.lastSeq : upto;
      for (const subscriber of this.subscribers) {
        const mine = messages.filter((m) => matches(subscriber.filter, m));
        if (!mine.length) continue;
        // One stream that cannot take its batch is closed; the others still get theirs.
        try {
          subscriber.deliver(mine);
          this.delivered += mine.length;
        } catch (error) {
          log.warn("stream hub: a stream failed to take a delivery; closing it", errorFields(error));
          try {
            subscriber.close("error");
          } catch {
            // nothing more to do for it
          }
        }
      }
    }
  }

  private async sweepRevoked(now = Date.now()): Promise<void> {
    if (this.subscribers.size === 0) return;
    const keyIds = [...new Set([...this.subscribers].map((s) => s.keyId))];
    try {
      const db = await getDb();
      const keys = await db.apiKey.findMany({
        where: { id: { in: keyIds } },
        select: { id: true, status: true, expiresAt: true, graceEndsAt: true },
      });
      const ends = new Map(keys.map((k) => [k.id, keyEndReason(k, now)]));
      for (const s of this.subscribers) {
        // A key deleted outright is as gone as a revoked one.
        const reason = ends.has(s.keyId) ? ends.get(s.keyId) : "revoked";
        if (reason) s.close(reason);
      }
    } catch (error) {
      log.warn("stream hub: revocation sweep failed", errorFields(error));
    }
  }

  add(subscriber: HubSubscriber): void {
    this.subscribers.add(subscriber);
  }

  remove(subscriber: HubSubscriber): void {
    this.subscribers.delete(subscriber);
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    await this.subscription?.close();
  }
}

const globalForHub = globalThis as unknown as { __predmktStreamHub?: Hub };

/** The process's hub, started on first use. */
export async function getHub(): Promise<Hub> {
  globalForHub.__predmktStreamHub ??= new Hub();
  const hub = globalForHub.__predmktStreamHub;
  try {
    await hub.ready;
  } catch (error) {
    globalForHub.__predmktStreamHub = undefined;
    throw error;
  }
  return hub;
}

export type { Hub };
