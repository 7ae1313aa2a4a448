// `meta` for sampled answers, and the "as of" time of each kind of sampled data (set by the sampler per stage).
import type { Db } from "@/lib/db/client";
import type { Meta } from "@/lib/api/schemas";
import { STATE } from "@/lib/sampler/pass";

export type SampledKind = keyof typeof STATE;

export const NOT_SAMPLED_NOTE = "no sampler pass has completed yet";

export async function asOf(db: Db, kind: Exclude<SampledKind, "tradesWatermark">): Promise<Date | null> {
  const row = await db.samplerState.findUnique({ where: { key: STATE[kind] }, select: { at: true } });
  return row?.at ?? null;
}

// Aggregates over sampled data only change when a pass completes, so each is computed once per (key, as_of) and
// served from memory until the next pass; concurrent first requests share one computation.
const perPass = new Map<string, Promise<unknown>>();
const MAX_PER_PASS_ENTRIES = 64;

export function oncePerPass<T>(key: string, at: Date, compute: () => Promise<T>): Promise<T> {
  const cacheKey = `${key}|${at.toISOString()}`;
  let pending = perPass.get(cacheKey) as Promise<T> | undefined;
  if (!pending) {
    if (perPass.size >= MAX_PER_PASS_ENTRIES) perPass.clear();
    pending = compute();
    perPass.set(cacheKey, pending);
    pending.catch(() => perPass.delete(cacheKey));
  }
  return pending;
}

export function sampledMeta(at: Date | null, extra: Omit<Meta, "source" | "as_of"> = {}): Meta {
  return { source: "sampled", as_of: at ? at.toISOString() : null, ...extra, ...(at ? {} : { note: NOT_SAMPLED_NOTE }) };
}

export const WINDOW_SECONDS: Record<string, number> = {
  "1m": 60,
  "5m": 300,
  "15m": 900,
  "30m": 1800,
  "1h": 3600,
  "4h": 4 * 3600,
  "12h": 12 * 3600,
  "24h": 86_400,
  "7d": 7 * 86_400,
  "30d": 30 * 86_400,
};
