// Which sampler pass the sampled answers come from. Every sampled answer is a function of (endpoint, parameters,
// pass), so the pass is the version of its cached bytes and its ETag. A pass in this process (cron route, the
// server's loop) moves the clock at once; a pass in another process (`npm run sampler`, another instance) is seen
// within PASS_POLL_MS, the one read of `sampler_runs` a process makes per that interval however many requests come.
import { type AnswerVersion, cachedAnswer, type CachedAnswer } from "@/lib/api/cached-answer";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { passesLanded } from "@/lib/sampled/landings";

export const PASS_POLL_MS = 1000;
// Vercel cron runs the sampler every minute (vercel.json); the self-hosted loop every SAMPLER_INTERVAL_S.
const CRON_INTERVAL_S = 60;

export interface PassStamp {
  /** The latest pass that ended (`sampler_runs` id and end time), or "none" before the first. */
  generation: string;
  endedAt: Date | null;
}

interface Clock {
  stamp: PassStamp | null;
  checkedAt: number;
  landed: number;
  /** A read in flight, and the landings count it started at (a read that began before a landing is not reused). */
  pending: { landed: number; stamp: Promise<PassStamp> } | null;
}

const globalForClock = globalThis as unknown as { __predmktPassClock?: Clock };

function clock(): Clock {
  globalForClock.__predmktPassClock ??= { stamp: null, checkedAt: 0, landed: -1, pending: null };
  return globalForClock.__predmktPassClock;
}

async function readStamp(): Promise<PassStamp> {
  const db = await getDb();
  // Backward scan of the primary key; the latest runs are the last rows, so this reads one or two index entries.
  const [run] = await db.$queryRawUnsafe<{ id: number; finished_at: Date }[]>(
    `SELECT id, finished_at FROM sampler_runs WHERE finished_at IS NOT NULL ORDER BY id DESC LIMIT 1`,
  );
  return run ? { generation: `${run.id}@${run.finished_at.getTime()}`, endedAt: run.finished_at } : { generation: "none", endedAt: null };
}

export async function currentPass(): Promise<PassStamp> {
  const c = clock();
  const landed = passesLanded();
  if (c.stamp && c.landed === landed && Date.now() - c.checkedAt < PASS_POLL_MS) return c.stamp;
  if (c.pending?.landed === landed) return c.pending.stamp;
  const startedAt = Date.now();
  const pending = {
    landed,
    stamp: readStamp().then((stamp) => {
      if (landed >= c.landed) Object.assign(c, { stamp, checkedAt: startedAt, landed });
      return stamp;
    }),
  };
  c.pending = pending;
  void pending.stamp.then(
    () => c.pending === pending && (c.pending = null),
    () => c.pending === pending && (c.pending = null),
  );
  return pending.stamp;
}

/**
 * Reads a pass that landed in this process into the clock (the last of its listeners in lib/server/jobs.ts), so the
 * first request after it finds the clock current and is answered without a read of `sampler_runs` on the request
 * path (the first-after-pass figure, bench/README.md "Real scale"). Always a read: one made earlier in the pass's
 * work may already be older than PASS_POLL_MS.
 */
export async function refreshPassClock(): Promise<void> {
  clock().checkedAt = 0;
  await currentPass();
}

/** Seconds until the next pass is due: the answer holds until then (0 when it is late). */
export function secondsUntilNextPass(stamp: PassStamp, now = Date.now()): number {
  if (!stamp.endedAt) return 0;
  const interval = env.SAMPLER_INTERVAL_S > 0 ? env.SAMPLER_INTERVAL_S : CRON_INTERVAL_S;
  return Math.max(0, Math.floor((stamp.endedAt.getTime() + interval * 1000 - now) / 1000));
}

/** A sampled answer, built at most once per pass (per endpoint and parameters) and then served from memory. */
export async function perPassAnswer<T>(build: () => Promise<T>): Promise<CachedAnswer<T>> {
  return cachedAnswer(passIdentity(await currentPass()), build);
}

function passIdentity(stamp: PassStamp): AnswerVersion {
  return {
    version: `pass:${stamp.generation}`,
    maxAgeS: secondsUntilNextPass(stamp),
    shared: true,
    current: async () => passIdentity(await currentPass()),
  };
}
