// Movers: markets ranked by the absolute change of their first outcome's probability over a window. Pure.

interface MoverCandidate {
  market_id: string;
  change: number;
  /** Tie-breaker: among equal moves, the busier market first. */
  volume_24h_usd: number;
}

/**
 * Orders by |change| descending; ties by 24 h volume descending, then market id ascending, so the order is total and
 * stable between requests. Zero changes are kept (a quiet market is still a valid row) but sort last.
 */
export function rankMovers<T extends MoverCandidate>(candidates: readonly T[], limit: number): T[] {
  return [...candidates]
    .sort(
      (a, b) =>
        Math.abs(b.change) - Math.abs(a.change) ||
        b.volume_24h_usd - a.volume_24h_usd ||
        (a.market_id < b.market_id ? -1 : a.market_id > b.market_id ? 1 : 0),
    )
    .slice(0, limit);
}
