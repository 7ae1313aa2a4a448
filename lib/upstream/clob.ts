// CLOB client: price history; plus the parser for the market WebSocket's messages.
import { fetchUpstream } from "./http";
import { PricesHistorySchema, WsMessageSchema } from "./schemas";
import { WS_MARKET_SCHEMAS } from "./schemas/clob";
import type { NormalizedWsMessage, PriceHistoryInterval, PricePoint, UpstreamCallOptions } from "./types";

/** Resolution (minutes) per interval: enough points for a chart without thousands of them. */
export const FIDELITY_MINUTES: Record<PriceHistoryInterval, number> = { "1h": 1, "6h": 5, "1d": 15, "1w": 60, "1m": 240, max: 1440 };

/**
 * For resolved (closed) markets the CLOB answers an empty history at any fidelity below 12 hours
 * (Polymarket/py-clob-client#216 and #189), so their history is asked at 720 minutes or coarser.
 */
export const CLOSED_MARKET_MIN_FIDELITY = 720;

export interface PricesHistoryParams {
  interval?: PriceHistoryInterval;
  /** Minutes per point; defaults to FIDELITY_MINUTES[interval] (at least 720 for a closed market). */
  fidelity?: number;
  /** Unix seconds window instead of `interval` (the CLOB treats them as mutually exclusive). */
  startTs?: number;
  endTs?: number;
  /** The market is closed/resolved: the fidelity is raised to CLOSED_MARKET_MIN_FIDELITY. */
  closed?: boolean;
}

/** Price history of one outcome token, oldest first. `market` on this endpoint is the token id. */
export async function getPricesHistory(
  tokenId: string,
  params: PricesHistoryParams = {},
  options: UpstreamCallOptions = {},
): Promise<PricePoint[]> {
  const windowed = params.startTs !== undefined;
  const interval = params.interval ?? "1d";
  const wanted = params.fidelity ?? FIDELITY_MINUTES[interval];
  const body = await fetchUpstream(
    {
      host: "clob",
      path: "/prices-history",
      query: {
        market: tokenId,
        interval: windowed ? undefined : interval,
        startTs: params.startTs,
        endTs: params.endTs,
        fidelity: params.closed ? Math.max(wanted, CLOSED_MARKET_MIN_FIDELITY) : wanted,
      },
    },
    PricesHistorySchema,
    { deadline: options.deadline },
  );
  return body!;
}

/**
 * Parses one frame of the CLOB market WebSocket. Frames may hold one event or an array of them; the text `PONG`
 * heartbeat and event types we do not use (book, tick_size_change, ...) yield nothing.
 */
/** One market-channel item that could not be read: its `event_type` and why (counted as feed drift). */
export interface WsParseFailure {
  type: string;
  reason: string;
  sample: unknown;
}

/**
 * Parses one market-channel frame (an object, or an array of them as the initial book dump is sent) by its
 * `event_type`. Items of a known type that do not parse are returned as failures (drift: a renamed field), never
 * dropped silently; an unknown `event_type` is reported as `ignored`.
 */
export function parseMarketWsFrame(frame: unknown): { messages: NormalizedWsMessage[]; failures: WsParseFailure[]; ignored: string[] } {
  const items = Array.isArray(frame) ? frame : [frame];
  const messages: NormalizedWsMessage[] = [];
  const failures: WsParseFailure[] = [];
  const ignored: string[] = [];
  for (const item of items) {
    const type = item && typeof item === "object" ? (item as { event_type?: unknown }).event_type : undefined;
    const schema = typeof type === "string" ? WS_MARKET_SCHEMAS[type as keyof typeof WS_MARKET_SCHEMAS] : undefined;
    if (!schema) {
      if (typeof type === "string") ignored.push(type);
      else failures.push({ type: "(no event_type)", reason: "no event_type", sample: item });
      continue;
    }
    const parsed = schema.safeParse(item);
    if (parsed.success) messages.push(parsed.data);
    else
      failures.push({
        type: String(type),
        reason: parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; "),
        sample: item,
      });
  }
  return { messages, failures, ignored };
}

export function parseMarketWsMessage(frame: unknown): NormalizedWsMessage[] {
  let value: unknown = frame;
  if (typeof frame === "string") {
    if (frame.trim() === "PONG" || frame.trim() === "") return [];
    try {
      value = JSON.parse(frame);
    } catch {
      return [];
    }
  }
  const items = Array.isArray(value) ? value : [value];
  const out: NormalizedWsMessage[] = [];
  for (const item of items) {
    const parsed = WsMessageSchema.safeParse(item);
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}
