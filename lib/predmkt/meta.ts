// `meta` for sampled answers, and the "as of" time of each kind of sampled data (set by the sampler per stage).
import type { Db } from "@/lib/db/client";
import type { Meta } from "@/lib/api/schemas";
import { STATE } from "@/lib/sampled/state";

type SampledKind = keyof typeof STATE;

export const NOT_SAMPLED_NOTE = "no sampler pass has completed yet";

export async function asOf(db: Db, kind: Exclude<SampledKind, "tradesWatermark">): Promise<Date | null> {
  const row = await db.samplerState.findUnique({ where: { key: STATE[kind] }, select: { at: true } });
  return row?.at ?? null;
}

export function sampledMeta(at: Date | null, extra: Omit<Meta, "source" | "as_of"> = {}): Meta {
  return { source: "sampled", as_of: at ? at.toISOString() : null, ...extra, ...(at ? {} : { note: NOT_SAMPLED_NOTE }) };
}
