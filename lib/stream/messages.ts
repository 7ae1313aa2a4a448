// Stored events → the messages a client receives. A trade is one `trade` message, plus an `abnormal` message right
// after it when it is abnormal for its market (scored by the same function as /abnormal, as of now); a tick and a
// resolution transition are one message each.
import { ABNORMAL_RULES } from "@/lib/analytics/abnormal";
import type { Db } from "@/lib/db/client";
import { scoreAbnormal } from "@/lib/predmkt/trades";
import { cursorOf, type StoredEvent, type StreamMessage } from "./types";

export async function toMessages(db: Db, events: readonly StoredEvent[], withAbnormal: boolean): Promise<StreamMessage[]> {
  let abnormal = new Map<string, Record<string, unknown>>();
  if (withAbnormal) {
    const candidates = events.flatMap((e) => (e.row && (e.usd ?? 0) >= ABNORMAL_RULES.minUsd ? [e.row] : []));
    if (candidates.length) abnormal = new Map((await scoreAbnormal(db, candidates, new Date())).map((a) => [a.id, a]));
  }
  const out: StreamMessage[] = [];
  for (const e of events) {
    const event = e.topic;
    const common = { seq: e.seq, marketId: e.marketId, eventSlug: e.eventSlug, usd: e.usd };
    out.push({ ...common, cursor: cursorOf(e.seq, event), event, data: e.item });
    const flagged = e.row ? abnormal.get(e.row.id) : undefined;
    if (flagged) out.push({ ...common, cursor: cursorOf(e.seq, "abnormal"), event: "abnormal", data: flagged });
  }
  return out;
}
