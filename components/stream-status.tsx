"use client";
// The live stream's state, always visible next to a streamed table: live, paused (hidden tab) or reconnecting.
import type { StreamState } from "@/lib/queries/use-stream";

const LABELS: Record<StreamState, string> = {
  connecting: "Connecting…",
  live: "Live",
  reconnecting: "Reconnecting…",
  paused: "Paused",
};

export function StreamStatus({ state }: { state: StreamState }) {
  return (
    <span className={`stream-status stream-${state}`} data-testid="stream-status" data-state={state} role="status" aria-live="polite">
      <span className="stream-dot" aria-hidden="true" />
      {LABELS[state]}
    </span>
  );
}
