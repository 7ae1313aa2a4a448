// The CDN in front of the Data API (reality `cdnCache`; SOURCES.md, "Live feeds", a third party's measurements):
// answers carry `Cache-Control: public, max-age=300`; the CDN keys them by the full URL (path and query), ignores the
// request's own no-cache headers, serves a hit with `x-cache: Hit from cloudfront` and an `Age` counting up to 300,
// then fetches again. A query parameter that changes on every request (a cache-buster) misses every time.
import type { SimResponse } from "./http-types";

export const CDN_MAX_AGE_S = 300;

interface Entry {
  response: SimResponse;
  storedAtMs: number;
}

export class CdnCache {
  private readonly entries = new Map<string, Entry>();
  hits = 0;
  misses = 0;

  /** The cached answer for this URL while it is younger than max-age, else a fresh one (stored if it is a 200). */
  serve(url: string, nowMs: number, fresh: () => SimResponse): SimResponse {
    const entry = this.entries.get(url);
    if (entry && nowMs - entry.storedAtMs < CDN_MAX_AGE_S * 1000) {
      this.hits++;
      const age = Math.max(0, Math.floor((nowMs - entry.storedAtMs) / 1000));
      return { ...entry.response, headers: { ...entry.response.headers, ...cacheHeaders("Hit"), Age: String(age) } };
    }
    this.misses++;
    const response = fresh();
    if (response.status !== 200) return response;
    // Bounded: a cache-busting client makes every URL new; the oldest entries go first.
    if (this.entries.size >= 50_000) this.entries.delete(this.entries.keys().next().value!);
    this.entries.delete(url);
    this.entries.set(url, { response, storedAtMs: nowMs });
    return { ...response, headers: { ...response.headers, ...cacheHeaders("Miss"), Age: "0" } };
  }
}

function cacheHeaders(state: "Hit" | "Miss"): Record<string, string> {
  return { "Cache-Control": `public, max-age=${CDN_MAX_AGE_S}`, "x-cache": `${state} from cloudfront` };
}
