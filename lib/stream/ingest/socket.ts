// One upstream websocket that stays up: reconnects with capped exponential backoff and jitter, sends its
// subscriptions again on every open, pings on the upstream's own schedule (text PING, filtered before JSON.parse),
// and has a watchdog: a socket that delivers no data for WORKER_WATCHDOG_S is taken as stalled and replaced, even
// if it is still open and still answers pings — the failure users report on Polymarket's sockets
// (Polymarket/real-time-data-client#35: "onMessage stops firing even though readyState is still OPEN and pings are
// working"; #42: "constant disconnects and hangs"). Each time data resumes after an outage the owner is told the
// outage's span, so it can fill the gap from the REST tape.
import WebSocket from "ws";
import { backoffMs } from "@/lib/backoff";
import { errorFields, log } from "@/lib/log";

export interface ResilientSocketOptions {
  name: string;
  url: string;
  /** Messages to send after every (re)connect. */
  subscribe: () => string[];
  onMessage: (data: unknown) => void;
  /** Called once data flows again after an outage that began at `downSinceMs` (the last data before it). */
  onRecovered: (downSinceMs: number) => void;
  pingText: string;
  pingIntervalMs: number;
  watchdogMs: number;
  /** A socket whose subscriptions may be quiet for long (a few small markets): a PONG counts as a sign of life. */
  quietAllowed?: boolean;
  /** Told each time the upstream closes the socket, with the close code (1013: slow consumer). */
  onClose?: (code: number) => void;
}

export interface SocketStats {
  connects: number;
  reconnects: number;
  stalls: number;
  messages: number;
}

const BASE_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 30_000;
/**
 * After a `1013` close ("slow consumer: send buffer full", measured on the market channel: docs/stream.md) the socket
 * waits at least this long before it connects again, so a reader that fell behind does not reconnect into the same
 * flood at once.
 */
export const SLOW_CONSUMER_BACKOFF_MS = 5_000;

export class ResilientSocket {
  readonly stats: SocketStats = { connects: 0, reconnects: 0, stalls: 0, messages: 0 };
  private ws: WebSocket | null = null;
  private closed = false;
  private attempt = 0;
  private lastDataMs = Date.now();
  private outageSinceMs: number | null = null;
  private timers: NodeJS.Timeout[] = [];
  private retry: NodeJS.Timeout | null = null;
  private minDelayMs = 0;

  constructor(private readonly options: ResilientSocketOptions) {}

  start(): void {
    this.connect();
    const watchdog = setInterval(() => this.checkWatchdog(), Math.max(250, Math.min(1000, this.options.watchdogMs / 4)));
    const ping = setInterval(() => {
      if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(this.options.pingText);
    }, this.options.pingIntervalMs);
    for (const t of [watchdog, ping]) t.unref?.();
    this.timers.push(watchdog, ping);
  }

  /** Sends on the open socket (new subscriptions); they are also re-sent on every reconnect. */
  send(text: string): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(text);
  }

  private connect(): void {
    if (this.closed) return;
    const ws = new WebSocket(this.options.url, { handshakeTimeout: 10_000 });
    this.ws = ws;
    ws.on("open", () => {
      this.stats.connects++;
      if (this.stats.connects > 1) this.stats.reconnects++;
      this.attempt = 0;
      // The watchdog measures silence from now: a fresh socket gets its full allowance.
      this.lastDataMs = Date.now();
      for (const message of this.options.subscribe()) ws.send(message);
    });
    ws.on("message", (raw) => {
      // ws hands a Buffer over (its default binaryType, "nodebuffer").
      const text = (raw as Buffer).toString();
      // PONG / pong / plain-text errors are not data (and not JSON).
      if (!text.startsWith("{") && !text.startsWith("[")) {
        if (this.options.quietAllowed) this.lastDataMs = Date.now();
        return;
      }
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch {
        return;
      }
      this.stats.messages++;
      this.lastDataMs = Date.now();
      if (this.outageSinceMs !== null) {
        const since = this.outageSinceMs;
        this.outageSinceMs = null;
        this.options.onRecovered(since);
      }
      this.options.onMessage(data);
    });
    ws.on("error", (error) => log.warn(`${this.options.name}: socket error`, errorFields(error)));
    ws.on("close", (code: number) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (code === 1013) this.minDelayMs = SLOW_CONSUMER_BACKOFF_MS;
      this.options.onClose?.(code);
      this.markOutage();
      this.scheduleReconnect();
    });
  }

  private markOutage(): void {
    this.outageSinceMs ??= this.lastDataMs;
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retry) return;
    this.attempt++;
    const delay = Math.max(this.minDelayMs, backoffMs(this.attempt - 1, { baseMs: BASE_BACKOFF_MS, maxMs: MAX_BACKOFF_MS }));
    this.minDelayMs = 0;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect();
    }, delay);
    this.retry.unref?.();
  }

  private checkWatchdog(): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.lastDataMs < this.options.watchdogMs) return;
    this.stats.stalls++;
    log.warn(`${this.options.name}: no data for ${this.options.watchdogMs} ms on an open socket; reconnecting`);
    this.markOutage();
    this.ws = null;
    ws.removeAllListeners("close");
    ws.on("error", () => undefined);
    ws.terminate();
    this.scheduleReconnect();
  }

  stop(): void {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    if (this.retry) clearTimeout(this.retry);
    this.ws?.terminate();
  }
}
