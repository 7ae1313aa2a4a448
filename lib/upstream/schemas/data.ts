// Data API (data-api.polymarket.com) bodies. v1 is camelCase and answers bare arrays; v2 is snake_case inside
// `{data, pagination}` (docs.polymarket.com, API reference: data-api/overview). Both map to one row shape here, and
// every list is parsed row by row (scalars.ts `parseEach`): a row we cannot use is dropped and reported.
import { createHash } from "node:crypto";
import { z } from "zod";
import type {
  NormalizedHolder,
  NormalizedHolderGroup,
  NormalizedOpenInterest,
  NormalizedPosition,
  NormalizedTrade,
  TradeSide,
} from "../types";
import {
  type DroppedItem,
  optionalBoolean,
  optionalDate,
  optionalNumber,
  optionalString,
  type Parsed,
  parseEach,
  rawList,
  requiredNumber,
  secondsFrom,
  side,
  tokenId,
} from "./scalars";
import { canonicalConditionId } from "../ids";

/** A size or price in millionths, rounded half up: the same integer in JavaScript and in SQL (the fill-key migration). */
const micros = (x: number) => Math.floor(x * 1e6 + 0.5);

/**
 * A fill's identity, the same from every source (docs/upstream-live.md, "One row per fill"): the transaction hash,
 * the token, the wallet (lower case), the side, the size and the price. Never the second: RTDS stamps most fills one
 * second before the block time the Data API shows, so a fill heard live and read from REST would be two rows. Only a
 * fill without a transaction hash (none seen upstream) falls back to its second. The hash is reproduced in SQL by
 * the migration that keyed the rows stored before (prisma/migrations/*_trade_fill_keys): change both or neither.
 */
export function fillKey(f: {
  tx_hash: string | null;
  token_id: string;
  wallet: string;
  side: string;
  size: number;
  price: number;
  seconds: number;
}): string {
  const parts = [f.tx_hash ?? "", f.token_id, f.wallet.toLowerCase(), f.side, String(micros(f.size)), String(micros(f.price))];
  if (!f.tx_hash) parts.push(String(f.seconds));
  return createHash("sha256").update(parts.join("|")).digest("hex").slice(0, 32);
}

interface TradeFields {
  wallet: string;
  side: TradeSide;
  token_id: string;
  condition_id: string;
  size: number;
  price: number;
  timestamp: number;
  title: string | null;
  slug: string | null;
  event_slug: string | null;
  outcome: string | null;
  outcome_index: number | null;
  name: string | null;
  pseudonym: string | null;
  tx_hash: string | null;
}

function toTrade(t: TradeFields): NormalizedTrade {
  const seconds = secondsFrom(t.timestamp);
  // Wallets are hex addresses: RTDS sends them in EIP-55 mixed case, the Data API in lower case; one form everywhere.
  const wallet = t.wallet.toLowerCase();
  const txHash = t.tx_hash ? t.tx_hash.toLowerCase() : null;
  return {
    id: fillKey({ tx_hash: txHash, token_id: t.token_id, wallet, side: t.side, size: t.size, price: t.price, seconds }),
    tx_hash: txHash,
    market_id: null,
    condition_id: canonicalConditionId(t.condition_id),
    token_id: t.token_id,
    event_slug: t.event_slug,
    market_slug: t.slug,
    question: t.title,
    outcome: t.outcome,
    outcome_index: t.outcome_index,
    side: t.side,
    price: t.price,
    shares: t.size,
    usd_size: t.size * t.price,
    wallet,
    pseudonym: t.pseudonym,
    name: t.name,
    timestamp: new Date(seconds * 1000).toISOString(),
    timestamp_s: seconds,
  };
}

const optionalIndex = optionalNumber.transform((v) => (v === null || v === 999 ? null : v)); // v2: 999 = unlabeled

export const TradeV1Schema = z
  .object({
    proxyWallet: z.string(),
    side,
    asset: tokenId,
    conditionId: z.string(),
    size: requiredNumber,
    price: requiredNumber,
    timestamp: requiredNumber,
    title: optionalString,
    slug: optionalString,
    eventSlug: optionalString,
    outcome: optionalString,
    outcomeIndex: optionalIndex,
    name: optionalString,
    pseudonym: optionalString,
    transactionHash: optionalString,
  })
  .transform((r) =>
    toTrade({
      wallet: r.proxyWallet,
      side: r.side,
      token_id: r.asset,
      condition_id: r.conditionId,
      size: r.size,
      price: r.price,
      timestamp: r.timestamp,
      title: r.title,
      slug: r.slug,
      event_slug: r.eventSlug,
      outcome: r.outcome,
      outcome_index: r.outcomeIndex,
      name: r.name,
      pseudonym: r.pseudonym,
      tx_hash: r.transactionHash,
    }),
  );

const TradeV2Schema = z
  .object({
    proxy_wallet: z.string(),
    side,
    token_id: tokenId,
    condition_id: z.string(),
    size: requiredNumber,
    price: requiredNumber,
    timestamp: requiredNumber,
    title: optionalString,
    slug: optionalString,
    event_slug: optionalString,
    outcome: optionalString,
    outcome_index: optionalIndex,
    name: optionalString,
    pseudonym: optionalString,
    transaction_hash: optionalString,
  })
  .transform((r) =>
    toTrade({
      wallet: r.proxy_wallet,
      side: r.side,
      token_id: r.token_id,
      condition_id: r.condition_id,
      size: r.size,
      price: r.price,
      timestamp: r.timestamp,
      title: r.title,
      slug: r.slug,
      event_slug: r.event_slug,
      outcome: r.outcome,
      outcome_index: r.outcome_index,
      name: r.name,
      pseudonym: r.pseudonym,
      tx_hash: r.transaction_hash,
    }),
  );

/** v2 rows are snake_case: the schema is picked by shape so a bad row's error names the field that is wrong. */
function isV2Row(row: unknown): boolean {
  return !!row && typeof row === "object" && ("proxy_wallet" in row || "token_id" in row || "condition_id" in row);
}

const PaginationSchema = z
  .object({ has_more: optionalBoolean, next_cursor: optionalString })
  .nullable()
  .optional()
  .transform((p) => ({ has_more: p?.has_more ?? null, next_cursor: p?.next_cursor ?? null }));

/** v1 bare array or v2 `{data, pagination}` → raw rows (parsed one by one later) and the v2 cursor. */
export const ListBodySchema = z.union([
  z.array(z.unknown()).transform((rows) => ({ rows, next_cursor: null as string | null })),
  z
    .object({ data: rawList, pagination: PaginationSchema })
    .transform((b) => ({ rows: b.data, next_cursor: b.pagination.has_more === false ? null : b.pagination.next_cursor })),
]);

const TRADE_ID_KEYS = ["transactionHash", "transaction_hash", "proxyWallet", "proxy_wallet"] as const;

export function parseTrades(rows: readonly unknown[]): Parsed<NormalizedTrade> {
  return parseEach(rows, (row) => (isV2Row(row) ? TradeV2Schema : TradeV1Schema), "trade", TRADE_ID_KEYS);
}

// Holders. v1 `/holders` rows are gross per token; v2 `/v2/holders` rows are netted per user across a market's
// outcomes unless `include_pnl=true`, which also adds the entry price and PnL fields
// (docs.polymarket.com, API reference: markets/list-a-markets-top-holders).
const holderPnl = {
  avg_price: optionalNumber,
  entry_cost_usdc: optionalNumber,
  current_price: optionalNumber,
  current_value: optionalNumber,
  total_pnl: optionalNumber,
};

const HolderV1Schema = z
  .object({
    proxyWallet: z.string(),
    asset: tokenId.nullable().optional(),
    amount: requiredNumber,
    outcomeIndex: optionalIndex,
    name: optionalString,
    pseudonym: optionalString,
    verified: optionalBoolean,
  })
  .transform((h): Omit<NormalizedHolder, "token_id"> & { token_id: string | null } => ({
    wallet: h.proxyWallet.toLowerCase(),
    pseudonym: h.pseudonym,
    name: h.name,
    token_id: h.asset ?? null,
    outcome_index: h.outcomeIndex,
    shares: h.amount,
    verified: h.verified,
    avg_price: null,
    entry_cost_usd: null,
    total_pnl_usd: null,
  }));

const HolderV2Schema = z
  .object({
    proxy_wallet: z.string(),
    token_id: tokenId.nullable().optional(),
    amount: requiredNumber,
    outcome_index: optionalIndex,
    name: optionalString,
    pseudonym: optionalString,
    verified: optionalBoolean,
    ...holderPnl,
  })
  .transform((h): Omit<NormalizedHolder, "token_id"> & { token_id: string | null } => ({
    wallet: h.proxy_wallet.toLowerCase(),
    pseudonym: h.pseudonym,
    name: h.name,
    token_id: h.token_id ?? null,
    outcome_index: h.outcome_index,
    shares: h.amount,
    verified: h.verified,
    avg_price: h.avg_price,
    entry_cost_usd: h.entry_cost_usdc,
    total_pnl_usd: h.total_pnl,
  }));

const HolderGroupRawSchema = z.object({ token: tokenId.optional(), token_id: tokenId.optional(), holders: rawList });

/** Token groups: v1 `{token, holders}` or v2 `{token_id, holders}`; bad groups and bad rows are dropped. */
export function parseHolderGroups(rows: readonly unknown[]): Parsed<NormalizedHolderGroup> {
  const groups = parseEach(rows, HolderGroupRawSchema, "holder", ["token", "token_id"]);
  const items: NormalizedHolderGroup[] = [];
  const dropped: DroppedItem[] = [...groups.dropped];
  for (const g of groups.items) {
    const holders = parseEach(g.holders, (row) => (isV2Row(row) ? HolderV2Schema : HolderV1Schema), "holder", [
      "proxyWallet",
      "proxy_wallet",
    ]);
    dropped.push(...holders.dropped);
    const token = g.token ?? g.token_id ?? holders.items.find((h) => h.token_id)?.token_id;
    if (!token) {
      if (holders.items.length) dropped.push({ kind: "holder", id: null, reason: "holder group without a token id" });
      continue;
    }
    const normalized: NormalizedHolder[] = holders.items.map((h) => ({ ...h, token_id: h.token_id ?? token }));
    const outcomeIndex = normalized.find((h) => h.outcome_index !== null)?.outcome_index ?? null;
    items.push({ token_id: token, outcome_index: outcomeIndex, holders: normalized });
  }
  return { items, dropped };
}

const PositionV1Schema = z
  .object({
    proxyWallet: z.string(),
    asset: tokenId,
    conditionId: z.string(),
    size: requiredNumber,
    avgPrice: optionalNumber,
    curPrice: optionalNumber,
    initialValue: optionalNumber,
    currentValue: optionalNumber,
    cashPnl: optionalNumber,
    percentPnl: optionalNumber,
    realizedPnl: optionalNumber,
    redeemable: optionalBoolean,
    title: optionalString,
    slug: optionalString,
    eventSlug: optionalString,
    outcome: optionalString,
    outcomeIndex: optionalIndex,
    endDate: optionalDate,
  })
  .transform((p): NormalizedPosition => ({
    wallet: p.proxyWallet.toLowerCase(),
    token_id: p.asset,
    condition_id: p.conditionId,
    title: p.title,
    market_slug: p.slug,
    event_slug: p.eventSlug,
    outcome: p.outcome,
    outcome_index: p.outcomeIndex,
    shares: p.size,
    avg_price: p.avgPrice,
    current_price: p.curPrice,
    initial_value_usd: p.initialValue,
    current_value_usd: p.currentValue,
    cash_pnl_usd: p.cashPnl,
    percent_pnl: p.percentPnl,
    realized_pnl_usd: p.realizedPnl,
    redeemable: p.redeemable,
    end_date: p.endDate,
  }));

const PositionV2Schema = z
  .object({
    proxy_wallet: z.string(),
    token_id: tokenId,
    condition_id: z.string(),
    size: requiredNumber,
    avg_price: optionalNumber,
    cur_price: optionalNumber,
    current_price: optionalNumber,
    initial_value: optionalNumber,
    current_value: optionalNumber,
    cash_pnl: optionalNumber,
    percent_pnl: optionalNumber,
    realized_pnl: optionalNumber,
    redeemable: optionalBoolean,
    title: optionalString,
    slug: optionalString,
    event_slug: optionalString,
    outcome: optionalString,
    outcome_index: optionalIndex,
    end_date: optionalDate,
  })
  .transform((p): NormalizedPosition => ({
    wallet: p.proxy_wallet.toLowerCase(),
    token_id: p.token_id,
    condition_id: p.condition_id,
    title: p.title,
    market_slug: p.slug,
    event_slug: p.event_slug,
    outcome: p.outcome,
    outcome_index: p.outcome_index,
    shares: p.size,
    avg_price: p.avg_price,
    current_price: p.current_price ?? p.cur_price,
    initial_value_usd: p.initial_value,
    current_value_usd: p.current_value,
    cash_pnl_usd: p.cash_pnl,
    percent_pnl: p.percent_pnl,
    realized_pnl_usd: p.realized_pnl,
    redeemable: p.redeemable,
    end_date: p.end_date,
  }));

export function parsePositions(rows: readonly unknown[]): Parsed<NormalizedPosition> {
  return parseEach(rows, (row) => (isV2Row(row) ? PositionV2Schema : PositionV1Schema), "position", ["asset", "token_id"]);
}

// Open interest (USDC, priced gross: every outcome's held shares at its price). v1 `/oi` rows are `{market, value}`,
// v2 `/v2/oi` rows `{condition_id, value}`; the global figure's id is "GLOBAL" in both.
const OpenInterestV1Schema = z
  .object({ market: z.string().min(1), value: requiredNumber })
  .transform((r): NormalizedOpenInterest => ({ condition_id: r.market.toLowerCase(), value_usd: r.value }));
const OpenInterestV2Schema = z
  .object({ condition_id: z.string().min(1), value: requiredNumber })
  .transform((r): NormalizedOpenInterest => ({ condition_id: r.condition_id.toLowerCase(), value_usd: r.value }));

export function parseOpenInterest(rows: readonly unknown[]): Parsed<NormalizedOpenInterest> {
  return parseEach(rows, (row) => (isV2Row(row) ? OpenInterestV2Schema : OpenInterestV1Schema), "open_interest", [
    "condition_id",
    "market",
  ]);
}
