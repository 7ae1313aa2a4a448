// Stretches of the global trade tape a pass could not read (lib/sampler/tape.ts records them on the pass's
// sampler_runs row): the sampler writes them, the endpoints built on the tape and /api/health report them.
import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";

export interface TapeGap {
  /** Unix seconds: oldest and newest instant of the stretch that could not be read. */
  from_s: number;
  to_s: number;
  estimated_count: number;
  reason: string;
}

/** A gap as the API shows it: ISO times. */
export interface TapeGapView {
  from: string;
  to: string;
  estimated_count: number;
  reason: string;
}

/**
 * Tape gaps recorded by passes whose stretch overlaps the last `windowS` seconds (default: the trade retention, 49 h),
 * newest first: what the endpoints built on the tape (`trades`, `abnormal`) and /api/health must say they miss.
 */
export async function recentTapeGaps(db: Db, now: Date, windowS = 49 * 3600): Promise<TapeGapView[]> {
  const since = now.getTime() / 1000 - windowS;
  const runs = await db.samplerRun.findMany({
    where: { tapeGaps: { not: Prisma.DbNull }, startedAt: { gte: new Date(now.getTime() - windowS * 1000 - 86_400_000) } },
    orderBy: { startedAt: "desc" },
    select: { tapeGaps: true },
    take: 500,
  });
  const gaps: TapeGapView[] = [];
  for (const run of runs) {
    for (const g of (run.tapeGaps ?? []) as unknown as TapeGap[]) {
      if (g.to_s < since) continue;
      gaps.push({
        from: new Date(g.from_s * 1000).toISOString(),
        to: new Date(g.to_s * 1000).toISOString(),
        estimated_count: g.estimated_count,
        reason: g.reason,
      });
    }
  }
  return gaps;
}
