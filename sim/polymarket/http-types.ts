import type { TradeFlow } from "./flow";
import type { PriceModel } from "./prices";
import type { Reality } from "./reality";
import type { World } from "./world";

export interface SimContext {
  world: World;
  prices: PriceModel;
  flow: TradeFlow;
  /** Current simulated time in ms. */
  nowMs: number;
  /** Which of the real upstream's hard parts are switched on (reality.ts). */
  reality: Reality;
}

export interface SimRequest {
  method: string;
  /** Path inside the API (after /gamma, /data or /clob), without query. */
  path: string;
  query: URLSearchParams;
  body: unknown;
}

export interface SimResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type Handler = (ctx: SimContext, req: SimRequest) => SimResponse;

export function json(body: unknown, status = 200, headers?: Record<string, string>): SimResponse {
  return { status, body, headers };
}

/** Repeatable query parameter, also accepting comma-separated values (`id=1&id=2` or `id=1,2`). */
export function listParam(query: URLSearchParams, ...names: string[]): string[] {
  const out: string[] = [];
  for (const name of names) {
    for (const value of query.getAll(name)) {
      for (const part of value.split(",")) {
        const trimmed = part.trim();
        if (trimmed) out.push(trimmed);
      }
    }
  }
  return out;
}

export function firstParam(query: URLSearchParams, ...names: string[]): string | null {
  for (const name of names) {
    const value = query.get(name);
    if (value !== null) return value;
  }
  return null;
}

export function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
