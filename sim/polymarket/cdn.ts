// The CDN in front of the Data API (reality `cdnCache`; SOURCES.md, "Live feeds", a third party's measurements):
// answers carry `Cache-Control: public, max-age=N`; the CDN keys them by the full URL (path and query), ignores the
// request's own no-cache headers, serves a hit with `x-cache: Hit from cloudfront` and an `Age` counting up to N,
// then fetches again. A query parameter that changes on every request (a cache-buster) misses every time.
// N is per path, as measured: 300 s for the trade lists (market and user forms), 15 s for `/v2/activity`. No source
// gives the other paths' headers (holders, positions, open interest, …), so they are served uncached, with none.
import type { SimResponse } from "./http-types";

/** The trade lists' max-age (research note §3.2: `/v2/trades`, also with `?user=`). */
export const CDN_MAX_AGE_S = 300;
/** `/v2/activity`'s max-age (research note §3.2). */
export const CDN_ACTIVITY_MAX_AGE_S = 15;

/**
 * The max-age the CDN applies to a Data API path (the path below `/data`), or null when no source gives one. v1
 * `/trades` and `/activity` are read as the same lists as their v2 forms (same host, same rows).
 */
export function cdnMaxAgeS(path: string): number | null {
  if (path === "/trades" || path === "/v2/trades") return CDN_MAX_AGE_S;
  if (path === "/activity" || path === "/v2/activity") return CDN_ACTIVITY_MAX_AGE_S;
  return null;
}

interface Entry {
  response: SimResponse;
  storedAtMs: number;
}

export class CdnCache {
  private readonly entries = new Map<string, Entry>();
  hits = 0;
  misses = 0;

  /** The cached answer for this URL while it is younger than `maxAgeS`, else a fresh one (stored if it is a 200). */
  serve(url: string, maxAgeS: number, nowMs: number, fresh: () => SimResponse): SimResponse {
    const entry = this.entries.get(url);
    if (entry && nowMs - entry.storedAtMs < maxAgeS * 1000) {
      this.hits++;
      const age = Math.max(0, Math.floor((nowMs - entry.storedAtMs) / 1000));
      return { ...entry.response, headers: { ...entry.response.headers, ...cacheHeaders("Hit", maxAgeS), Age: String(age) } };
    }
    this.misses++;
    const response = fresh();
    if (response.status !== 200) return response;
    // Bounded: a cache-busting client makes every URL new; the oldest entries go first.
    if (this.entries.size >= 50_000) this.entries.delete(this.entries.keys().next().value!);
    this.entries.delete(url);
    this.entries.set(url, { response, storedAtMs: nowMs });
    return { ...response, headers: { ...response.headers, ...cacheHeaders("Miss", maxAgeS), Age: "0" } };
  }
}

function cacheHeaders(state: "Hit" | "Miss", maxAgeS: number): Record<string, string> {
  return { "Cache-Control": `public, max-age=${maxAgeS}`, "x-cache": `${state} from cloudfront` };
}
