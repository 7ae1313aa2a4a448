// A wallet's ledger: its Data API `/activity` history, read once in full by time windows (the upstream refuses an
// offset past its cap), stored durably, and topped up with only the newer rows on later requests (docs/wallets.md).
// Progress is stored after every window, so a crash or a deadline loses at most the window being read.
import { createHash } from "node:crypto";
import { processCache } from "@/lib/cache/lru";
import { log } from "@/lib/log";
import { type Db, getDb } from "@/lib/db/client";
import { wallets as upstream } from "@/lib/upstream";
import type { ActivityRow } from "@/lib/upstream/wallets";
import { ACTIVITY_OFFSET_CAP, ACTIVITY_PAGE_MAX } from "@/lib/upstream/wallets";
import type { LedgerRow } from "@/lib/analytics/pnl";

/** Top-ups re-read this many seconds below the head: the Data API indexes some rows late; re-read rows fall on their key. */
const TOPUP_OVERLAP_S = 300;
/** A complete ledger topped up less than this long ago is current enough: no upstream call. */
const TOPUP_MIN_INTERVAL_S = 30;

export interface StoredRow extends LedgerRow {
  key: string;
  token_id: string | null;
  outcome: string | null;
  title: string | null;
  market_slug: string | null;
  event_slug: string | null;
}

export interface LedgerState {
  wallet: string;
  /** The whole history is stored (up to `head_s`). */
  complete: boolean;
  rows_read: number;
  rows_dropped: number;
  /** Rows are stored up to this time (unix s); null before the first read. */
  head_s: number | null;
  /** A background read is still going on for this wallet. */
  reading: boolean;
  name: string | null;
  pseudonym: string | null;
  /** Why the last read stopped early, when it did. */
  error: string | null;
}

interface SyncOptions {
  /** Upstream pages this call may read before it answers; the rest is read in the background. Default: unlimited. */
  pageBudget?: number;
  /** Clock in ms (tests). */
  now?: () => number;
  /** Continue in the background when the budget runs out (default true). */
  background?: boolean;
}

/** Background reads in progress, one per wallet (deleted when they settle). */
const globalForLedger = globalThis as unknown as { __predmktLedgerRuns?: Map<string, Promise<void>> };
const runs: Map<string, Promise<void>> = (globalForLedger.__predmktLedgerRuns ??= new Map<string, Promise<void>>());
/** The stored rows of the wallets read lately, per ledger version (least recently read out first). */
const rowCache = processCache<{ version: string; rows: StoredRow[] }>("wallet-ledger-rows", { max: 64 });

function contentHash(row: ActivityRow): string {
  return createHash("sha256")
    .update(
      [row.type, row.at_s, row.condition_id, row.token_id, row.outcome_index, row.side, row.size, row.price, row.usd, row.tx_hash].join(
        "|",
      ),
    )
    .digest("base64url")
    .slice(0, 22);
}

/** Keys: content hash + occurrence among identical rows (only over whole seconds, so a re-read gives the same keys). */
function keyed(rows: ActivityRow[]): { key: string; row: ActivityRow }[] {
  const seen = new Map<string, number>();
  return rows.map((row) => {
    const hash = contentHash(row);
    const n = seen.get(hash) ?? 0;
    seen.set(hash, n + 1);
    return { key: `${hash}.${n}`, row };
  });
}

type ChunkRow = [
  string,
  number,
  string,
  string | null,
  string | null,
  number | null,
  string | null,
  string | null,
  number,
  number | null,
  number,
  string | null,
  string | null,
  string | null,
  string | null,
];

function toChunkRow(key: string, r: ActivityRow): ChunkRow {
  return [
    key,
    r.at_s,
    r.type,
    r.condition_id,
    r.token_id,
    r.outcome_index,
    r.outcome,
    r.side,
    r.size,
    r.price,
    r.usd,
    r.tx_hash,
    r.title,
    r.market_slug,
    r.event_slug,
  ];
}

function fromChunkRow(c: ChunkRow): StoredRow {
  return {
    key: c[0],
    at_s: c[1],
    type: c[2] as StoredRow["type"],
    condition_id: c[3],
    token_id: c[4],
    outcome_index: c[5],
    outcome: c[6],
    side: c[7] === "BUY" || c[7] === "SELL" ? c[7] : null,
    size: c[8],
    price: c[9],
    usd: c[10],
    tx_hash: c[11],
    title: c[12],
    market_slug: c[13],
    event_slug: c[14],
  };
}

/**
 * Stores the rows of whole seconds in [from, to] (those not stored yet) as one chunk, and the sync progress with it
 * in one transaction: a crash leaves either both or neither.
 */
async function commit(
  wallet: string,
  rows: ActivityRow[],
  range: { from: number; to: number } | null,
  progress: Parameters<Db["walletSync"]["update"]>[0]["data"],
): Promise<void> {
  const db = await getDb();
  let fresh = keyed(rows);
  if (range && fresh.length) {
    const overlapping = await db.walletLedgerChunk.findMany({ where: { wallet, toS: { gte: range.from }, fromS: { lte: range.to } } });
    const have = new Set(overlapping.flatMap((c) => (c.rows as ChunkRow[]).map((r) => r[0])));
    fresh = fresh.filter((f) => !have.has(f.key));
  }
  const writes = [];
  if (fresh.length) {
    const last = await db.walletLedgerChunk.findFirst({ where: { wallet }, orderBy: { seq: "desc" }, select: { seq: true } });
    const times = fresh.map((f) => f.row.at_s);
    writes.push(
      db.walletLedgerChunk.create({
        data: {
          wallet,
          seq: (last?.seq ?? 0) + 1,
          fromS: Math.min(...times),
          toS: Math.max(...times),
          rowCount: fresh.length,
          rows: fresh.map((f) => toChunkRow(f.key, f.row)),
        },
      }),
    );
  }
  writes.push(db.walletSync.update({ where: { wallet }, data: progress }));
  await db.$transaction(writes);
}

interface WindowRead {
  /** Rows of the seconds read whole (everything newer than `stoppedAt`, or the whole window). */
  rows: ActivityRow[];
  /** The oldest second not read whole (the next window's inclusive end); null when the window was read to its start. */
  stoppedAt: number | null;
  pages: number;
  dropped: number;
  name: string | null;
  pseudonym: string | null;
}

/**
 * Reads [start, end] newest first by offset until a short page (the window's bottom), the offset cap or the page
 * budget. On a stop, the oldest second seen may be cut, so its rows are left for the next window, which ends there.
 */
async function readWindow(wallet: string, start: number, end: number, pageBudget: number): Promise<WindowRead> {
  const rows: ActivityRow[] = [];
  let pages = 0;
  let dropped = 0;
  let name: string | null = null;
  let pseudonym: string | null = null;
  for (let offset = 0; ; offset += ACTIVITY_PAGE_MAX) {
    const page = await upstream.listActivity(wallet, { start, end, offset, limit: ACTIVITY_PAGE_MAX });
    pages++;
    dropped += page.dropped.length;
    rows.push(...page.rows.filter((r) => r.at_s >= start && r.at_s <= end));
    for (const r of page.rows) {
      name ??= r.name;
      pseudonym ??= r.pseudonym;
    }
    if (page.received < ACTIVITY_PAGE_MAX) return { rows, stoppedAt: null, pages, dropped, name, pseudonym };
    const capped = offset + ACTIVITY_PAGE_MAX > ACTIVITY_OFFSET_CAP;
    const oldest = rows.reduce((m, r) => Math.min(m, r.at_s), end);
    // A stop must make progress: when every row so far is in one second, read on (to the cap).
    const canStop = oldest < rows.reduce((m, r) => Math.max(m, r.at_s), oldest);
    if (capped && !canStop)
      throw new Error(`more than ${ACTIVITY_OFFSET_CAP + ACTIVITY_PAGE_MAX} activity rows in one second at ${oldest}`);
    if (capped || (pages >= pageBudget && canStop)) {
      return { rows: rows.filter((r) => r.at_s > oldest), stoppedAt: oldest, pages, dropped, name, pseudonym };
    }
  }
}

async function loadSync(wallet: string) {
  const db = await getDb();
  return db.walletSync.findUnique({ where: { wallet } });
}

/**
 * One pass of reading, within `pageBudget` pages: the backfill (windows from the head backwards) until the history's
 * start, then a top-up of [head − overlap, now]. Returns whether the ledger is complete and current.
 */
async function syncPass(wallet: string, pageBudget: number, nowMs: number): Promise<{ done: boolean; pages: number }> {
  const db = await getDb();
  const nowS = Math.floor(nowMs / 1000);
  let sync = await loadSync(wallet);
  if (!sync) {
    sync = await db.walletSync.upsert({
      where: { wallet },
      create: { wallet, headS: nowS, backfillEndS: nowS, startedAt: new Date(nowMs) },
      update: {},
    });
  }
  let pages = 0;
  while (!sync.complete) {
    if (pages >= pageBudget) return { done: false, pages };
    const read = await readWindow(wallet, 1, sync.backfillEndS ?? sync.headS, pageBudget - pages);
    pages += read.pages;
    // Backfill windows never overlap what is stored: the last one stopped above the second this one ends at.
    await commit(wallet, read.rows, null, {
      complete: read.stoppedAt === null,
      backfillEndS: read.stoppedAt,
      completedAt: read.stoppedAt === null ? new Date(nowMs) : null,
      rowsDropped: { increment: read.dropped },
      name: sync.name ?? read.name,
      pseudonym: sync.pseudonym ?? read.pseudonym,
      lastError: null,
    });
    sync = (await loadSync(wallet))!;
  }
  // Top-up: only what is newer than the head (less the overlap), in windows when it is more than the cap.
  if (pages > 0 ? sync.headS < nowS : sync.headS <= nowS - TOPUP_MIN_INTERVAL_S) {
    const start = Math.max(1, sync.headS - TOPUP_OVERLAP_S);
    let end = nowS;
    const rows: ActivityRow[] = [];
    let dropped = 0;
    for (;;) {
      const read = await readWindow(wallet, start, end, Infinity);
      pages += read.pages;
      dropped += read.dropped;
      rows.push(...read.rows);
      if (read.stoppedAt === null) break;
      end = read.stoppedAt;
    }
    await commit(
      wallet,
      rows,
      { from: start, to: nowS },
      { headS: nowS, toppedUpAt: new Date(nowMs), lastError: null, rowsDropped: { increment: dropped } },
    );
  }
  return { done: true, pages };
}

function runInBackground(wallet: string, now: () => number): void {
  if (runs.has(wallet)) return;
  const run = (async () => {
    try {
      await syncPass(wallet, Infinity, now());
    } catch (error) {
      await recordError(wallet, error);
    }
  })().finally(() => runs.delete(wallet));
  runs.set(wallet, run);
}

async function recordError(wallet: string, error: unknown): Promise<void> {
  const message = (error as Error).message ?? String(error);
  log.warn("wallet ledger read stopped", { wallet, error: message });
  try {
    const db = await getDb();
    await db.walletSync.updateMany({ where: { wallet }, data: { lastError: message.slice(0, 300) } });
  } catch {
    // the store itself failing is reported by the caller's read
  }
}

/**
 * Brings the wallet's ledger up to date within the page budget and answers its state. A read that does not finish
 * goes on in the background; an upstream failure leaves what is stored and is reported in `error`, never thrown.
 */
export async function refreshLedger(wallet: string, options: SyncOptions = {}): Promise<LedgerState> {
  const now = options.now ?? Date.now;
  let error: string | null = null;
  if (!runs.has(wallet)) {
    const mine = (async () => {
      try {
        const pass = await syncPass(wallet, options.pageBudget ?? Infinity, now());
        return pass.done;
      } catch (e) {
        error = "the upstream failed while reading this wallet's activity; the figures cover what was read";
        await recordError(wallet, e);
        return false;
      }
    })();
    runs.set(
      wallet,
      mine.then(() => undefined),
    );
    const done = await mine.finally(() => runs.delete(wallet));
    if (!done && error === null && options.background !== false) runInBackground(wallet, now);
  }
  return ledgerState(wallet, error);
}

/** The stored state of a wallet's ledger (no upstream call). */
export async function ledgerState(wallet: string, error: string | null = null): Promise<LedgerState> {
  const db = await getDb();
  const [sync, sum] = await Promise.all([
    loadSync(wallet),
    db.walletLedgerChunk.aggregate({ where: { wallet }, _sum: { rowCount: true } }),
  ]);
  const count = sum._sum.rowCount ?? 0;
  return {
    wallet,
    complete: sync?.complete ?? false,
    rows_read: count,
    rows_dropped: sync?.rowsDropped ?? 0,
    head_s: sync?.headS ?? null,
    reading: runs.has(wallet),
    name: sync?.name ?? null,
    pseudonym: sync?.pseudonym ?? null,
    error: error ?? (sync?.complete ? null : (sync?.lastError ?? null)),
  };
}

/** Waits for this wallet's background read, if any (tests, the leaderboard job). */
export async function settled(wallet: string): Promise<void> {
  await runs.get(wallet);
}

/** The stored rows, newest first (cached per ledger version in process). */
export async function ledgerRows(wallet: string, state: LedgerState): Promise<StoredRow[]> {
  const version = `${state.head_s}:${state.rows_read}`;
  const cached = rowCache.get(wallet);
  if (cached && cached.version === version) return cached.rows;
  const db = await getDb();
  const chunks = await db.walletLedgerChunk.findMany({ where: { wallet }, select: { rows: true } });
  const rows = chunks
    .flatMap((c) => (c.rows as ChunkRow[]).map(fromChunkRow))
    .sort((a, b) => b.at_s - a.at_s || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  rowCache.set(wallet, { version, rows });
  return rows;
}
