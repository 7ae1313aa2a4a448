// Read service for whale positions.
import { rankWhales } from "@/lib/analytics/whales";
import { getDb } from "@/lib/db/client";
import { asOf, sampledMeta } from "./meta";

export async function listWhales(limit: number) {
  const db = await getDb();
  const at = await asOf(db, "whales");
  if (!at) return { data: [], meta: sampledMeta(null, { count: 0, limit }) };
  const rows = await db.$queryRawUnsafe<
    {
      wallet: string;
      pseudonym: string | null;
      market_id: string;
      condition_id: string;
      question: string;
      outcome: string;
      outcome_index: number;
      token_id: string;
      shares: number;
      entry_price: number | null;
      current_price: number | null;
      sampled_at: Date;
    }[]
  >(
    `SELECT w.wallet, w.pseudonym, w.market_id, w.condition_id, w.question, w.outcome, w.outcome_index, w.token_id,
            w.shares, w.entry_price, o.price AS current_price, w.sampled_at
     FROM whale_positions w
     JOIN markets m ON m.id = w.market_id AND m.open
     LEFT JOIN outcomes o ON o.token_id = w.token_id`,
  );
  const data = rankWhales(rows, limit).map((r) => ({ ...r, sampled_at: r.sampled_at.toISOString() }));
  return { data, meta: sampledMeta(at, { count: data.length, limit }) };
}
