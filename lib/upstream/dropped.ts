// Items an upstream list carried that we could not use (an event without a slug, a market whose outcome id is not a
// decimal, a trade without a price). Each is dropped from its page, the rest of the page is used; here every drop is
// logged once per item (not once per page that repeats it) and counted per kind since the process started. The
// sampler also counts a pass's drops on its run record.
import { log } from "@/lib/log";
import type { DroppedItem, DroppedKind } from "./schemas/scalars";

const MAX_REMEMBERED = 10_000;

interface DroppedState {
  logged: Set<string>;
  counts: Partial<Record<DroppedKind, number>>;
}

const globalForDropped = globalThis as unknown as { __predmktDropped?: DroppedState };

function state(): DroppedState {
  globalForDropped.__predmktDropped ??= { logged: new Set(), counts: {} };
  return globalForDropped.__predmktDropped;
}

/** Counts and logs (once per item) what a page dropped; returns the same list for the caller to pass on. */
export function reportDropped(dropped: DroppedItem[], where: string): DroppedItem[] {
  if (dropped.length === 0) return dropped;
  const s = state();
  for (const item of dropped) {
    s.counts[item.kind] = (s.counts[item.kind] ?? 0) + 1;
    const key = `${item.kind}:${item.id ?? item.reason}`;
    if (s.logged.has(key)) continue;
    if (s.logged.size >= MAX_REMEMBERED) s.logged.clear();
    s.logged.add(key);
    log.warn("upstream item dropped", { where, kind: item.kind, id: item.id, reason: item.reason });
  }
  return dropped;
}

/** Items dropped per kind since this process started (for /api/health). */
export function droppedSinceStart(): Partial<Record<DroppedKind, number>> {
  return { ...state().counts };
}
