// Our own normalised shapes of Polymarket's upstream data: snake_case, numbers as numbers, times as ISO 8601 UTC,
// token and condition ids as strings (token ids are 77-digit decimals: never JS numbers). Every upstream quirk
// (JSON-encoded string arrays, camelCase v1 vs snake_case v2, seconds vs milliseconds, book order) is undone once,
// in schemas/; nothing past lib/upstream sees a raw upstream field name.
import type { DroppedItem } from "./schemas/scalars";

export type { DroppedItem, DroppedKind } from "./schemas/scalars";

export interface NormalizedTag {
  id: string;
  slug: string;
  label: string;
}

export interface NormalizedOutcome {
  /** Position in the market's `outcomes` array; token ids and prices are aligned with it. */
  index: number;
  name: string;
  /**
   * The outcome's trading id, a decimal string of up to 78 digits: the CLOB token id of a V1 (CTF) market, the
   * position id of a V2 market (chosen by the market's `version`). Null when the market has none.
   */
  token_id: string | null;
  /** Gamma's displayed price for this outcome in [0, 1] (`outcomePrices`); null when absent. */
  price: number | null;
}

export interface NormalizedMarket {
  /** Gamma market id (decimal string). */
  id: string;
  /** `0x` + 64 hex (V1) or 62 hex (V2, sometimes padded to 64); the key the Data API uses. Null when absent. */
  condition_id: string | null;
  /** Polymarket protocol version (`version`): "v1" CTF, "v2"; null for markets from before the field existed. */
  protocol_version: ProtocolVersion | null;
  slug: string | null;
  question: string;
  /** Short label inside a multi-market event ("Gretchen Whitmer"). */
  group_item_title: string | null;
  active: boolean;
  closed: boolean;
  archived: boolean;
  accepting_orders: boolean | null;
  /** Total traded volume (USD). Gamma sends it as a string on markets; parsed here. */
  volume_usd: number;
  volume_24h_usd: number;
  liquidity_usd: number;
  best_bid: number | null;
  best_ask: number | null;
  spread: number | null;
  last_trade_price: number | null;
  /** Absolute price deltas (0.002 = +0.2 points); null when Gamma omits the field (it does when unset). */
  one_hour_price_change: number | null;
  one_day_price_change: number | null;
  one_week_price_change: number | null;
  one_month_price_change: number | null;
  start_date: string | null;
  end_date: string | null;
  neg_risk: boolean;
  /** Gamma `questionID` (lower-case bytes32 hex): the UMA adapter's questionID, or a neg-risk market's question id. */
  question_id?: string | null;
  /** Gamma `negRiskRequestID`: a neg-risk market's UMA questionID (docs/resolution.md); null for standard markets. */
  neg_risk_request_id?: string | null;
  uma_resolution_status: string | null;
  /** Slug of the event the market belongs to, when known (inside an event, or `events[0]` on /markets/{id}). */
  event_slug: string | null;
  event_id: string | null;
  outcomes: NormalizedOutcome[];
}

export type ProtocolVersion = "v1" | "v2";

export interface NormalizedEvent {
  id: string;
  slug: string;
  title: string;
  description: string | null;
  active: boolean;
  closed: boolean;
  archived: boolean;
  /** `active && !closed && !archived` (Gamma keeps `active: true` on closed events). */
  open: boolean;
  volume_usd: number;
  volume_24h_usd: number;
  volume_1wk_usd: number | null;
  liquidity_usd: number;
  open_interest_usd: number | null;
  start_date: string | null;
  end_date: string | null;
  neg_risk: boolean;
  /** Gamma's legacy free-text `category` field when present (often absent); tags are the reliable grouping. */
  category: string | null;
  tags: NormalizedTag[];
  image: string | null;
  markets: NormalizedMarket[];
}

export interface EventsPage {
  events: NormalizedEvent[];
  /** Pass as `cursor` for the next page; null on the last page (or when the upstream cursor stopped advancing). */
  next_cursor: string | null;
  /** Items of this page that could not be used (dropped, the rest of the page kept). */
  dropped: DroppedItem[];
}

export type TradeSide = "BUY" | "SELL";

export interface NormalizedTrade {
  /** Stable id: several fills share one transaction hash, so it hashes (tx, token, wallet, side, size, price, time). */
  id: string;
  tx_hash: string | null;
  /** Gamma market id when the caller knows it (the Data API only sends the condition id); else null. */
  market_id: string | null;
  condition_id: string;
  token_id: string;
  event_slug: string | null;
  market_slug: string | null;
  question: string | null;
  outcome: string | null;
  outcome_index: number | null;
  side: TradeSide;
  price: number;
  /** Shares (outcome tokens). */
  shares: number;
  /** shares × price. */
  usd_size: number;
  wallet: string;
  pseudonym: string | null;
  name: string | null;
  /** ISO 8601 UTC. */
  timestamp: string;
  /** Unix seconds (the Data API's own unit), for sorting and bucketing. */
  timestamp_s: number;
}

export interface TradesPage {
  trades: NormalizedTrade[];
  /** Data API v2 cursor for the next page; null when there is none (always null for v1 offset paging). */
  next_cursor: string | null;
  /** Rows of this page that could not be used. */
  dropped: DroppedItem[];
}

export interface NormalizedHolder {
  wallet: string;
  pseudonym: string | null;
  name: string | null;
  token_id: string;
  outcome_index: number | null;
  /** Shares held (the Data API's `amount`; not USD). Gross per outcome from v1 and from v2 with `include_pnl`. */
  shares: number;
  verified: boolean | null;
  /** v2 with `include_pnl=true` only (else null): average entry price, cost of the position, total PnL. */
  avg_price: number | null;
  entry_cost_usd: number | null;
  total_pnl_usd: number | null;
}

/** Holders of one outcome token. The Data API groups them by token, keyed by the market's condition id. */
export interface NormalizedHolderGroup {
  token_id: string;
  outcome_index: number | null;
  holders: NormalizedHolder[];
}

/** One market's open interest (Data API `/v2/oi` or `/oi`): USDC, every outcome's held shares at its price. */
export interface NormalizedOpenInterest {
  /** Lower case; "global" for the platform-wide row. */
  condition_id: string;
  value_usd: number;
}

export interface NormalizedPosition {
  wallet: string;
  token_id: string;
  condition_id: string;
  title: string | null;
  market_slug: string | null;
  event_slug: string | null;
  outcome: string | null;
  outcome_index: number | null;
  shares: number;
  avg_price: number | null;
  current_price: number | null;
  initial_value_usd: number | null;
  current_value_usd: number | null;
  cash_pnl_usd: number | null;
  percent_pnl: number | null;
  realized_pnl_usd: number | null;
  redeemable: boolean | null;
  end_date: string | null;
}

/** One price-history point: unix seconds and price in [0, 1]. */
export interface PricePoint {
  t: number;
  p: number;
}

export type PriceHistoryInterval = "1h" | "6h" | "1d" | "1w" | "1m" | "max";

/** A message from the CLOB market WebSocket, normalised (the socket sends ms timestamps and numbers as strings). */
export type NormalizedWsMessage =
  | {
      type: "last_trade_price";
      token_id: string;
      condition_id: string | null;
      price: number;
      side: TradeSide | null;
      size: number | null;
      timestamp: string | null;
      /** The settling transaction (lower case): joins the fill to RTDS's row with its wallet. */
      tx_hash: string | null;
    }
  | {
      /** A full book for one token: on subscribe, and after a trade that changed it (docs: market-channel). */
      type: "book";
      token_id: string;
      condition_id: string | null;
      best_bid: number | null;
      best_ask: number | null;
      timestamp: string | null;
    }
  | {
      /** Top of book after any change (custom feature). */
      type: "best_bid_ask";
      token_id: string;
      condition_id: string | null;
      best_bid: number | null;
      best_ask: number | null;
      timestamp: string | null;
    }
  | { type: "tick_size_change"; token_id: string; condition_id: string | null; tick_size: number; timestamp: string | null }
  | {
      /** A market created upstream (custom feature, sent for every market on every custom-feature socket). */
      type: "new_market";
      condition_id: string;
      market_id: string | null;
      question: string | null;
      slug: string | null;
      token_ids: string[];
      /** Outcome names, one per token (null when absent or not one per token). */
      outcomes: string[] | null;
      /** The event the market belongs to (`event_message`), when sent. */
      event: { id: string; slug: string; title: string } | null;
      timestamp: string | null;
    }
  | {
      /** A market resolved upstream (custom feature): its tokens stop trading. */
      type: "market_resolved";
      condition_id: string;
      market_id: string | null;
      token_ids: string[];
      winning_token_id: string | null;
      winning_outcome: string | null;
      timestamp: string | null;
    }
  | {
      type: "price_change";
      condition_id: string | null;
      timestamp: string | null;
      changes: {
        token_id: string;
        price: number;
        side: TradeSide | null;
        size: number;
        best_bid: number | null;
        best_ask: number | null;
      }[];
    };

/** Options every client call accepts. */
export interface UpstreamCallOptions {
  /** Absolute deadline (ms since epoch) shared by all upstream calls of one request; defaults to now + timeout. */
  deadline?: number;
  /** Defeat the Data API's per-URL CDN cache (a changing `_` parameter): for reads that must be fresh. */
  fresh?: boolean;
  /** Told when each upstream answer was produced (now minus its CDN `Age`). */
  onProducedAt?: (ms: number) => void;
}
