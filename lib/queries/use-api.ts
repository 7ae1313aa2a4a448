"use client";
// One hook for every dashboard query: first paint comes from the server (initial body), then react-query refreshes
// through the public API. Failures never blank a table: react-query keeps the last good data, the refresh interval
// backs off (Retry-After on 429, doubling on upstream failures) and the component shows a calm notice.
import { backoffMs } from "@/lib/backoff";
import { keepPreviousData, type Query, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ApiProblem, apiGet, type QueryParams } from "./fetcher";
import type { Envelope, Initial } from "./types";

const MAX_BACKOFF_MS = 5 * 60_000;

interface UseApiOptions<T> {
  /** Server-rendered first body; used only while the params are the ones it was rendered for. */
  initial?: Initial<T>;
  initialParams?: QueryParams;
  /** Refresh period while healthy; 0 or undefined = no polling. */
  refreshMs?: number;
  enabled?: boolean;
}

function sameParams(a: QueryParams = {}, b: QueryParams = {}): boolean {
  const norm = (p: QueryParams) =>
    JSON.stringify(
      Object.entries(p)
        .filter(([, v]) => v !== undefined && v !== null && v !== "")
        .map(([k, v]) => [k, String(v)])
        .sort(),
    );
  return norm(a) === norm(b);
}

/**
 * Next refresh: the server's Retry-After on a 429, exponential backoff on failures, else the normal period.
 * @public exported for fetcher.test.ts, which reaches it through a module namespace knip cannot follow.
 */
export function nextRefreshMs(refreshMs: number | undefined, error: unknown, failureCount: number): number | false {
  if (error instanceof ApiProblem) {
    if (error.rateLimited) return Math.max((error.retryAfterS ?? 5) * 1000, refreshMs ?? 0);
    const base = refreshMs || 15_000;
    // Unjittered: a backed-off refresh must never come sooner than the period (docs/architecture.md, "Retries and timeouts").
    return backoffMs(failureCount - 1, { baseMs: base, maxMs: MAX_BACKOFF_MS, jitter: false });
  }
  return refreshMs ? refreshMs : false;
}

export function useApi<T>(path: string, params: QueryParams = {}, options: UseApiOptions<T> = {}) {
  const { initial, initialParams, refreshMs, enabled = true } = options;
  // Pinned at mount so react-query treats the server body as fresh for one refresh period, not as stale.
  const [mountedAt] = useState(() => Date.now());
  const useInitial = initial?.ok === true && sameParams(params, initialParams);
  const query = useQuery<Envelope<T>, ApiProblem>({
    queryKey: [path, params],
    queryFn: ({ signal }) => apiGet<Envelope<T>>(path, params, signal),
    initialData: useInitial ? initial.body : undefined,
    initialDataUpdatedAt: useInitial ? mountedAt : undefined,
    placeholderData: keepPreviousData,
    staleTime: refreshMs ? Math.max(1_000, refreshMs - 500) : 30_000,
    enabled,
    refetchInterval: (q: Query<Envelope<T>, ApiProblem>) => nextRefreshMs(refreshMs, q.state.error, q.state.fetchFailureCount),
    refetchIntervalInBackground: false,
    retry: (failureCount, error) => error instanceof ApiProblem && error.transient && !error.rateLimited && failureCount < 2,
    retryDelay: (attempt) => backoffMs(attempt, { baseMs: 2_000, maxMs: 20_000 }),
  });
  // react-query drops placeholder data when the new query fails; the last good body stays on screen instead (with the
  // component's notice saying it could not refresh), so a failure never blanks a panel that had rows.
  // Kept as state adjusted during render (React's pattern for a value derived from the previous render).
  const [lastGood, setLastGood] = useState<Envelope<T> | undefined>(undefined);
  if (query.data && !query.isPlaceholderData && query.data !== lastGood) setLastGood(query.data);
  const data = query.data ?? (query.isError ? lastGood : undefined);
  // A server-side failure for the first paint is shown until the client's own first attempt settles.
  const serverError = initial && !initial.ok && sameParams(params, initialParams) && !query.isFetched ? initial.error : null;
  return { ...query, data, serverError };
}
