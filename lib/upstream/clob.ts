// CLOB client: price history, midpoints, prices, order book; plus the parser for the market WebSocket's messages.
import { fetchUpstream } from "./http";
import { BookSchema, MidpointSchema, MidpointsSchema, PriceSchema, PricesHistorySchema, PricesSchema, WsMessageSchema } from "./schemas";
import type { NormalizedBook, NormalizedWsMessage, PriceHistoryInterval, PricePoint, TradeSide, UpstreamCallOptions } from "./types";

/**
 * Resolution (minutes) per interval: enough points for a chart without thousands of them. `max` must be ≥ 720:
 * for resolved markets the CLOB returns an empty history at finer fidelity (py-clob-client#216).
 */
export const FIDELITY_MINUTES: Record<PriceHistoryInterval, number> = { "1h": 1, "6h": 5, "1d": 15, "1w": 60, "1m": 240, max: 1440 };

/** Batch endpoints take at most this many tokens per request. */
const BATCH_MAX = 500;

export interface PricesHistoryParams {
  interval?: PriceHistoryInterval;
  /** Minutes per point; defaults to FIDELITY_MINUTES[interval]. */
  fidelity?: number;
  /** Unix seconds window instead of `interval` (the CLOB treats them as mutually exclusive). */
  startTs?: number;
  endTs?: number;
}

/** Price history of one outcome token, oldest first. `market` on this endpoint is the token id. */
export async function getPricesHistory(tokenId: string, params: PricesHistoryParams = {}, options: UpstreamCallOptions = {}): Promise<PricePoint[]> {
  const windowed = params.startTs !== undefined;
  const interval = params.interval ?? "1d";
  const body = await fetchUpstream(
    {
      host: "clob",
      path: "/prices-history",
      query: {
        market: tokenId,
        interval: windowed ? undefined : interval,
        startTs: params.startTs,
        endTs: params.endTs,
        fidelity: params.fidelity ?? FIDELITY_MINUTES[interval],
      },
    },
    PricesHistorySchema,
    { deadline: options.deadline },
  );
  return body!;
}

/** Midpoint of the book for one token; null when the token has no book (the CLOB answers 404 for closed markets). */
export async function getMidpoint(tokenId: string, options: UpstreamCallOptions = {}): Promise<number | null> {
  return (await fetchUpstream({ host: "clob", path: "/midpoint", query: { token_id: tokenId } }, MidpointSchema, {
    deadline: options.deadline,
    allowNotFound: true,
  })) ?? null;
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Midpoints for many tokens (`POST /midpoints`, ≤500 per request). Tokens without a book are absent from the result. */
export async function getMidpoints(tokenIds: string[], options: UpstreamCallOptions = {}): Promise<Record<string, number>> {
  const unique = [...new Set(tokenIds)];
  const parts = await Promise.all(
    chunks(unique, BATCH_MAX).map((batch) =>
      fetchUpstream({ host: "clob", path: "/midpoints", method: "POST", body: batch.map((token_id) => ({ token_id })) }, MidpointsSchema, {
        deadline: options.deadline,
      }),
    ),
  );
  return Object.assign({}, ...parts);
}

/** Best price for one token: BUY = best bid, SELL = best ask (the CLOB's convention). */
export async function getPrice(tokenId: string, side: TradeSide, options: UpstreamCallOptions = {}): Promise<number | null> {
  return (await fetchUpstream({ host: "clob", path: "/price", query: { token_id: tokenId, side } }, PriceSchema, {
    deadline: options.deadline,
    allowNotFound: true,
  })) ?? null;
}

/** Best bid and ask for many tokens (`POST /prices`, ≤500 per request). */
export async function getPrices(tokenIds: string[], options: UpstreamCallOptions = {}): Promise<Record<string, { BUY: number | null; SELL: number | null }>> {
  const unique = [...new Set(tokenIds)];
  const parts = await Promise.all(
    chunks(unique, BATCH_MAX).map((batch) =>
      fetchUpstream(
        { host: "clob", path: "/prices", method: "POST", body: batch.flatMap((token_id) => [{ token_id, side: "BUY" }, { token_id, side: "SELL" }]) },
        PricesSchema,
        { deadline: options.deadline },
      ),
    ),
  );
  return Object.assign({}, ...parts);
}

/** Order book of one token, levels sorted best first; null when the token has no book. */
export async function getBook(tokenId: string, options: UpstreamCallOptions = {}): Promise<NormalizedBook | null> {
  return fetchUpstream({ host: "clob", path: "/book", query: { token_id: tokenId } }, BookSchema, {
    deadline: options.deadline,
    allowNotFound: true,
  });
}

/**
 * Parses one frame of the CLOB market WebSocket. Frames may hold one event or an array of them; the text `PONG`
 * heartbeat and event types we do not use (book, tick_size_change, ...) yield nothing.
 */
export function parseMarketWsMessage(frame: string | unknown): NormalizedWsMessage[] {
  let value: unknown = frame;
  if (typeof frame === "string") {
    if (frame.trim() === "PONG" || frame.trim() === "") return [];
    try {
      value = JSON.parse(frame);
    } catch {
      return [];
    }
  }
  const items = Array.isArray(value) ? value : [value];
  const out: NormalizedWsMessage[] = [];
  for (const item of items) {
    const parsed = WsMessageSchema.safeParse(item);
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}
