// Load generation with autocannon. Percentiles are computed from every response time autocannon reports (its own
// summary has no p95), so p50/p95/p99 come from one list per run.
import autocannon from "autocannon";

export interface LoadResult {
  /** Every response time (ms), sorted; kept so that interleaved runs can be merged. */
  times: number[];
  seconds: number;
  requests: number;
  rps: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
}

export interface LoadOptions {
  url: string;
  /** GET unless said otherwise. */
  method?: string;
  headers?: Record<string, string>;
  connections?: number;
  seconds: number;
  /** Varies the path of each request (e.g. a random market id); otherwise every request hits `url`. */
  path?: () => string;
  timeoutS?: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

const round = (ms: number, digits = 2) => Math.round(ms * 10 ** digits) / 10 ** digits;

export async function load(options: LoadOptions): Promise<LoadResult> {
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  const instance = autocannon({
    url: options.url,
    method: options.method ?? "GET",
    headers: options.headers,
    connections: options.connections ?? 10,
    duration: options.seconds,
    timeout: options.timeoutS ?? 30,
    ...(options.path ? { requests: [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, path: options.path!() }) }] } : {}),
  } as autocannon.Options) as unknown as autocannon.Instance;
  instance.on("response", (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    times.push(responseTime);
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
  });
  // autocannon's instance is also a promise of its result, which its types do not say.
  const result = await (instance as unknown as Promise<autocannon.Result>);
  return summarize(times, options.seconds, statuses, result.errors, result.timeouts);
}

export function summarize(times: number[], seconds: number, statuses: Record<string, number>, errors = 0, timeouts = 0): LoadResult {
  times.sort((a, b) => a - b);
  return {
    times,
    seconds,
    requests: times.length,
    rps: Math.round(times.length / seconds),
    p50_ms: round(percentile(times, 50)),
    p95_ms: round(percentile(times, 95)),
    p99_ms: round(percentile(times, 99)),
    statuses,
    errors,
    timeouts,
  };
}

/**
 * Runs each target for `seconds` split into `rounds` short runs, taking turns (A B C, A B C, ...), and merges each
 * target's runs: a change in background load then hits every target alike instead of whichever ran at the time.
 */
export async function interleaved<T extends { url: string; method?: string; headers?: Record<string, string>; path?: () => string }>(
  targets: T[],
  seconds: number,
  rounds: number,
  onRound?: (round: number) => void,
): Promise<LoadResult[]> {
  const runs: LoadResult[][] = targets.map(() => []);
  for (let round = 0; round < rounds; round++) {
    onRound?.(round);
    for (const [i, target] of targets.entries())
      runs[i].push(
        await load({ url: target.url, method: target.method, headers: target.headers, path: target.path, seconds: seconds / rounds }),
      );
  }
  return runs.map((list) => {
    const statuses: Record<string, number> = {};
    for (const r of list) for (const [code, n] of Object.entries(r.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
    return summarize(
      list.flatMap((r) => r.times),
      seconds,
      statuses,
      list.reduce((n, r) => n + r.errors, 0),
      list.reduce((n, r) => n + r.timeouts, 0),
    );
  });
}

/** Sequential requests, one at a time: the latency of a single request without queueing behind others. */
export async function sequential(
  count: number,
  send: (i: number) => Promise<Response>,
): Promise<{ p50_ms: number; p95_ms: number; max_ms: number; statuses: Record<string, number> }> {
  const times: number[] = [];
  const statuses: Record<string, number> = {};
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await send(i);
    await res.arrayBuffer();
    times.push(performance.now() - started);
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  }
  times.sort((a, b) => a - b);
  return { p50_ms: round(percentile(times, 50)), p95_ms: round(percentile(times, 95)), max_ms: round(times[times.length - 1]), statuses };
}

export const statusText = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .map(([code, n]) => `${code}×${n}`)
    .join(" ");
