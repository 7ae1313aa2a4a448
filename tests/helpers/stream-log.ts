// Rows for the stream's tests: resolution transitions written straight into the stream log, and the hub told of them
// as the publisher's NOTIFY would tell it (docs/stream.md "How events get in").
import type { Db } from "@/lib/db/client";
import { getHub } from "@/lib/stream/hub";

/** Stores `count` resolution transitions of about `bytes` each, tells the hub, and returns the newest seq. */
export async function storeResolutions(db: Db, count: number, bytes: number, tag: string): Promise<number> {
  const rows = await db.$queryRawUnsafe<{ seq: bigint }[]>(
    `INSERT INTO stream_events (topic, ref, payload)
     SELECT 'resolution', $1 || g, jsonb_build_object('tag', $1::text, 'n', g, 'pad', repeat('x', $2::int))
     FROM generate_series(1, $3::int) g RETURNING seq`,
    tag,
    bytes,
    count,
  );
  const newest = Math.max(...rows.map((r) => Number(r.seq)));
  (await getHub()).notify(newest);
  return newest;
}
