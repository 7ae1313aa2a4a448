"use client";
// The dashboard's live stream: an EventSource on /api/predmkt/stream with the dashboard token. EventSource cannot
// set headers and would reconnect with the URL it was made with (an expired token), so every reconnect is ours: on
// an error or the server's `end` (its maximum duration) the source is closed and reopened with a fresh token and the
// last cursor (`last_event_id`), after a capped backoff. Hidden tabs pause (no connection held); coming back resumes
// from the cursor, so nothing is missed in between.
import { backoffMs } from "@/lib/backoff";
import { useEffect, useRef, useState } from "react";
import { buildUrl, type QueryParams } from "./fetcher";
import { getDashboardToken, invalidateDashboardToken } from "./token";

export type StreamState = "connecting" | "live" | "reconnecting" | "paused";
type StreamEventName = "trade" | "tick" | "abnormal";

const MAX_BACKOFF_MS = 30_000;

export function useStream(
  params: QueryParams,
  onMessage: (event: StreamEventName, data: unknown) => void,
  options: { enabled?: boolean } = {},
): { state: StreamState; received: number } {
  const { enabled = true } = options;
  const [state, setState] = useState<StreamState>(() => (typeof document !== "undefined" && document.hidden ? "paused" : "connecting"));
  const [received, setReceived] = useState(0);
  const handler = useRef(onMessage);
  useEffect(() => {
    handler.current = onMessage;
  });
  const key = JSON.stringify(params);

  useEffect(() => {
    if (!enabled) return;
    let source: EventSource | null = null;
    let cursor: string | null = null;
    let attempt = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let stopped = false;

    const close = () => {
      source?.close();
      source = null;
      if (timer) clearTimeout(timer);
      timer = null;
    };
    const reconnect = (immediately = false) => {
      close();
      if (stopped || document.hidden) return;
      setState("reconnecting");
      const delay = immediately ? 0 : backoffMs(attempt, { baseMs: 1000, maxMs: MAX_BACKOFF_MS });
      attempt++;
      timer = setTimeout(() => void open(), delay);
    };
    const open = async () => {
      close();
      if (stopped) return;
      let token: string;
      try {
        token = await getDashboardToken();
      } catch {
        reconnect();
        return;
      }
      if (stopped || document.hidden) return;
      const url = buildUrl("/api/predmkt/stream", { ...(JSON.parse(key) as QueryParams), last_event_id: cursor ?? undefined }, token);
      const es = new EventSource(url);
      source = es;
      let opened = false;
      es.onopen = () => {
        opened = true;
        attempt = 0;
        setState("live");
      };
      for (const name of ["trade", "tick", "abnormal"] as const) {
        es.addEventListener(name, (e) => {
          const message = e as MessageEvent<string>;
          if (message.lastEventId) cursor = message.lastEventId;
          setReceived((n) => n + 1);
          handler.current(name, JSON.parse(message.data));
        });
      }
      // A replay cut at its bound names the cursor to resume from as the gap's id (docs/stream.md "Replay").
      es.addEventListener("gap", (e) => {
        const message = e as MessageEvent<string>;
        if (message.lastEventId) cursor = message.lastEventId;
      });
      // The server ends every stream after its maximum duration (or on revocation): resume at once with the cursor.
      es.addEventListener("end", () => reconnect(true));
      // EventSource hides the refusal's status: a stream that never opened may have carried an expired or revoked
      // token, so the next attempt fetches a fresh one (the backoff keeps that rare).
      es.onerror = () => {
        if (!opened) invalidateDashboardToken(token);
        reconnect();
      };
    };
    const onVisibility = () => {
      if (document.hidden) {
        close();
        setState("paused");
      } else {
        attempt = 0;
        void open();
        setState("reconnecting");
      }
    };
    document.addEventListener("visibilitychange", onVisibility);
    if (!document.hidden) void open();
    return () => {
      stopped = true;
      document.removeEventListener("visibilitychange", onVisibility);
      close();
    };
  }, [key, enabled]);

  return { state, received };
}
