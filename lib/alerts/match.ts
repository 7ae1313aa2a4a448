// The matcher (docs/alerts.md#delivery): consumes the stored stream log (`stream_events`, docs/stream.md) after its
// persisted cursor, turns each event into the messages the stream would send (trade, tick, abnormal, resolution),
// tests every enabled subscription's rules, and in ONE transaction writes each match as a delivery (with its
// idempotent webhook id) and moves the cursor. A crash before commit writes nothing and moves nothing, so the next
// run finds the same events; several processes (server, worker, cron) are serialised by an advisory lock.
import { roundUsd } from "@/lib/analytics/money";
import type { Db } from "@/lib/db/client";
import type { AlertSubscription } from "@/lib/generated/prisma/client";
import { observeAlert } from "@/lib/metrics/registry";
import { marketMoves } from "@/lib/predmkt/movers";
import { toMessages } from "@/lib/stream/messages";
import { newestSeq, readEvents } from "@/lib/stream/read";
import type { StoredEvent, StreamMessage } from "@/lib/stream/types";
import { type Clock, enqueue, type NewDelivery } from "./deliveries";
import { marketMatches, type Rule } from "./rules";

const CURSOR = "matcher";
// Arbitrary constant naming the matcher's transaction-scoped advisory lock.
const MATCH_LOCK = 2_811_260_001;
const MOVE_ALERT_EVERY_MS = 3_600_000;

interface MatchDeps {
  now?: Clock;
  /** Stream events read per transaction. */
  batch?: number;
}

interface MatchResult {
  events: number;
  matched: number;
  queued: number;
  /** More events are waiting after this batch. */
  more: boolean;
  cursor: number;
}

type Tx = Db;
type WhalePosition = {
  wallet: string;
  market_id: string;
  outcome_index: number;
  outcome: string;
  shares: number;
  entry_price: number | null;
  sampled_at: Date;
};

interface Context {
  events: Map<number, StoredEvent & { storedAt: Date }>;
  /** `${wallet}|${market}|${outcome index}` → the wallet's sampled position (whale_positions). */
  positions: Map<string, WhalePosition>;
  /** `${market}|${window}` → that market's /movers item. */
  moves: Map<string, Record<string, unknown>>;
  /** `${subscription}|${market}|${window}` → when a move alert was last written. */
  moveMarks: Map<string, Date>;
  now: Date;
}

interface Match {
  eventType: "trade" | "move" | "abnormal" | "whale" | "dispute";
  data: Record<string, unknown>;
  moveMark?: { marketId: string; window: string };
}

const conditionOf = (ctx: Context, m: StreamMessage) => ctx.events.get(m.seq)?.conditionId ?? null;

function inScope(rule: { market_id?: string; event_slug?: string }, ctx: Context, m: StreamMessage): boolean {
  if (!marketMatches(rule.market_id, m.marketId, conditionOf(ctx, m))) return false;
  if (rule.event_slug !== undefined && rule.event_slug !== m.eventSlug) return false;
  return true;
}

/** The position change a trade makes to its wallet's sampled position. */
export function positionChange(side: string, tradeShares: number, position: { shares: number } | undefined) {
  if (side === "BUY") return position ? "increased" : "opened";
  if (position && tradeShares >= position.shares * 0.999) return "closed";
  return "reduced";
}

function whaleKey(wallet: string, marketId: string | null, outcomeIndex: unknown): string {
  return `${wallet.toLowerCase()}|${marketId}|${String(outcomeIndex)}`;
}

/** The first rule of a subscription that matches a message, per event type it produces. */
function evaluate(rules: Rule[], m: StreamMessage, ctx: Context, subscriptionId: string): (Match & { rule: number })[] {
  const out = new Map<string, Match & { rule: number }>();
  rules.forEach((rule, index) => {
    let match: Match | null = null;
    if (rule.type === "trade" && m.event === "trade") {
      const t = m.data as { wallet: string; side: string };
      if (inScope(rule, ctx, m) && (rule.wallet === undefined || t.wallet.toLowerCase() === rule.wallet))
        if ((rule.side === undefined || t.side === rule.side) && roundUsd(m.usd ?? 0) >= rule.min_usd)
          match = { eventType: "trade", data: m.data };
    } else if (rule.type === "abnormal" && m.event === "abnormal") {
      if (inScope(rule, ctx, m) && Number((m.data as { score: number }).score) >= rule.min_score)
        match = { eventType: "abnormal", data: m.data };
    } else if (rule.type === "whale" && m.event === "trade") {
      const t = m.data as { wallet: string; side: string; shares: number; outcome_index: number | null };
      if (
        marketMatches(rule.market_id, m.marketId, conditionOf(ctx, m)) &&
        (rule.wallet === undefined || t.wallet.toLowerCase() === rule.wallet) &&
        roundUsd(m.usd ?? 0) >= rule.min_usd
      ) {
        const position = ctx.positions.get(whaleKey(t.wallet, m.marketId, t.outcome_index));
        match = {
          eventType: "whale",
          data: {
            ...m.data,
            position_change: positionChange(t.side, t.shares, position),
            position: position
              ? {
                  outcome: position.outcome,
                  outcome_index: position.outcome_index,
                  shares: position.shares,
                  entry_price: position.entry_price,
                  sampled_at: position.sampled_at.toISOString(),
                }
              : null,
          },
        };
      }
    } else if (rule.type === "dispute" && m.event === "resolution") {
      const transition = (m.data as { transition: string }).transition;
      if (inScope(rule, ctx, m) && (rule.transitions === undefined || (rule.transitions as string[]).includes(transition)))
        match = { eventType: "dispute", data: m.data };
    } else if (rule.type === "move" && m.event === "tick" && m.marketId) {
      const move = inScope(rule, ctx, m) ? ctx.moves.get(`${m.marketId}|${rule.window}`) : undefined;
      const mark = ctx.moveMarks.get(`${subscriptionId}|${m.marketId}|${rule.window}`);
      const recent = mark !== undefined && ctx.now.getTime() - mark.getTime() < MOVE_ALERT_EVERY_MS;
      if (move && Math.abs(Number(move.change)) * 100 >= rule.min_change - 1e-9 && !recent)
        match = { eventType: "move", data: move, moveMark: { marketId: m.marketId, window: rule.window } };
    }
    if (match && !out.has(match.eventType)) {
      out.set(match.eventType, { ...match, data: { ...match.data, rule: index }, rule: index });
      if (match.moveMark) ctx.moveMarks.set(`${subscriptionId}|${match.moveMark.marketId}|${match.moveMark.window}`, ctx.now);
    }
  });
  return [...out.values()];
}

interface Loaded {
  sub: AlertSubscription;
  rules: Rule[];
}

// Reads what the rules need besides the events (sampled positions, /movers items). Outside the matcher's transaction:
// the movers' resolution context reads through the shared client, which on the embedded database (one connection)
// would wait for the open transaction forever.
async function prefetch(db: Db, subs: Loaded[], messages: StreamMessage[], ctx: Context): Promise<void> {
  const rules = subs.flatMap((s) => s.rules);
  if (rules.some((r) => r.type === "whale")) {
    const wallets = [
      ...new Set(messages.filter((m) => m.event === "trade").map((m) => String((m.data as { wallet: string }).wallet).toLowerCase())),
    ];
    if (wallets.length) {
      const rows = await db.$queryRawUnsafe<WhalePosition[]>(
        `SELECT wallet, market_id, outcome_index, outcome, shares, entry_price, sampled_at FROM whale_positions WHERE wallet = ANY($1::text[])`,
        wallets,
      );
      for (const r of rows) ctx.positions.set(whaleKey(r.wallet, r.market_id, r.outcome_index), r);
    }
  }
  const windows = [...new Set(rules.flatMap((r) => (r.type === "move" ? [r.window] : [])))];
  const markets = [...new Set(messages.filter((m) => m.event === "tick" && m.marketId).map((m) => m.marketId as string))];
  for (const window of windows) {
    for (const move of await marketMoves(db, markets, window, ctx.now)) ctx.moves.set(`${move.market_id}|${window}`, move);
  }
}

/** The matcher's stored cursor; on the first run, the oldest subscription's start (or now when there is none). */
async function readCursor(db: Db, now: Date): Promise<number> {
  const stored = await db.alertCursor.findUnique({ where: { name: CURSOR } });
  if (stored) return Number(stored.seq);
  const oldest = await db.alertSubscription.aggregate({ _min: { fromSeq: true } });
  const seq = oldest._min.fromSeq === null ? await newestSeq(db) : Number(oldest._min.fromSeq);
  await db.alertCursor.createMany({ data: [{ name: CURSOR, seq: BigInt(seq), updatedAt: now }], skipDuplicates: true });
  return Number((await db.alertCursor.findUniqueOrThrow({ where: { name: CURSOR } })).seq);
}

/**
 * One batch: events after the cursor → deliveries, and the cursor moved past them, atomically. Events and what the
 * rules need are read first; the transaction then takes the matcher's lock, checks that the cursor has not moved
 * meanwhile (another process matched this batch: nothing is written, the next round goes on from there), and
 * writes the deliveries, the move marks and the new cursor together.
 */
export async function matchOnce(db: Db, deps: MatchDeps = {}): Promise<MatchResult> {
  const now = (deps.now ?? (() => new Date()))();
  const batch = deps.batch ?? 500;
  const cursor = await readCursor(db, now);
  const read = await readEvents(db, cursor, Number.MAX_SAFE_INTEGER, batch);
  if (read.lastSeq === null) return { events: 0, matched: 0, queued: 0, more: false, cursor };
  const lastSeq = read.lastSeq;
  const times = await db.$queryRawUnsafe<{ seq: bigint; created_at: Date }[]>(
    `SELECT seq, created_at FROM stream_events WHERE seq > $1 AND seq <= $2`,
    cursor,
    lastSeq,
  );
  const storedAt = new Map(times.map((t) => [Number(t.seq), new Date(t.created_at)]));
  const subs: Loaded[] = (await db.alertSubscription.findMany({ where: { enabled: true, fromSeq: { lt: BigInt(lastSeq) } } })).map(
    (sub) => ({
      sub,
      rules: sub.rules as unknown as Rule[],
    }),
  );
  const ctx: Context = {
    events: new Map(read.events.map((e) => [e.seq, { ...e, storedAt: storedAt.get(e.seq) ?? now }])),
    positions: new Map(),
    moves: new Map(),
    moveMarks: new Map(),
    now,
  };
  let messages: StreamMessage[] = [];
  if (subs.length) {
    messages = await toMessages(
      db,
      read.events,
      subs.some((s) => s.rules.some((r) => r.type === "abnormal")),
    );
    await prefetch(db, subs, messages, ctx);
  }
  const result = await db.$transaction(
    async (client) => {
      const tx = client as unknown as Tx;
      await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(${MATCH_LOCK})::text`);
      const current = await tx.alertCursor.findUniqueOrThrow({ where: { name: CURSOR } });
      if (Number(current.seq) !== cursor) return null;
      const writes: NewDelivery[] = [];
      const marks: { subscriptionId: string; marketId: string; window: string }[] = [];
      if (subs.some((s) => s.rules.some((r) => r.type === "move"))) {
        const recent = await tx.alertMoveMark.findMany({
          where: { subscriptionId: { in: subs.map((s) => s.sub.id) }, sentAt: { gt: new Date(now.getTime() - MOVE_ALERT_EVERY_MS) } },
        });
        for (const mark of recent) ctx.moveMarks.set(`${mark.subscriptionId}|${mark.marketId}|${mark.window}`, mark.sentAt);
      }
      for (const m of messages) {
        for (const { sub, rules } of subs) {
          if (m.seq <= Number(sub.fromSeq)) continue;
          for (const match of evaluate(rules, m, ctx, sub.id)) {
            writes.push({
              subscriptionId: sub.id,
              sourceKey: `${m.seq}:${match.eventType}`,
              eventType: match.eventType,
              data: match.data,
              storedAt: storedAt.get(m.seq) ?? now,
            });
            if (match.moveMark) marks.push({ subscriptionId: sub.id, ...match.moveMark });
          }
        }
      }
      for (const mark of marks) {
        await tx.alertMoveMark.upsert({
          where: { subscriptionId_marketId_window: mark },
          create: { ...mark, sentAt: now },
          update: { sentAt: now },
        });
      }
      const queued = await enqueue(tx, writes, now);
      await tx.alertCursor.update({ where: { name: CURSOR }, data: { seq: BigInt(lastSeq), updatedAt: now } });
      return { queued, writes };
    },
    { timeout: 60_000, maxWait: 30_000 },
  );
  if (result === null) return { events: 0, matched: 0, queued: 0, more: true, cursor };
  for (const w of result.writes) {
    observeAlert("matched", w.eventType);
    observeAlert("queued", w.eventType);
  }
  return { events: read.events.length, matched: result.writes.length, queued: result.queued, more: read.full, cursor: lastSeq };
}
