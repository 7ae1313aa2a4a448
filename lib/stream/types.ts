// Shapes shared by the stream's modules. Topics are named as the client asks for them (`trades`, `ticks`,
// `abnormal`, `resolution`); each message's `event:` is the singular (`trade`, `tick`, `abnormal`, `resolution`).
import { roundUsd } from "@/lib/analytics/money";
import type { TradeRow } from "@/lib/predmkt/trades";

export const STREAM_TOPICS = ["trades", "ticks", "abnormal", "resolution"] as const;
export type StreamTopic = (typeof STREAM_TOPICS)[number];
export type StreamEventName = "trade" | "tick" | "abnormal" | "resolution";

export const EVENT_NAME: Record<StreamTopic, StreamEventName> = {
  trades: "trade",
  ticks: "tick",
  abnormal: "abnormal",
  resolution: "resolution",
};

/** The stream log's `topic` a message is read from (an abnormal message is its trade's twin). */
export const STORED_TOPIC: Record<StreamEventName, StoredEvent["topic"]> = {
  trade: "trade",
  tick: "tick",
  abnormal: "trade",
  resolution: "resolution",
};

export interface StreamFilter {
  topics: StreamEventName[];
  minUsd: number;
  /** Gamma market id (a condition id is resolved to it when the stream opens). */
  marketId: string | null;
  eventSlug: string | null;
}

/** One row of the stream log as read, with the list endpoint's item and the fields the filters look at. */
export interface StoredEvent {
  seq: number;
  /** `resolution`: a dispute's lifecycle transition (lib/resolution/push.ts), its item stored in the log's payload. */
  topic: "trade" | "tick" | "resolution";
  marketId: string | null;
  conditionId: string | null;
  eventSlug: string | null;
  /** USD size of a trade; null for ticks and resolution transitions. */
  usd: number | null;
  item: Record<string, unknown>;
  /** The trade's row, for abnormal scoring; null for ticks. */
  row: TradeRow | null;
}

/** One message as sent: its cursor orders it among all messages (a trade and its abnormal twin share a seq). */
export interface StreamMessage {
  cursor: bigint;
  event: StreamEventName;
  data: Record<string, unknown>;
  seq: number;
  marketId: string | null;
  eventSlug: string | null;
  usd: number | null;
  /** The message as sent, encoded once and shared by every stream it goes to. */
  encoded?: Uint8Array;
}

export function matches(filter: StreamFilter, m: StreamMessage): boolean {
  if (!filter.topics.includes(m.event)) return false;
  if (filter.minUsd > 0 && (m.event === "trade" || m.event === "abnormal") && roundUsd(m.usd ?? 0) < filter.minUsd) return false;
  if (filter.marketId && m.marketId !== filter.marketId) return false;
  if (filter.eventSlug && m.eventSlug !== filter.eventSlug) return false;
  return true;
}

// The cursor a client sees is opaque; inside it is seq·2 (+1 for the abnormal message of the same trade), so it
// strictly increases across every message of the stream.
export function cursorOf(seq: number, event: StreamEventName): bigint {
  return BigInt(seq) * 2n + (event === "abnormal" ? 1n : 0n);
}

export function encodeCursor(cursor: bigint): string {
  return cursor.toString(36);
}

export function decodeCursor(raw: string): bigint | null {
  if (!/^[0-9a-z]{1,13}$/.test(raw)) return null;
  let value = 0n;
  for (const ch of raw) value = value * 36n + BigInt(parseInt(ch, 36));
  return value;
}

export function seqOfCursor(cursor: bigint): number {
  return Number(cursor / 2n);
}
