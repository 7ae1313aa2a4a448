// The market channel's commonest frame read without the schema. An active market's tokens get ≈ 48 `price_change`
// frames a second each, averaged (docs/upstream-live.md), and the worker needs only each change's token and top of book from them; the zod
// schema (lib/upstream/schemas/clob.ts `WsPriceChangeSchema`) also builds an ISO timestamp and a canonical condition
// id per frame, which made it the largest cost of the worker at real rates (bench/README.md, "Live market feed").
// The quick read accepts a frame only when every field is plainly of a shape the schema accepts, so a frame it reads
// would have parsed; anything else (a renamed or retyped field, an array frame, another type) returns null and goes
// through the schema, which counts failures as drift.
import { DECIMAL_ID, toNumber } from "@/lib/upstream/schemas/scalars";

export interface QuickTop {
  token_id: string;
  best_bid: number | null;
  best_ask: number | null;
}

const optionalScalar = (v: unknown) => v === undefined || v === null || typeof v === "string" || typeof v === "number";
const requiredNumber = (v: unknown) => (typeof v === "string" || typeof v === "number") && toNumber(v) !== null;

/** The changes of a `price_change` frame (token, best bid, best ask), or null when the schema must read it. */
export function quickPriceChange(frame: unknown): QuickTop[] | null {
  if (!frame || typeof frame !== "object" || Array.isArray(frame)) return null;
  const f = frame as Record<string, unknown>;
  if (f.event_type !== "price_change" || !Array.isArray(f.price_changes)) return null;
  if (!(f.market === undefined || f.market === null || typeof f.market === "string") || !optionalScalar(f.timestamp)) return null;
  const out: QuickTop[] = [];
  for (const c of f.price_changes as unknown[]) {
    if (!c || typeof c !== "object") return null;
    const change = c as Record<string, unknown>;
    if (typeof change.asset_id !== "string" || !DECIMAL_ID.test(change.asset_id)) return null;
    if (!requiredNumber(change.price) || !requiredNumber(change.size)) return null;
    if (!(change.side === undefined || change.side === null || typeof change.side === "string")) return null;
    if (!optionalScalar(change.best_bid) || !optionalScalar(change.best_ask)) return null;
    out.push({ token_id: change.asset_id, best_bid: toNumber(change.best_bid), best_ask: toNumber(change.best_ask) });
  }
  return out;
}
