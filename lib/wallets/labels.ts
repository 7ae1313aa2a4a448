// Wallet labels: each one a rule over a wallet's figures, documented in docs/wallets.md ("Labels") and tested one by
// one. Pure.

export const WALLET_LABELS = ["market_maker", "fresh_wallet", "whale", "sharp", "redeemer", "high_frequency"] as const;
type WalletLabel = (typeof WALLET_LABELS)[number];

const LABEL_RULES = {
  marketMakerMinFills: 20,
  marketMakerMinMakerShare: 0.5,
  marketMakerMinTwoSidedShare: 0.5,
  freshWalletDays: 7,
  freshWalletMinPositionUsd: 10_000,
  whaleMinValueUsd: 100_000,
  sharpMinResolved: 10,
  sharpMinWinRate: 0.7,
  highFrequencyMinFills: 1000,
  highFrequencyMinFillsPerDay: 50,
} as const;

export interface LabelInput {
  now_s: number;
  first_at_s: number | null;
  /** TRADE rows (taker and maker fills). */
  fills: number;
  maker_share: number | null;
  /** Share of the markets it traded in which it both bought and sold. */
  two_sided_share: number | null;
  /** Largest position: the greater of its open cost and its value, over positions held now. */
  max_position_usd: number;
  value_usd: number;
  win_rate: number | null;
  resolved_markets: number;
  /** Redemptions that paid something. */
  winning_redemptions: number;
  /** Distinct UTC days with at least one fill. */
  active_days: number;
}

export function walletLabels(w: LabelInput): WalletLabel[] {
  const r = LABEL_RULES;
  const out: WalletLabel[] = [];
  if (
    w.fills >= r.marketMakerMinFills &&
    (w.maker_share ?? 0) >= r.marketMakerMinMakerShare &&
    (w.two_sided_share ?? 0) >= r.marketMakerMinTwoSidedShare
  )
    out.push("market_maker");
  if (w.first_at_s !== null && w.now_s - w.first_at_s <= r.freshWalletDays * 86_400 && w.max_position_usd >= r.freshWalletMinPositionUsd)
    out.push("fresh_wallet");
  if (w.value_usd >= r.whaleMinValueUsd) out.push("whale");
  if (w.resolved_markets >= r.sharpMinResolved && (w.win_rate ?? 0) >= r.sharpMinWinRate) out.push("sharp");
  if (w.winning_redemptions > 0) out.push("redeemer");
  if (w.fills >= r.highFrequencyMinFills && w.active_days > 0 && w.fills / w.active_days >= r.highFrequencyMinFillsPerDay)
    out.push("high_frequency");
  return out;
}
