// `resolution_context`: marks a price move or a trade that sits right after a step of the market's resolution
// (a proposal, a dispute, a settlement), because such a move is the settlement mechanic, not news. Pure: the
// market's resolution events and its price series in, a sentence and its figures out.
import { type PricePoint, sampleAtOrBefore } from "@/lib/analytics/changes";

export type ResolutionEventKind = "proposal" | "dispute" | "settlement";

export interface ResolutionEvent {
  kind: ResolutionEventKind;
  /** Unix seconds. */
  at: number;
  /** The outcome proposed (or settled on) in words; null for a dispute. */
  outcome: string | null;
}

export interface ResolutionContext {
  kind: ResolutionEventKind;
  at: string;
  outcome: string | null;
  price_before: number | null;
  price_after: number | null;
  minutes_after: number | null;
  text: string;
}

/** How long after a resolution step a move still counts as its consequence. */
export const DEFAULT_REACTION_SECONDS = 30 * 60;

const clock = (seconds: number) => {
  const iso = new Date(seconds * 1000).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
};
const price = (p: number) => String(Math.round(p * 1000) / 1000);
const describe = (event: ResolutionEvent) =>
  event.kind === "dispute"
    ? `dispute at ${clock(event.at)}`
    : `${event.kind}${event.outcome ? ` for ${event.outcome}` : ""} at ${clock(event.at)}`;

/** The latest event at or before `at` and no more than `reactionSeconds` earlier. */
function eventBefore(events: readonly ResolutionEvent[], at: number, reactionSeconds: number): ResolutionEvent | null {
  let found: ResolutionEvent | null = null;
  for (const event of events) {
    if (event.at <= at && event.at >= at - reactionSeconds && (!found || event.at > found.at)) found = event;
  }
  return found;
}

/**
 * Context for a move over [start, end] of one outcome's series: the latest resolution step inside the move's
 * window (or up to `reactionSeconds` before it), with the price in force at that step and the point furthest from
 * it within `reactionSeconds` after it. Null when no step is that close, i.e. the move is not a resolution mechanic.
 */
export function moveResolutionContext(
  move: { start: number; end: number },
  series: readonly PricePoint[],
  events: readonly ResolutionEvent[],
  reactionSeconds = DEFAULT_REACTION_SECONDS,
): ResolutionContext | null {
  const event = eventBefore(events, move.end, move.end - move.start + reactionSeconds);
  if (!event) return null;
  const before = sampleAtOrBefore(series, event.at);
  let after: PricePoint | null = null;
  for (const point of series) {
    if (point.t <= event.at || point.t > event.at + reactionSeconds) continue;
    if (!after || (before && Math.abs(point.p - before.p) > Math.abs(after.p - before.p))) after = point;
  }
  const minutes = after ? Math.max(1, Math.ceil((after.t - event.at) / 60)) : null;
  const text =
    before && after
      ? `${describe(event)}; price moved from ${price(before.p)} to ${price(after.p)} within ${minutes} minutes after it`
      : `${describe(event)}, within this move's window`;
  return {
    kind: event.kind,
    at: new Date(event.at * 1000).toISOString(),
    outcome: event.outcome,
    price_before: before ? before.p : null,
    price_after: after ? after.p : null,
    minutes_after: minutes,
    text,
  };
}

/** Context for a trade at `tradeAt`: the resolution step it followed within `reactionSeconds`, if any. */
export function tradeResolutionContext(
  tradeAt: number,
  events: readonly ResolutionEvent[],
  reactionSeconds = DEFAULT_REACTION_SECONDS,
): ResolutionContext | null {
  const event = eventBefore(events, tradeAt, reactionSeconds);
  if (!event) return null;
  const minutes = Math.max(0, Math.floor((tradeAt - event.at) / 60));
  return {
    kind: event.kind,
    at: new Date(event.at * 1000).toISOString(),
    outcome: event.outcome,
    price_before: null,
    price_after: null,
    minutes_after: minutes,
    text: `trade ${minutes} minutes after the ${describe(event)}`,
  };
}
