// Which tokens the worker's market channel subscribes, on how many sockets (docs/stream.md, "Which markets the
// worker subscribes"). Polymarket lists about 23k open markets (≈ 46k tokens); an active token sends ≈ 48
// `price_change` frames a second, and a reader that falls behind is closed with 1013 (docs/upstream-live.md). So the
// set is bounded and pruned:
// - the rule: open markets with a 24 h volume of at least WORKER_MIN_VOLUME_24H_USD, busiest first, capped at
//   WORKER_MAX_TOKENS tokens; a market announced by `new_market` is subscribed at once and kept for NEW_MARKET_GRACE_MS
//   (it cannot have a 24 h volume yet); a market `market_resolved` names is dropped and not taken back;
// - tokens that leave the set are unsubscribed (`{"assets_ids": [...], "operation": "unsubscribe"}`, docs:
//   market-channel), and a socket left empty is closed;
// - at most WORKER_MAX_ASSETS_PER_SOCKET tokens a socket, WORKER_MAX_SOCKETS sockets, one opened every
//   WORKER_CONNECT_INTERVAL_MS; custom features on one socket only;
// - a 1013 close halves the tokens per socket (down to MIN_ASSETS_PER_SOCKET) and moves the closed socket's excess to
//   other sockets (the socket itself backs off: socket.ts).
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { errorFields, log } from "@/lib/log";
import { metrics } from "@/lib/metrics/registry";
import type { ResilientSocket } from "./socket";

export const NEW_MARKET_GRACE_MS = 60 * 60_000;
export const MIN_ASSETS_PER_SOCKET = 25;
/**
 * Until a sampler pass has completed, the markets table is empty or holds part of a first pass (a pass writes its
 * events page by page): look again soon, not at the refresh interval, or a worker started beside a new install would
 * subscribe the first pages' markets only, for a minute.
 */
const FIRST_LOOK_MS = 2_000;
const DROPPED_KEEP_MS = 6 * 60 * 60_000;

export interface SubscriptionRule {
  minVolume24hUsd: number;
  maxTokens: number;
  maxSockets: number;
  maxAssetsPerSocket: number;
  connectIntervalMs: number;
}

export const ruleFromEnv = (): SubscriptionRule => ({
  minVolume24hUsd: env.WORKER_MIN_VOLUME_24H_USD,
  maxTokens: env.WORKER_MAX_TOKENS,
  maxSockets: env.WORKER_MAX_SOCKETS,
  maxAssetsPerSocket: env.WORKER_MAX_ASSETS_PER_SOCKET,
  connectIntervalMs: env.WORKER_CONNECT_INTERVAL_MS,
});

export interface RuleListing {
  /** The rule's tokens, busiest first. */
  tokens: string[];
  /** How many more the rule would have selected past its cap. */
  overCap: number;
  /** Whether a sampler pass has completed, so that the markets listed are a whole pass's, not part of the first. */
  passCompleted: boolean;
}

/** The tokens the rule selects from the database, busiest first, and how many more it would have selected. */
export async function tokensByRule(rule: SubscriptionRule): Promise<RuleListing> {
  const db = await getDb();
  // Read first: a pass that completes between the two reads has written all its markets before the listing.
  const completed = await db.samplerRun.findFirst({ where: { status: "ok" }, select: { id: true } });
  const rows = await db.$queryRawUnsafe<{ token_id: string; total: number }[]>(
    `SELECT o.token_id, count(*) OVER ()::int AS total
       FROM outcomes o JOIN markets m ON m.id = o.market_id
      WHERE m.open AND m.volume_24h_usd >= $1
      ORDER BY m.volume_24h_usd DESC, m.id, o.index
      LIMIT $2`,
    rule.minVolume24hUsd,
    rule.maxTokens,
  );
  return {
    tokens: rows.map((r) => r.token_id),
    overCap: Math.max(0, (rows[0]?.total ?? 0) - rows.length),
    passCompleted: completed !== null,
  };
}

interface SocketEntry {
  name: string;
  socket: ResilientSocket;
  assets: Set<string>;
  custom: boolean;
  startTimer: NodeJS.Timeout | null;
}

export interface MarketSubscriptionsOptions {
  openSocket: (name: string, assets: Set<string>, custom: boolean, onClose: (code: number) => void) => ResilientSocket;
  onDropped: (tokens: string[]) => void;
  rule?: SubscriptionRule;
  listTokens?: (rule: SubscriptionRule) => Promise<RuleListing>;
  now?: () => number;
}

export class MarketSubscriptions {
  private readonly rule: SubscriptionRule;
  private readonly sockets: SocketEntry[] = [];
  private readonly socketOf = new Map<string, SocketEntry>();
  private readonly newMarkets = new Map<string, number>();
  private readonly dropped = new Map<string, number>();
  private perSocket: number;
  private nextConnectMs = 0;
  private nextSocket = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Whether the last listing was of a completed pass (until then the worker looks again every FIRST_LOOK_MS). */
  private listingWhole = false;
  private readonly counters = {
    tokens_over_cap: 0,
    tokens_unplaced: 0,
    unsubscribed: 0,
    slow_consumer_closes: 0,
    sockets_opened: 0,
    sockets_closed: 0,
  };
  private readonly now: () => number;

  constructor(private readonly options: MarketSubscriptionsOptions) {
    this.rule = options.rule ?? ruleFromEnv();
    this.perSocket = this.rule.maxAssetsPerSocket;
    this.now = options.now ?? Date.now;
  }

  start(): void {
    const schedule = () => {
      if (this.stopped) return;
      const wait = this.listingWhole ? env.WORKER_SUBSCRIPTIONS_REFRESH_S * 1000 : FIRST_LOOK_MS;
      this.timer = setTimeout(() => void this.refresh().finally(schedule), wait);
      this.timer.unref?.();
    };
    void this.refresh().finally(schedule);
  }

  /** Reads the rule's tokens and brings the subscriptions to them (tokens out of the set are unsubscribed). */
  async refresh(): Promise<void> {
    try {
      const listed = await (this.options.listTokens ?? tokensByRule)(this.rule);
      this.listingWhole = listed.passCompleted;
      this.counters.tokens_over_cap = listed.overCap;
      this.apply(listed.tokens);
    } catch (error) {
      log.warn("worker: listing the markets to subscribe failed", errorFields(error));
    }
  }

  /** Brings the subscriptions to `ruleTokens` (busiest first) plus the new markets still in their grace period. */
  apply(ruleTokens: readonly string[]): void {
    const now = this.now();
    for (const [t, at] of this.newMarkets) if (now - at >= NEW_MARKET_GRACE_MS) this.newMarkets.delete(t);
    for (const [t, at] of this.dropped) if (now - at >= DROPPED_KEEP_MS) this.dropped.delete(t);
    const wanted: string[] = [];
    const seen = new Set<string>();
    for (const t of [...this.newMarkets.keys(), ...ruleTokens]) {
      if (seen.has(t) || this.dropped.has(t)) continue;
      seen.add(t);
      if (wanted.length < this.rule.maxTokens) wanted.push(t);
    }
    const keep = new Set(wanted);
    this.unsubscribe([...this.socketOf.keys()].filter((t) => !keep.has(t)));
    this.place(wanted.filter((t) => !this.socketOf.has(t)));
  }

  /** A market announced by `new_market`: its tokens now, for the grace period (the rule cannot see it yet). */
  addNewMarket(_conditionId: string, tokens: readonly string[]): void {
    const now = this.now();
    const fresh = tokens.filter((t) => !this.dropped.has(t));
    for (const t of fresh) this.newMarkets.set(t, now);
    this.place(fresh.filter((t) => !this.socketOf.has(t)).slice(0, Math.max(0, this.rule.maxTokens - this.socketOf.size)));
  }

  /** A resolved (or closed) market: its tokens are unsubscribed and stay out. */
  dropMarket(_conditionId: string, tokens: readonly string[]): void {
    const now = this.now();
    for (const t of tokens) {
      this.dropped.set(t, now);
      this.newMarkets.delete(t);
    }
    this.unsubscribe(tokens.filter((t) => this.socketOf.has(t)));
  }

  isSubscribed(token: string): boolean {
    return this.socketOf.has(token);
  }

  private unsubscribe(tokens: readonly string[]): void {
    if (!tokens.length) return;
    const bySocket = new Map<SocketEntry, string[]>();
    for (const t of tokens) {
      const entry = this.socketOf.get(t);
      if (!entry) continue;
      this.socketOf.delete(t);
      entry.assets.delete(t);
      bySocket.set(entry, [...(bySocket.get(entry) ?? []), t]);
    }
    for (const [entry, list] of bySocket) {
      this.counters.unsubscribed += list.length;
      if (entry.assets.size === 0) this.closeSocket(entry);
      else entry.socket.send(JSON.stringify({ assets_ids: list, operation: "unsubscribe" }));
    }
    this.options.onDropped([...tokens]);
    this.updateMetrics();
  }

  private place(tokens: readonly string[]): void {
    let rest = [...tokens];
    for (const entry of this.sockets) {
      if (!rest.length) break;
      const room = this.perSocket - entry.assets.size;
      if (room <= 0) continue;
      const batch = rest.slice(0, room);
      rest = rest.slice(room);
      for (const t of batch) {
        entry.assets.add(t);
        this.socketOf.set(t, entry);
      }
      // A socket not started yet sends its whole set when it opens.
      if (!entry.startTimer) entry.socket.send(JSON.stringify({ assets_ids: batch, operation: "subscribe" }));
    }
    while (rest.length && this.sockets.length < this.rule.maxSockets) {
      const batch = rest.slice(0, this.perSocket);
      rest = rest.slice(this.perSocket);
      this.openSocket(batch);
    }
    this.counters.tokens_unplaced = rest.length;
    if (rest.length) log.warn("worker: market-channel socket cap reached; tokens left unsubscribed", { tokens: rest.length });
    this.updateMetrics();
  }

  private openSocket(batch: readonly string[]): void {
    const assets = new Set(batch);
    const custom = !this.sockets.some((s) => s.custom);
    const name = `market channel ${this.nextSocket++}`;
    const holder: { entry?: SocketEntry } = {};
    const socket = this.options.openSocket(name, assets, custom, (code) => holder.entry && this.onClose(holder.entry, code));
    const entry: SocketEntry = { name, socket, assets, custom, startTimer: null };
    holder.entry = entry;
    for (const t of batch) this.socketOf.set(t, entry);
    this.sockets.push(entry);
    this.counters.sockets_opened++;
    // Paced: one connect per interval, never a burst of hundreds.
    const now = this.now();
    const at = Math.max(now, this.nextConnectMs);
    this.nextConnectMs = at + this.rule.connectIntervalMs;
    entry.startTimer = setTimeout(() => {
      entry.startTimer = null;
      if (!this.stopped) socket.start();
    }, at - now);
    entry.startTimer.unref?.();
  }

  private closeSocket(entry: SocketEntry): void {
    if (entry.startTimer) clearTimeout(entry.startTimer);
    entry.socket.stop();
    this.sockets.splice(this.sockets.indexOf(entry), 1);
    this.counters.sockets_closed++;
  }

  private onClose(entry: SocketEntry, code: number): void {
    if (code !== 1013 || !this.sockets.includes(entry)) return;
    // Slow consumer: fewer tokens per socket from now on, and this socket's excess moves elsewhere.
    this.counters.slow_consumer_closes++;
    this.perSocket = Math.max(MIN_ASSETS_PER_SOCKET, Math.floor(Math.min(this.perSocket, entry.assets.size) / 2));
    const excess = [...entry.assets].slice(this.perSocket);
    for (const t of excess) {
      entry.assets.delete(t);
      this.socketOf.delete(t);
    }
    log.warn("worker: market channel closed with 1013 (slow consumer); sharding smaller", {
      socket: entry.name,
      per_socket: this.perSocket,
      moved: excess.length,
    });
    this.place(excess);
  }

  socketStats() {
    return this.sockets.map((s) => ({ name: s.name, ...s.socket.stats }));
  }

  stats() {
    return {
      tokens: this.socketOf.size,
      sockets: this.sockets.length,
      per_socket_cap: this.perSocket,
      new_market_tokens: this.newMarkets.size,
      dropped_tokens: this.dropped.size,
      rule: { ...this.rule },
      ...this.counters,
    };
  }

  private updateMetrics(): void {
    metrics().workerSockets.set({ feed: "market" }, this.sockets.length);
    metrics().workerTokens.set(this.socketOf.size);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    for (const s of this.sockets) {
      if (s.startTimer) clearTimeout(s.startTimer);
      s.socket.stop();
    }
  }
}
