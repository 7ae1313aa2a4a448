// Outcome prices from the CLOB market channel, so the `ticks` topic moves as the book moves instead of once per
// sampler pass (docs/stream.md, "How events get in").
// - The price is Polymarket's displayed price, the one Gamma's `outcomePrices` carries and the sampler stores in
//   `outcomes.price`: the midpoint of the best bid and ask, or the last trade when the spread is wider than $0.10
//   (Polymarket docs, "Prices & Orderbook": docs.polymarket.com/concepts/prices-orderbook). A tick from the socket
//   and a tick from a sampler pass therefore mean the same thing, and the next pass does not undo the worker's.
// - `price_change` frames carry the best bid and ask after each change (`best_bid`/`best_ask`, docs: market-channel);
//   `book` frames (on subscribe and after a trade) and `best_bid_ask` (custom feature) the top of book as it stands;
//   `last_trade_price` frames the last trade. Frames are folded into the newest price per token and written in one
//   statement per batch, never one per frame.
// - The write has the sampler's semantics (lib/sampler/store.ts writeEventsPage): only a price that differs is
//   written, `previous_price` keeps the one it replaces and `last_change_at` moves, so the database trigger on
//   `outcomes` appends the tick to the stream log exactly as it does for a sampler pass.
import type { Db } from "@/lib/db/client";
import type { NormalizedWsMessage } from "@/lib/upstream/types";
import type { QuickTop } from "./quick-frames";

/** Above this spread Polymarket displays the last trade instead of the midpoint (docs: prices-orderbook). */
export const MIDPOINT_MAX_SPREAD = 0.1;

/** Midpoints of tick-aligned prices (ticks down to 0.001) have at most four decimals; rounding drops float noise. */
const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

/** Polymarket's displayed price of one outcome from its top of book and last trade; null when neither says. */
export function displayedPrice(bid: number | null, ask: number | null, lastTrade: number | null): number | null {
  if (bid !== null && ask !== null && ask >= bid && ask - bid <= MIDPOINT_MAX_SPREAD + 1e-9) return round4((bid + ask) / 2);
  return lastTrade === null ? null : round4(lastTrade);
}

export interface PendingPrice {
  tokenId: string;
  price: number;
  at: Date;
}

/** Folds market-channel frames into the newest displayed price per token until the next flush. */
export class OutcomePriceBatcher {
  private readonly books = new Map<string, { bid: number | null; ask: number | null }>();
  private readonly lastTrades = new Map<string, number>();
  private pending = new Map<string, PendingPrice>();

  /** Feeds one parsed market-channel message (clob.parseMarketWsMessage). */
  add(message: NormalizedWsMessage, nowMs = Date.now()): void {
    if (message.type === "price_change") {
      this.addTops(message.changes, nowMs);
      return;
    }
    if (message.type === "book" || message.type === "best_bid_ask") {
      // A trade that takes liquidity is followed by `book`, not `price_change` (docs: market-channel): without it the
      // displayed price would keep the pre-trade bid and ask until the next order event.
      this.books.set(message.token_id, { bid: message.best_bid, ask: message.best_ask });
      this.queue(message.token_id, nowMs);
      return;
    }
    if (message.type !== "last_trade_price") return;
    this.lastTrades.set(message.token_id, message.price);
    // The last trade is the displayed price only while the book is wider than the midpoint rule allows.
    if (this.books.has(message.token_id)) this.queue(message.token_id, nowMs);
  }

  /**
   * The changes of one `price_change` frame (parsed, or read by quickPriceChange). Several changes of one asset in a
   * frame: the last one carries the book as it stands. Most frames are orders away from the top (≈ 48 a second for an
   * active token: docs/upstream-live.md) and leave the top as it was: those queue nothing.
   */
  addTops(changes: readonly Pick<QuickTop, "token_id" | "best_bid" | "best_ask">[], nowMs = Date.now()): void {
    for (let i = 0; i < changes.length; i++) {
      const c = changes[i];
      let last = true;
      for (let j = i + 1; j < changes.length; j++) if (changes[j].token_id === c.token_id) last = false;
      if (!last) continue;
      const book = this.books.get(c.token_id);
      if (book && book.bid === c.best_bid && book.ask === c.best_ask) continue;
      this.books.set(c.token_id, { bid: c.best_bid, ask: c.best_ask });
      this.queue(c.token_id, nowMs);
    }
  }

  /** Forgets a token (unsubscribed: resolved, closed or out of the subscribed set). */
  forget(tokenId: string): void {
    this.books.delete(tokenId);
    this.lastTrades.delete(tokenId);
    this.pending.delete(tokenId);
  }

  private queue(tokenId: string, nowMs: number): void {
    const book = this.books.get(tokenId);
    const price = displayedPrice(book?.bid ?? null, book?.ask ?? null, this.lastTrades.get(tokenId) ?? null);
    if (price !== null) this.pending.set(tokenId, { tokenId, price, at: new Date(nowMs) });
  }

  /** The prices gathered since the last call (newest per token), emptied. */
  take(): PendingPrice[] {
    const out = [...this.pending.values()];
    this.pending = new Map();
    return out;
  }
}

/**
 * Writes displayed prices to `outcomes` in one statement; returns how many outcomes changed (each one a tick on the
 * stream). A price older than the one stored (a sampler pass in between) is not written back over it.
 */
export async function writeOutcomePrices(db: Db, prices: readonly PendingPrice[]): Promise<number> {
  if (!prices.length) return 0;
  return db.$executeRawUnsafe(
    `UPDATE outcomes o
        SET previous_price = o.price, price = u.price, priced_at = u.at, last_change_at = u.at,
            first_sampled_at = COALESCE(o.first_sampled_at, u.at)
       FROM unnest($1::text[], $2::float8[], $3::timestamptz[]) AS u(token_id, price, at)
      WHERE o.token_id = u.token_id AND o.price IS DISTINCT FROM u.price AND (o.priced_at IS NULL OR o.priced_at <= u.at)`,
    prices.map((p) => p.tokenId),
    prices.map((p) => p.price),
    prices.map((p) => p.at.toISOString()),
  );
}
