// Reading the stream log (`stream_events`, appended by database triggers on trades and outcomes, and by the resolution
// publisher, lib/resolution/push.ts): one page of rows after a sequence number, each turned into exactly the item the
// matching list endpoint returns (/trades, /live; a resolution transition is its stored payload), plus what the
// filters need (market, condition, event, USD size). Used for a client's replay and for each
// instance's one live fetch per notification.
import { roundProbability } from "@/lib/analytics/changes";
import type { Db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { TRADE_COLUMNS, type TradeRow, tradeBody } from "@/lib/predmkt/trades";
import { STORED_TOPIC, type StreamFilter, type StoredEvent } from "./types";

interface Row extends Omit<TradeRow, "id" | "timestamp" | "event_slug" | "question"> {
  seq: bigint | number | string;
  topic: "trade" | "tick" | "resolution";
  id: string | null;
  timestamp: Date | null;
  event_slug: string | null;
  question: string | null;
  stream_market_id: string | null;
  stream_usd: number | null;
  /** A tick's price (copied: the outcome row is overwritten), or a resolution transition's whole item. */
  payload: Record<string, unknown> | null;
  token_id: string | null;
  tick_outcome: string | null;
  tick_outcome_index: number | null;
  tick_condition_id: string | null;
}

// Trades are joined from `trades` (their row is never rewritten); ticks carry their price in the payload because
// the outcome row they come from is overwritten by the next change; a resolution transition's payload is its item
// (its market may be one the sampler never stored, so the payload's event slug is the last resort of the filter).
const EVENT_SLUG = `COALESCE(m.event_slug, em.event_slug, e.payload->'market'->>'event_slug')`;
const SELECT = `SELECT e.seq, e.topic, e.market_id AS stream_market_id, e.usd_size AS stream_usd, e.payload,
    ${TRADE_COLUMNS.replace("m.event_slug, m.question,", "")},
    ${EVENT_SLUG} AS event_slug, COALESCE(m.question, em.question) AS question,
    o.token_id, o.name AS tick_outcome, o.index AS tick_outcome_index, em.condition_id AS tick_condition_id
  FROM stream_events e
  LEFT JOIN trades t ON e.topic = 'trade' AND t.id = e.ref
  LEFT JOIN markets m ON m.id = t.market_id
  LEFT JOIN outcomes o ON e.topic = 'tick' AND o.token_id = e.ref
  LEFT JOIN markets em ON em.id = e.market_id`;

function toEvent(r: Row): StoredEvent | null {
  const seq = Number(r.seq);
  if (r.topic === "trade") {
    // A trade deleted by retention between the trigger and this read has nothing left to show.
    if (r.id === null || r.timestamp === null) return null;
    const item = tradeBody({ ...r, id: r.id, timestamp: r.timestamp });
    return {
      seq,
      topic: "trade",
      marketId: item.market_id,
      conditionId: item.condition_id,
      eventSlug: item.event_slug,
      usd: item.usd_size,
      item,
      row: { ...r, id: r.id, timestamp: r.timestamp },
    };
  }
  if (r.topic === "resolution") {
    if (r.payload === null) return null;
    const market = r.payload.market as { condition_id?: string } | null;
    return {
      seq,
      topic: "resolution",
      marketId: r.stream_market_id,
      conditionId: market?.condition_id ?? null,
      eventSlug: r.event_slug,
      usd: null,
      item: r.payload,
      row: null,
    };
  }
  if (r.payload === null || r.token_id === null || r.stream_market_id === null) return null;
  const tick = r.payload as { price: number; previous_price: number | null; at: string };
  const item = {
    market_id: r.stream_market_id,
    question: r.question ?? "",
    token_id: r.token_id,
    outcome: r.tick_outcome ?? "",
    outcome_index: r.tick_outcome_index ?? 0,
    price: roundProbability(tick.price),
    previous_price: tick.previous_price === null ? null : roundProbability(tick.previous_price),
    timestamp: new Date(tick.at).toISOString(),
  };
  return {
    seq,
    topic: "tick",
    marketId: r.stream_market_id,
    conditionId: r.tick_condition_id,
    eventSlug: r.event_slug,
    usd: null,
    item,
    row: null,
  };
}

/** Stored events with `after < seq ≤ upto`, oldest first, at most `limit`, narrowed in SQL by `filter` when given. */
export async function readEvents(
  db: Db,
  after: number,
  upto: number,
  limit: number,
  filter?: StreamFilter,
  options: { statementTimeoutMs?: number } = {},
): Promise<{ events: StoredEvent[]; lastSeq: number | null; full: boolean }> {
  const where = ["e.seq > $1", "e.seq <= $2"];
  const params: unknown[] = [after, upto];
  if (filter) {
    const topics = [...new Set(filter.topics.map((t) => STORED_TOPIC[t]))];
    params.push(topics);
    where.push(`e.topic = ANY($${params.length}::text[])`);
    if (filter.minUsd > 0) {
      params.push(filter.minUsd);
      // Compared to the cent, as the message's usd_size is reported (roundUsd): a 99.996 fill shows as 100.00.
      where.push(`(e.topic <> 'trade' OR round(e.usd_size::numeric, 2) >= $${params.length})`);
    }
    if (filter.marketId) {
      params.push(filter.marketId);
      where.push(`e.market_id = $${params.length}`);
    }
    if (filter.eventSlug) {
      // Stored at insert (migration 20261126260001_stream_filters) and indexed with seq, like market_id.
      params.push(filter.eventSlug);
      where.push(`e.event_slug = $${params.length}`);
    }
  }
  params.push(limit);
  const sql = `${SELECT} WHERE ${where.join(" AND ")} ORDER BY e.seq LIMIT $${params.length}`;
  // A statement timeout guards a client's replay on PostgreSQL (SET LOCAL lasts for this transaction only). The
  // embedded database runs in this process and has no such timer: there the bounded seq range of each query
  // (lib/stream/sse.ts) is what bounds it.
  const rows =
    options.statementTimeoutMs && !env.embeddedDatabase
      ? (
          await db.$transaction([
            db.$executeRawUnsafe(`SET LOCAL statement_timeout = ${Math.floor(options.statementTimeoutMs)}`),
            db.$queryRawUnsafe<Row[]>(sql, ...params),
          ])
        )[1]
      : await db.$queryRawUnsafe<Row[]>(sql, ...params);
  const events = rows.map(toEvent).filter((e): e is StoredEvent => e !== null);
  return { events, lastSeq: rows.length ? Number(rows[rows.length - 1].seq) : null, full: rows.length === limit };
}

/** The newest stored seq (0 for an empty log). */
export async function newestSeq(db: Db): Promise<number> {
  const rows = await db.$queryRawUnsafe<{ seq: bigint | null }[]>(`SELECT max(seq) AS seq FROM stream_events`);
  return Number(rows[0]?.seq ?? 0);
}

/** The highest seq removed by retention (0 when nothing was removed yet). */
export async function prunedThrough(db: Db): Promise<number> {
  const row = await db.samplerState.findUnique({ where: { key: "stream_pruned_through" } });
  return Number(row?.value ?? 0);
}
