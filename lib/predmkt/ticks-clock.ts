// The version of the tick feed (`/api/predmkt/live`). A sampler pass writes prices once per interval, but the ingest
// worker writes them as the market channel moves (docs/stream.md, "Ticks from the market channel"): a trade that moves
// the book is a tick within a second. So the feed's answer is versioned by the pass and by the newest tick, read at
// most every TICK_POLL_MS per process (one backward step of the `last_change_at` index), however many requests come.
import { type AnswerVersion, cachedAnswer, type CachedAnswer } from "@/lib/api/cached-answer";
import { getDb } from "@/lib/db/client";
import { currentPass, type PassStamp, secondsUntilNextPass } from "./pass-clock";

export const TICK_POLL_MS = 250;

interface TickClock {
  at: Date | null;
  checkedAt: number;
  pending: Promise<Date | null> | null;
}

const globalForTicks = globalThis as unknown as { __predmktTickClock?: TickClock };

function clock(): TickClock {
  globalForTicks.__predmktTickClock ??= { at: null, checkedAt: 0, pending: null };
  return globalForTicks.__predmktTickClock;
}

/** When the newest stored price tick happened (null before any). */
export async function newestTick(): Promise<Date | null> {
  const c = clock();
  if (Date.now() - c.checkedAt < TICK_POLL_MS) return c.at;
  if (c.pending) return c.pending;
  const startedAt = Date.now();
  c.pending = (async () => {
    const db = await getDb();
    const [row] = await db.$queryRawUnsafe<{ t: Date | null }[]>(`SELECT max(last_change_at) AS t FROM outcomes`);
    return row?.t ?? null;
  })();
  try {
    const at = await c.pending;
    Object.assign(c, { at, checkedAt: startedAt });
    return at;
  } finally {
    c.pending = null;
  }
}

function ticksIdentity(pass: PassStamp, tick: Date | null): AnswerVersion {
  // Ticks newer than the pass come from the worker: they may move again any second.
  const live = tick !== null && (!pass.endedAt || tick > pass.endedAt);
  return {
    version: `pass:${pass.generation}:tick:${tick?.getTime() ?? 0}`,
    maxAgeS: live ? 1 : secondsUntilNextPass(pass),
    shared: !live,
    current: async () => ticksIdentity(await currentPass(), await newestTick()),
  };
}

/** The tick feed's answer: built once per (pass, newest tick); `build` gets the newest tick's time. */
export async function ticksAnswer<T>(build: (newest: Date | null) => Promise<T>): Promise<CachedAnswer<T>> {
  const [pass, tick] = await Promise.all([currentPass(), newestTick()]);
  return cachedAnswer(ticksIdentity(pass, tick), () => build(tick));
}
