// Scalars shared by every host's schemas. They are tolerant on purpose: unknown fields are dropped (Polymarket adds
// fields often), optional fields that go missing become null, numbers that arrive as strings are parsed.
import { z } from "zod";
import type { TradeSide } from "../types";

export function toNumber(value: unknown): number | null {
  if (value === null || value === undefined || value === "") return null;
  const n = typeof value === "number" ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

/** A number that may arrive as a numeric string, or be missing (→ null). */
export const optionalNumber = z.union([z.number(), z.string(), z.null()]).optional().transform(toNumber);
/** A number that must be there, possibly as a numeric string. */
export const requiredNumber = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const n = toNumber(v);
  if (n === null) {
    ctx.addIssue({ code: "custom", message: `expected a number, got ${JSON.stringify(v)}` });
    return z.NEVER;
  }
  return n;
});
export const optionalString = z
  .string()
  .nullable()
  .optional()
  .transform((v) => (v === undefined || v === null || v === "" ? null : v));
export const optionalBoolean = z
  .boolean()
  .nullable()
  .optional()
  .transform((v) => v ?? null);
/** Gamma ids are decimal strings, occasionally numbers. */
export const idString = z.union([z.string().min(1), z.number().int()]).transform(String);
/** Token (V1) and position (V2) ids are decimals of up to 78 digits; only a string keeps them exact. */
export const DECIMAL_ID = /^\d+$/;
export const tokenId = z.string().regex(DECIMAL_ID, "token id must be a decimal string");
export const side = z
  .string()
  .transform((v) => v.toUpperCase())
  .pipe(z.enum(["BUY", "SELL"]));
export const optionalSide = z
  .string()
  .nullable()
  .optional()
  .transform((v): TradeSide | null => (v && /^(buy|sell)$/i.test(v) ? (v.toUpperCase() as TradeSide) : null));

/** ISO date text as Gamma sends it ("2028-11-07T00:00:00Z", "2025-07-11T18:41:17.827458Z") → ISO 8601 UTC or null. */
function isoOrNull(value: string | null): string | null {
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}
export const optionalDate = optionalString.transform(isoOrNull);

/** Unix time that should be seconds; values that are clearly milliseconds (CLOB) are converted. */
export function secondsFrom(value: number): number {
  return value > 1e11 ? Math.floor(value / 1000) : Math.floor(value);
}
/** Unix seconds or milliseconds → ISO 8601 UTC, keeping the milliseconds when the upstream sent them. */
export function isoFromUnix(value: number | null): string | null {
  if (value === null) return null;
  return new Date(value > 1e11 ? Math.round(value) : Math.round(value * 1000)).toISOString();
}

/**
 * Gamma's JSON-encoded string arrays (`outcomes`, `outcomePrices`, `clobTokenIds`, `positionIds`):
 * `"[\"Yes\", \"No\"]"`. Already-parsed arrays (the V2 docs describe `positionIds` as one) and null/"" (→ []) are
 * accepted too.
 */
export function jsonStringArray(kind: "text" | "token") {
  return z
    .union([z.string(), z.array(z.union([z.string(), z.number()])), z.null()])
    .optional()
    .transform((value, ctx): string[] => {
      if (value === null || value === undefined || value === "") return [];
      if (Array.isArray(value)) return value.map(String);
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        ctx.addIssue({ code: "custom", message: "expected a JSON-encoded array" });
        return z.NEVER;
      }
      if (!Array.isArray(parsed)) {
        ctx.addIssue({ code: "custom", message: "expected a JSON-encoded array" });
        return z.NEVER;
      }
      // A token id sent as a bare JSON number has already lost precision in JSON.parse: read the digits verbatim.
      if (kind === "token" && parsed.some((item) => typeof item === "number")) return value.match(/\d+/g) ?? [];
      return parsed.map(String);
    });
}

// ---------------------------------------------------------------------------------------------------------------
// Lists parsed item by item. One unusable item (an event without a slug, a market whose token id is not decimal, a
// trade without a price) must not cost the rest of the page: it is dropped and reported, and the page is used.
// Polymarket's own ts-sdk does the same for markets it cannot represent (gamma/market.ts `SkippableMarketSchema`).

export type DroppedKind = "event" | "market" | "tag" | "trade" | "holder" | "position" | "open_interest" | "activity" | "leaderboard";

export interface DroppedItem {
  kind: DroppedKind;
  /** The upstream id of the item when it has one we can read (event/market id, trade transaction hash, wallet). */
  id: string | null;
  reason: string;
}

export interface Parsed<T> {
  items: T[];
  dropped: DroppedItem[];
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
    .join("; ");
}

function readId(raw: unknown, keys: readonly string[]): string | null {
  if (!raw || typeof raw !== "object") return null;
  for (const key of keys) {
    const value = (raw as Record<string, unknown>)[key];
    if ((typeof value === "string" && value) || typeof value === "number") return String(value);
  }
  return null;
}

/** Parses each element of `raw` with `schema` (or the schema picked for it); elements that fail are dropped and described. */
export function parseEach<S extends z.ZodType>(
  raw: readonly unknown[] | null | undefined,
  schema: S | ((element: unknown) => S),
  kind: DroppedKind,
  idKeys: readonly string[],
): Parsed<z.output<S>> {
  const items: z.output<S>[] = [];
  const dropped: DroppedItem[] = [];
  for (const element of raw ?? []) {
    const parsed = (typeof schema === "function" ? schema(element) : schema).safeParse(element);
    if (parsed.success) items.push(parsed.data);
    else dropped.push({ kind, id: readId(element, idKeys), reason: describeIssues(parsed.error) });
  }
  return { items, dropped };
}

/** An array of anything (each element is parsed on its own later); null/missing → []. */
export const rawList = z
  .array(z.unknown())
  .nullable()
  .optional()
  .transform((v) => v ?? []);
