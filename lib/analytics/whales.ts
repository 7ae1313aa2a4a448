// Whale positions: holders' positions valued at the current price and ranked by value. Pure.
import { roundUsd } from "./money";

interface PositionInput {
  wallet: string;
  token_id: string;
  shares: number;
  entry_price: number | null;
  current_price: number | null;
}

export interface ValuedPosition {
  value_usd: number;
  unrealized_pnl_usd: number | null;
}

/** value = shares × current price; unrealized PnL = shares × (current − entry), null when entry is unknown. */
export function valuePosition(position: PositionInput): ValuedPosition {
  const price = position.current_price ?? 0;
  const value = roundUsd(position.shares * price);
  const pnl =
    position.entry_price == null || position.current_price == null ? null : roundUsd(position.shares * (price - position.entry_price));
  return { value_usd: value, unrealized_pnl_usd: pnl };
}

/** Ranks by position value descending; ties by wallet then token id, for a stable order. */
export function rankWhales<T extends PositionInput>(positions: readonly T[], limit: number): (T & ValuedPosition)[] {
  return positions
    .map((p) => ({ ...p, ...valuePosition(p) }))
    .sort((a, b) => b.value_usd - a.value_usd || cmp(a.wallet, b.wallet) || cmp(a.token_id, b.token_id))
    .slice(0, limit);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
