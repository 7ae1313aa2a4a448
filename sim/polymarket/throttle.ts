// Cloudflare-style rate limiting at Polymarket's documented limits (docs.polymarket.com/api-reference/rate-limits):
// sliding 10-second windows per host and per endpoint; "requests over the limit are throttled (delayed/queued)
// rather than immediately rejected" — a request over the limit waits until the window has room, and only when that
// wait would be long is it refused with 429 and `Retry-After` (the Data API v2's documented answer). The peak count
// per window, and how many requests were delayed or refused, are the tests' evidence that a client stays within.

export const WINDOW_MS = 10_000;
/** Longest delay before a throttled request is refused instead. */
export const MAX_DELAY_MS = 4_000;

interface Limit {
  api: "gamma" | "data" | "clob";
  path: string | null;
  per10s: number;
}

const LIMITS: Limit[] = [
  { api: "gamma", path: null, per10s: 4000 },
  { api: "gamma", path: "/events", per10s: 500 },
  { api: "gamma", path: "/markets", per10s: 300 },
  { api: "gamma", path: "/comments", per10s: 200 },
  { api: "gamma", path: "/tags", per10s: 200 },
  { api: "gamma", path: "/public-search", per10s: 350 },
  { api: "data", path: null, per10s: 1000 },
  { api: "data", path: "/trades", per10s: 200 },
  { api: "data", path: "/positions", per10s: 150 },
  { api: "data", path: "/closed-positions", per10s: 150 },
  { api: "clob", path: null, per10s: 9000 },
  { api: "clob", path: "/prices-history", per10s: 1000 },
  { api: "clob", path: "/book", per10s: 1500 },
  { api: "clob", path: "/price", per10s: 1500 },
  { api: "clob", path: "/midpoint", per10s: 1500 },
];

const name = (l: Limit) => `/${l.api}${l.path ?? ""}`;

export interface ThrottleStats {
  /** Highest number of requests admitted in any 10 s window, with the documented limit. */
  peak: Record<string, { peak: number; limit: number }>;
  delayed: number;
  refused: number;
}

export class Throttle {
  private readonly sent = new Map<string, number[]>();
  private readonly peaks = new Map<string, number>();
  private delayed = 0;
  private refused = 0;

  private limitsFor(api: string, path: string): Limit[] {
    const bare = path.replace(/^\/v2(?=\/)/, "");
    return LIMITS.filter((l) => l.api === api && (l.path === null || bare === l.path || bare.startsWith(`${l.path}/`)));
  }

  private window(key: string, now: number): number[] {
    const list = this.sent.get(key) ?? [];
    let i = 0;
    while (i < list.length && list[i] <= now - WINDOW_MS) i++;
    if (i) list.splice(0, i);
    this.sent.set(key, list);
    return list;
  }

  /** How long this request must wait for room (0: now); the request is then counted at that time. */
  admit(api: string, path: string, now: number): { delayMs: number } | { retryAfterS: number } {
    const limits = this.limitsFor(api, path);
    let wait = 0;
    for (const l of limits) {
      const list = this.window(name(l), now);
      if (list.length >= l.per10s) wait = Math.max(wait, list[list.length - l.per10s] + WINDOW_MS - now);
    }
    if (wait > MAX_DELAY_MS) {
      this.refused++;
      return { retryAfterS: Math.ceil(wait / 1000) };
    }
    if (wait > 0) this.delayed++;
    for (const l of limits) {
      const list = this.window(name(l), now);
      // Counted when it will be served, so later arrivals see the queue in front of them.
      list.push(now + wait);
      list.sort((a, b) => a - b);
      const inWindow = list.filter((t) => t > now + wait - WINDOW_MS && t <= now + wait).length;
      this.peaks.set(name(l), Math.max(this.peaks.get(name(l)) ?? 0, inWindow));
    }
    return { delayMs: wait };
  }

  stats(): ThrottleStats {
    const peak: ThrottleStats["peak"] = {};
    for (const l of LIMITS) if (this.peaks.has(name(l))) peak[name(l)] = { peak: this.peaks.get(name(l))!, limit: l.per10s };
    return { peak, delayed: this.delayed, refused: this.refused };
  }

  reset(): void {
    this.sent.clear();
    this.peaks.clear();
    this.delayed = 0;
    this.refused = 0;
  }
}
