// Stored answers of the oracle endpoints (table oracle_snapshots, docs/oracle-indexer.md): the indexer writes one row
// per endpoint after each pass that could build it; request handlers read that row and make no chain call.
import type { Prisma } from "@/lib/generated/prisma/client";
import type { OracleContext } from "./context";

export type SnapshotName = "summary" | "disputes" | "rounds" | "voters";

export interface StoredSnapshot<T> {
  body: T;
  builtAt: Date;
  blockNumber: bigint;
  /** Whether the log scans had reached the indexed head when this answer was built. */
  complete: boolean;
}

const rowName = (ctx: OracleContext, name: SnapshotName) => `${ctx.id}:${name}`;

export async function storeSnapshot(ctx: OracleContext, name: SnapshotName, body: object, blockNumber: bigint): Promise<void> {
  const db = await ctx.db();
  const data = { body: body as Prisma.InputJsonValue, blockNumber, builtAt: new Date() };
  await db.oracleSnapshot.upsert({ where: { name: rowName(ctx, name) }, create: { name: rowName(ctx, name), ...data }, update: data });
}

export async function readSnapshot<T extends { meta: { backfill_complete?: boolean } }>(
  ctx: OracleContext,
  name: SnapshotName,
): Promise<StoredSnapshot<T> | null> {
  const db = await ctx.db();
  const row = await db.oracleSnapshot.findUnique({ where: { name: rowName(ctx, name) } });
  if (!row) return null;
  const body = row.body as unknown as T;
  return { body, builtAt: row.builtAt, blockNumber: row.blockNumber, complete: body.meta.backfill_complete !== false };
}
