// A small hand-made upstream for sampler tests that need exact control (pages, prices, failures). The simulator
// tests (simulator.test.ts) cover the real HTTP path.
import type { SamplerSource } from "@/lib/sampler";
import type { NormalizedEvent, NormalizedHolderGroup, NormalizedMarket, NormalizedTrade } from "@/lib/upstream/types";

export function market(id: number, eventId: string, prices: [number, number], extra: Partial<NormalizedMarket> = {}): NormalizedMarket {
  return {
    id: String(id),
    condition_id: `0x${id.toString(16).padStart(64, "0")}`,
    protocol_version: "v1",
    slug: `market-${id}`,
    question: `Will thing ${id} happen?`,
    group_item_title: null,
    active: true,
    closed: false,
    archived: false,
    accepting_orders: true,
    volume_usd: 1000 * id,
    volume_24h_usd: 100 * id,
    liquidity_usd: 10 * id,
    best_bid: null,
    best_ask: null,
    spread: null,
    last_trade_price: null,
    one_hour_price_change: null,
    one_day_price_change: null,
    one_week_price_change: null,
    one_month_price_change: null,
    start_date: null,
    end_date: "2027-01-01T00:00:00Z",
    neg_risk: false,
    uma_resolution_status: null,
    event_slug: null,
    event_id: eventId,
    outcomes: [
      {
        index: 0,
        name: "Yes",
        token_id: `${id}0000000000000000000000000000000000000000000000000000000000000000000000001`,
        price: prices[0],
      },
      {
        index: 1,
        name: "No",
        token_id: `${id}0000000000000000000000000000000000000000000000000000000000000000000000002`,
        price: prices[1],
      },
    ],
    ...extra,
  };
}

export function event(id: number, markets: NormalizedMarket[], extra: Partial<NormalizedEvent> = {}): NormalizedEvent {
  return {
    id: String(id),
    slug: `event-${id}`,
    title: `Event number ${id}`,
    description: null,
    active: true,
    closed: false,
    archived: false,
    open: true,
    volume_usd: markets.reduce((s, m) => s + m.volume_usd, 0),
    volume_24h_usd: markets.reduce((s, m) => s + m.volume_24h_usd, 0),
    volume_1wk_usd: null,
    liquidity_usd: markets.reduce((s, m) => s + m.liquidity_usd, 0),
    open_interest_usd: null,
    start_date: null,
    end_date: "2027-01-01T00:00:00Z",
    neg_risk: false,
    category: null,
    tags: [{ id: "2", slug: id % 2 ? "politics" : "crypto", label: id % 2 ? "Politics" : "Crypto" }],
    image: null,
    markets,
    ...extra,
  };
}

export function trade(n: number, conditionId: string, timestampS: number, usd = 100): NormalizedTrade {
  return {
    id: `trade-${n}`,
    tx_hash: `0x${n.toString(16).padStart(64, "0")}`,
    market_id: null,
    condition_id: conditionId,
    token_id: "1",
    event_slug: null,
    market_slug: null,
    question: null,
    outcome: "Yes",
    outcome_index: 0,
    side: n % 2 ? "SELL" : "BUY",
    price: 0.5,
    shares: usd / 0.5,
    usd_size: usd,
    wallet: `0x${(n % 7).toString(16).padStart(40, "0")}`,
    pseudonym: `Trader-${n % 7}`,
    name: null,
    timestamp: new Date(timestampS * 1000).toISOString(),
    timestamp_s: timestampS,
  };
}

export class FakeWorld implements SamplerSource {
  events: NormalizedEvent[] = [];
  /** Newest first. */
  trades: NormalizedTrade[] = [];
  holdersByCondition = new Map<string, NormalizedHolderGroup[]>();
  pageSize = 2;
  /** Throw on this events page (0-based), once per arming. */
  failOnEventsPage: number | null = null;
  /** Page size of the tape (the real cap is 1000; small here so walks span pages). */
  tapePageLimit = 1000;
  /** Refuse every cursor (a lost or expired cursor upstream). */
  refuseCursors = false;
  calls = { eventsPage: 0, tapePage: 0, holders: 0 };

  async eventsPage(cursor: string | null) {
    this.calls.eventsPage++;
    const start = cursor ? Number(cursor) : 0;
    const page = start / this.pageSize;
    if (this.failOnEventsPage === page) {
      this.failOnEventsPage = null;
      throw new Error("simulated upstream failure");
    }
    const events = structuredClone(this.events.slice(start, start + this.pageSize));
    const next = start + this.pageSize < this.events.length ? String(start + this.pageSize) : null;
    return { events, next_cursor: next, dropped: [] };
  }

  /** Cursor = offset into the newest-first tape (the real cursor is an opaque seek anchor). */
  async tapePage(cursor: string | null, limit: number) {
    this.calls.tapePage++;
    if (cursor !== null && this.refuseCursors) throw new Error("HTTP 400 invalid cursor");
    const size = Math.min(limit, this.tapePageLimit);
    const offset = cursor ? Number(cursor) : 0;
    const trades = structuredClone(this.trades.slice(offset, offset + size));
    const next = offset + size < this.trades.length ? String(offset + size) : null;
    return { trades, next_cursor: next, dropped: [] };
  }

  async holders(conditionId: string) {
    this.calls.holders++;
    return structuredClone(this.holdersByCondition.get(conditionId) ?? []);
  }
}
