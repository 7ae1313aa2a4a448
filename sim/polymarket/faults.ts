// Fault injection and request counters for tests. A fault rule matches requests by API ("gamma" | "data" | "clob"
// or "*") and an optional path prefix inside that API; the newest matching rule wins; `count` limits it to the next
// N matching requests.

export type FaultTarget = "gamma" | "data" | "clob" | "*";
export type FaultMode = "latency" | "error" | "rate_limit" | "malformed" | "truncated" | "hang" | "cloudflare" | "none";

export interface Fault {
  target: FaultTarget;
  /** Path prefix inside the API, e.g. "/trades" or "/events/keyset". Omitted: every path. */
  path?: string;
  mode: FaultMode;
  /** latency: delay before the normal answer (default 1000). */
  latency_ms?: number;
  /** error: HTTP status (default 500). */
  status?: number;
  /** rate_limit: Retry-After seconds (default 1). */
  retry_after_s?: number;
  /** Affect only the next N matching requests. Omitted: until cleared. */
  count?: number;
}

const TARGETS = new Set(["gamma", "data", "clob", "*"]);
const MODES = new Set(["latency", "error", "rate_limit", "malformed", "truncated", "hang", "cloudflare", "none"]);

export function parseFault(input: unknown): Fault {
  if (!input || typeof input !== "object") throw new Error("fault must be a JSON object");
  const f = input as Record<string, unknown>;
  if (typeof f.target !== "string" || !TARGETS.has(f.target)) throw new Error('target must be "gamma", "data", "clob" or "*"');
  if (typeof f.mode !== "string" || !MODES.has(f.mode)) throw new Error(`mode must be one of ${[...MODES].join(", ")}`);
  if (f.path !== undefined && (typeof f.path !== "string" || !f.path.startsWith("/")))
    throw new Error('path must be a string starting with "/"');
  const number = (key: string, min: number, max: number): number | undefined => {
    const v = f[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "number" || !Number.isFinite(v) || v < min || v > max) throw new Error(`${key} must be a number in [${min}, ${max}]`);
    return v;
  };
  return {
    target: f.target as FaultTarget,
    path: f.path,
    mode: f.mode as FaultMode,
    latency_ms: number("latency_ms", 0, 600_000),
    status: number("status", 100, 599),
    retry_after_s: number("retry_after_s", 0, 86_400),
    count: number("count", 1, 1_000_000),
  };
}

interface Rule {
  fault: Fault;
  remaining: number;
}

export class FaultRegistry {
  private rules: Rule[] = [];

  set(fault: Fault): void {
    this.rules = this.rules.filter((r) => !(r.fault.target === fault.target && (r.fault.path ?? "") === (fault.path ?? "")));
    if (fault.mode === "none") return;
    this.rules.push({ fault, remaining: fault.count ?? Infinity });
  }

  clear(): void {
    this.rules = [];
  }

  list(): (Fault & { remaining: number | null })[] {
    return this.rules.map((r) => ({ ...r.fault, remaining: Number.isFinite(r.remaining) ? r.remaining : null }));
  }

  /** The fault to apply to this request, consuming one use of a counted rule. */
  take(target: string, path: string): Fault | null {
    for (let i = this.rules.length - 1; i >= 0; i--) {
      const rule = this.rules[i];
      if (rule.fault.target !== "*" && rule.fault.target !== target) continue;
      if (rule.fault.path && !path.startsWith(rule.fault.path)) continue;
      rule.remaining--;
      if (rule.remaining <= 0) this.rules.splice(i, 1);
      return rule.fault;
    }
    return null;
  }
}

export class Counters {
  private readonly counts = new Map<string, number>();

  hit(key: string): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  snapshot(): Record<string, number> {
    return Object.fromEntries([...this.counts.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }

  reset(): void {
    this.counts.clear();
  }
}
