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
import { encodeCursor, matches, type StreamFilter, type StreamMessage } from "./types";

const PAGE = 1000;
/** The hub's one timer: streams' heartbeats, deadlines and lease renewals, the catch-up read, the sweep, the report. */
const TICK_MS = 1000;
const CATCH_UP_MS = 5000;
const REPORT_MS = 10_000;
/** Streams woken per event-loop turn: a batch for 1,000 streams is written in 20 turns, other I/O between them. */
export const WAKES_PER_TURN = 50;
/** Writes to streams per second at most (a stream woken later takes everything queued for it in one write). */
export const WRITES_PER_S = 10_000;

/** One batch for every stream of one filter: its messages, and their SSE encoding, made once for all of them. */
export interface Delivery {
  messages: readonly StreamMessage[];
  bytes: Uint8Array;
  first: bigint;
  last: bigint;
}

export type HubCloseReason = "revoked" | "expired" | "rotated" | "error";

export interface HubSubscriber {
  filter: StreamFilter;
  keyId: string;
  /** Queues the batch (it must not write to the network: the hub wakes writers at its own pace, `wake`). */
  deliver(delivery: Delivery): void;
  close(reason: HubCloseReason): void;
  /** Writes what is queued (called by the hub's pacer after `wake`). */
  flush?(): void;
  /** Called every TICK_MS: heartbeats, the stream's deadlines, its lease renewal. */
  tick?(now: number): void;
}

/** Streams with the same filter share their deliveries (docs/stream.md "Fan-out"). */
const filterKey = (f: StreamFilter) => JSON.stringify([[...f.topics].sort(), f.minUsd, f.marketId, f.eventSlug]);

const join = (chunks: readonly Uint8Array[]): Uint8Array => (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
const encoder = new TextEncoder();

/** The SSE text of one message (the same bytes whichever path writes it, replay or live). */
export function formatMessage(m: StreamMessage): string {
  return `event: ${m.event}\nid: ${encodeCursor(m.cursor)}\ndata: ${JSON.stringify(m.data)}\n\n`;
}

export function encodedMessage(m: StreamMessage): Uint8Array {
  return (m.encoded ??= encoder.encode(formatMessage(m)));
}

class Hub {
  lastSeq = 0;
  readonly subscribers = new Set<HubSubscriber>();
  private readonly groups = new Map<string, Set<HubSubscriber>>();
  private target = 0;
  private pumping: Promise<void> | null = null;
  private subscription: Subscription | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly toWake = new Set<HubSubscriber>();
  private pacing = false;
  private tokens = WRITES_PER_S / 10;
  private tokensAt = performance.now();
  readonly ready: Promise<void>;
  /** Messages handed to streams since start (for the bench and health). */
  delivered = 0;
  /** Streams closed since start because their client read too slowly (`reason: "slow_consumer"`). */
  slowConsumers = 0;
  /** Streams that failed to take a delivery and were closed (`reason: "error"`). */
  failedDeliveries = 0;

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
    // Revocation must reach open streams within the key cache's TTL, which the per-key lookup cache would delay.
    const sweepMs = Math.max(1, Math.min(5, env.KEY_CACHE_TTL_S)) * 1000;
    // While streams are open, a line every 10 s says how many, and what they cost the process (the bench reads it).
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    let cpu = process.cpuUsage();
    let cpuAt = performance.now();
    let delivered = this.delivered;
    const due = { catchUp: CATCH_UP_MS, sweep: sweepMs, report: REPORT_MS };
    let elapsed = 0;
    this.timer = setInterval(() => {
      elapsed += TICK_MS;
      const now = Date.now();
      for (const s of this.subscribers) {
        try {
          s.tick?.(now);
        } catch (error) {
          log.warn("stream hub: a stream's tick failed", errorFields(error));
        }
      }
      if (elapsed % due.catchUp === 0) void this.catchUp();
      if (elapsed % due.sweep === 0) void this.sweepRevoked();
      if (elapsed % due.report !== 0) return;
      const used = process.cpuUsage(cpu);
      const wall = performance.now() - cpuAt;
      cpu = process.cpuUsage();
      cpuAt = performance.now();
      if (this.subscribers.size) {
        const memory = process.memoryUsage();
        log.info("stream hub", {
          streams: this.subscribers.size,
          filters: this.groups.size,
          delivered: this.delivered,
          events_per_s_per_stream: Math.round(((this.delivered - delivered) / (wall / 1000) / this.subscribers.size) * 10) / 10,
          slow_consumers_closed: this.slowConsumers,
          failed_deliveries: this.failedDeliveries,
          event_loop_delay_p50_ms: Math.round(delay.percentile(50) / 1e4) / 100,
          event_loop_delay_p99_ms: Math.round(delay.percentile(99) / 1e4) / 100,
          cpu_percent: Math.round(((used.user + used.system) / 1000 / wall) * 1000) / 10,
          // RSS split: the JS heap (used and reserved), memory outside it that JS objects hold (buffers), and the rest is
          // native (sockets, parsers, the allocator's own overhead; docs/stream.md "Memory").
          rss_mb: Math.round(memory.rss / 1e5) / 10,
          heap_used_mb: Math.round(memory.heapUsed / 1e5) / 10,
          heap_total_mb: Math.round(memory.heapTotal / 1e5) / 10,
          external_mb: Math.round(memory.external / 1e5) / 10,
        });
      }
      delivered = this.delivered;
      delay.reset();
    }, TICK_MS);
    this.timer.unref?.();
    log.info("stream hub started", { bus: this.subscription.kind, last_seq: this.lastSeq });
  }

  notify(seq: number): void {
    if (seq <= this.target) return;
    this.target = seq;
    // While the pacer is still writing the last batch, the new rows wait for it to finish (pace() pumps then): each
    // stream then gets one delivery per round of the pacer, written as the group's shared bytes, instead of a queue of
    // several to be joined per stream (docs/stream.md "Fan-out").
    if (!this.pacing) this.pump();
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
        // Rows left: the read failed (retried in 500 ms), or the pacer is writing (it pumps when it is done).
        if (this.target > this.lastSeq && this.subscribers.size && !this.pacing) setTimeout(() => this.pump(), 500).unref?.();
      });
  }

  private async drain(): Promise<void> {
    const db = await getDb();
    while (this.target > this.lastSeq && !this.pacing) {
      if (this.subscribers.size === 0) {
        // Nobody to tell: a stream that opens later replays from the database up to lastSeq.
        this.lastSeq = this.target;
        return;
      }
      const upto = this.target;
      const page = await readEvents(db, this.lastSeq, upto, PAGE);
      const withAbnormal = [...this.groups.values()].some((g) => g.values().next().value?.filter.topics.includes("abnormal"));
      const messages = await toMessages(db, page.events, withAbnormal);
      // A full page may have more behind it; a short one reached `upto`.
      this.lastSeq = page.full && page.lastSeq !== null ? page.lastSeq : upto;
      for (const group of this.groups.values()) {
        const filter = group.values().next().value?.filter;
        if (!filter) continue;
        const mine = messages.filter((m) => matches(filter, m));
        if (!mine.length) continue;
        const delivery: Delivery = {
          messages: mine,
          bytes: join(mine.map(encodedMessage)),
          first: mine[0].cursor,
          last: mine[mine.length - 1].cursor,
        };
        for (const subscriber of group) {
          // One stream that cannot take its batch is closed; the others still get theirs.
          try {
            subscriber.deliver(delivery);
            this.delivered += mine.length;
          } catch (error) {
            this.failedDeliveries++;
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
  }

  /** Asks the pacer to let `subscriber` write what it has queued: WAKES_PER_TURN per turn, WRITES_PER_S at most. */
  wake(subscriber: HubSubscriber): void {
    this.toWake.add(subscriber);
    if (this.pacing) return;
    this.pacing = true;
    setImmediate(() => this.pace());
  }

  private pace(): void {
    const now = performance.now();
    this.tokens = Math.min(WRITES_PER_S / 10, this.tokens + ((now - this.tokensAt) / 1000) * WRITES_PER_S);
    this.tokensAt = now;
    let woken = 0;
    for (const s of this.toWake) {
      if (woken >= WAKES_PER_TURN || this.tokens < 1) break;
      this.toWake.delete(s);
      woken++;
      this.tokens--;
      try {
        s.flush?.();
      } catch (error) {
        log.warn("stream hub: a stream's write failed", errorFields(error));
      }
    }
    if (this.toWake.size === 0) {
      this.pacing = false;
      if (this.target > this.lastSeq) this.pump();
    } else if (this.tokens >= 1) {
      setImmediate(() => this.pace());
    } else {
      setTimeout(() => this.pace(), Math.ceil(1000 / WRITES_PER_S)).unref?.();
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

  /** Distinct filters among open streams (each is one delivery per batch). */
  get filterGroups(): number {
    return this.groups.size;
  }

  add(subscriber: HubSubscriber): void {
    this.subscribers.add(subscriber);
    const key = filterKey(subscriber.filter);
    const group = this.groups.get(key) ?? new Set<HubSubscriber>();
    group.add(subscriber);
    this.groups.set(key, group);
  }

  remove(subscriber: HubSubscriber): void {
    this.subscribers.delete(subscriber);
    this.toWake.delete(subscriber);
    const key = filterKey(subscriber.filter);
    const group = this.groups.get(key);
    if (group?.delete(subscriber) && group.size === 0) this.groups.delete(key);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
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
