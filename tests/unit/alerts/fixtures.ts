// Stored data for the alerts tests: markets with outcomes, trades and ticks written the way the service writes them
// (the database triggers append them to the stream log), resolution transitions as the publisher appends them, and
// a local webhook receiver that records what it is sent.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Db } from "@/lib/db/client";

export const LOOPBACK = { policy: { allowLoopback: true, allowHttp: true } };

export function conditionIdOf(marketId: string): string {
  return `0x${marketId.padStart(64, "c")}`;
}

export async function seedMarket(db: Db, id: string, eventSlug = `event-${id}`): Promise<void> {
  await db.market.create({
    data: {
      id,
      conditionId: conditionIdOf(id),
      eventId: `e${id}`,
      eventSlug,
      slug: `market-${id}`,
      question: `Question ${id}?`,
      active: true,
      closed: false,
      open: true,
      seenAt: new Date(),
    },
  });
  await db.outcome.createMany({
    data: [
      { tokenId: `tok-${id}-0`, marketId: id, index: 0, name: "Yes" },
      { tokenId: `tok-${id}-1`, marketId: id, index: 1, name: "No" },
    ],
  });
}

let tradeCount = 0;
interface TradeInput {
  marketId: string;
  usd: number;
  side?: "BUY" | "SELL";
  wallet?: string;
  shares?: number;
  outcomeIndex?: number;
  at?: Date;
}

/** Stores a trade; the `trades` trigger appends it to the stream log. Returns its id. */
export async function insertTrade(db: Db, t: TradeInput): Promise<string> {
  const id = `trade-${process.pid}-${++tradeCount}`;
  const shares = t.shares ?? t.usd / 0.5;
  await db.$executeRawUnsafe(
    `INSERT INTO trades (id, tx_hash, condition_id, market_id, outcome, outcome_index, side, price, shares, usd_size, wallet, pseudonym, timestamp)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, NULL, $12::timestamptz)`,
    id,
    `0x${String(tradeCount).padStart(64, "0")}`,
    conditionIdOf(t.marketId),
    t.marketId,
    (t.outcomeIndex ?? 0) === 0 ? "Yes" : "No",
    t.outcomeIndex ?? 0,
    t.side ?? "BUY",
    t.usd / shares,
    shares,
    t.usd,
    (t.wallet ?? "0x000000000000000000000000000000000000beef").toLowerCase(),
    (t.at ?? new Date()).toISOString(),
  );
  return id;
}

/** Moves an outcome's price the way the sampler does; the `outcomes` trigger appends a tick. */
export async function insertTick(db: Db, marketId: string, price: number, at = new Date()): Promise<void> {
  await db.$executeRawUnsafe(
    `UPDATE outcomes SET previous_price = price, price = $2, priced_at = $3::timestamptz, last_change_at = $3::timestamptz,
       first_sampled_at = COALESCE(first_sampled_at, $3::timestamptz)
     WHERE market_id = $1 AND index = 0`,
    marketId,
    price,
    at.toISOString(),
  );
}

/** Appends a resolution transition as the publisher does (lib/resolution/push.ts): the message is the payload. */
export async function insertTransition(db: Db, marketId: string | null, transition: string, eventSlug?: string): Promise<void> {
  const payload = {
    dispute_id: `0x${"d".repeat(64)}`,
    transition,
    from: null,
    to: { status: transition },
    market: marketId
      ? { id: marketId, condition_id: conditionIdOf(marketId), slug: `market-${marketId}`, event_slug: eventSlug ?? `event-${marketId}` }
      : null,
  };
  await db.$executeRawUnsafe(
    `INSERT INTO stream_events (topic, ref, market_id, payload) VALUES ('resolution', $1, $2, $3::jsonb)`,
    `dispute-${transition}-${Math.random()}`,
    marketId,
    JSON.stringify(payload),
  );
}

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A webhook receiver on loopback: answers each request with the next of `statuses` (then 200), records it. */
export async function startReceiver(
  statuses: number[] = [],
): Promise<{ url: string; received: Received[]; close: () => Promise<void>; setStatuses: (s: number[]) => void }> {
  const received: Received[] = [];
  let queue = [...statuses];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      res.statusCode = queue.shift() ?? 200;
      res.end("thanks");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    setStatuses: (s) => (queue = [...s]),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
