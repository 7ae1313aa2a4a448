// Incremental log scans, run by the oracle indexer (lib/oracle/indexer.ts), never on a warm request: each scan (one
// contract set on one chain, a fixed set of event topics) walks forward from its stored cursor to the indexed head,
// stores the raw logs and moves its cursor in the same database batch, so a backfill resumes where the last pass
// stopped. Public RPCs cap eth_getLogs ranges and results (docs/oracle-indexer.md): the range starts at the chain's
// configured size, is cut to the provider's suggested range (or halved) on such an error, and grows back after a run
// of successes. Each pass also stores the hash of the last block it scanned; the next pass compares it with the chain
// and, on a mismatch (a reorg), rewinds every cursor of that chain to the newest stored block still on the chain.
import { type Abi, type Address, type Hex, type Log, decodeEventLog, toEventSelector, type AbiEvent, BaseError } from "viem";
import type { Db } from "@/lib/db/client";
import { CHAIN_IDS, type ChainName, type OracleClients } from "./clients";
import type { OracleConfig } from "./config";
import { derivedWrites, keepsRawLog, rewindDerived } from "./derived";
import { onChain, toUpstreamError } from "./errors";

export interface ScanTarget {
  /** Stable name of the scan, part of its cursor id. */
  name: string;
  chain: ChainName;
  addresses: Address[];
  events: AbiEvent[];
  fromBlock: bigint;
  /** Store block timestamps for these logs (fetching the block when the RPC leaves them out). */
  needsTimestamp?: boolean;
}

export interface ScanResult {
  scannedTo: bigint;
  head: bigint;
  complete: boolean;
  /** Share of the scan's block span covered so far (1 when complete). */
  progress: number;
}

export interface StoredLog {
  blockNumber: bigint;
  logIndex: number;
  address: Address;
  transactionHash: Hex;
  topics: Hex[];
  data: Hex;
  blockTimestamp: bigint | null;
}

export interface ChainHead {
  number: bigint;
  hash: Hex;
  timestamp: bigint;
}

const inflight = ((globalThis as unknown as { __predmktOracleScans?: Map<string, Promise<ScanResult>> }).__predmktOracleScans ??= new Map<
  string,
  Promise<ScanResult>
>());
// Current eth_getLogs range per context and chain, and the successes since it was last cut.
const chunks = ((
  globalThis as unknown as { __predmktOracleChunks?: Map<string, { size: bigint; successes: number }> }
).__predmktOracleChunks ??= new Map<string, { size: bigint; successes: number }>());
const GROW_AFTER_SUCCESSES = 4;

function cursorId(target: ScanTarget): string {
  const addresses = target.addresses
    .map((a) => a.toLowerCase())
    .sort()
    .join("+");
  return `${CHAIN_IDS[target.chain]}:${addresses}:${target.name}`;
}

interface ScanDeps {
  id: string;
  config: OracleConfig;
  clients: OracleClients;
  db: () => Promise<Db>;
}

/** The chunk size a scan of this chain uses now. */
export function currentChunkSize(deps: ScanDeps, chain: ChainName): bigint {
  return chunks.get(`${deps.id}:${chain}`)?.size ?? deps.config.logChunkSize[chain];
}

function recordChunkOutcome(deps: ScanDeps, chain: ChainName, outcome: { ok: true } | { ok: false; next: bigint }): void {
  const key = `${deps.id}:${chain}`;
  const configured = deps.config.logChunkSize[chain];
  const state = chunks.get(key) ?? { size: configured, successes: 0 };
  if (!outcome.ok) {
    chunks.set(key, { size: outcome.next < 1n ? 1n : outcome.next, successes: 0 });
    return;
  }
  const successes = state.successes + 1;
  if (state.size < configured && successes >= GROW_AFTER_SUCCESSES) {
    chunks.set(key, { size: state.size * 2n > configured ? configured : state.size * 2n, successes: 0 });
  } else chunks.set(key, { size: state.size, successes });
}

/**
 * A provider's refusal of an eth_getLogs range as too wide or too many results (messages: docs/oracle-indexer.md),
 * with the last block of the range it suggests when it names one, or a range whose logs exceed the client's own
 * response cap (viem's ResponseBodyTooLargeError, 10 MB by default): a smaller range fits. Null for any other error.
 */
export function rangeRefusal(error: unknown): { suggestedTo: bigint | null } | null {
  if (!(error instanceof BaseError)) return null;
  const text = [error.message, error.details, (error as { body?: unknown }).body ? JSON.stringify((error as { body?: unknown }).body) : ""]
    .join(" ")
    .replace(/\s+/g, " ");
  if (
    !/block range|range \d+ exceeds|exceeds limit|limited to a [\d,]+ range|max block range|max results|more than \d+ results|response size exceeded|range too large|range is too large|response body exceeded the size limit/i.test(
      text,
    )
  ) {
    return null;
  }
  const bracket = /\[\s*(0x[0-9a-f]+)\s*,\s*(0x[0-9a-f]+)\s*\]/i.exec(text);
  if (bracket) return { suggestedTo: BigInt(bracket[2]) };
  const dashed = /retry with the range (\d+)-(\d+)/i.exec(text);
  if (dashed) return { suggestedTo: BigInt(dashed[2]) };
  return { suggestedTo: null };
}

/** Brings a scan up to `head` (or as far as this pass's time budget goes). Concurrent calls share one run. */
export function advanceScan(deps: ScanDeps, target: ScanTarget, head: bigint): Promise<ScanResult> {
  const id = cursorId(target);
  const running = inflight.get(`${deps.id}:${id}`);
  if (running) return running;
  const run = runScan(deps, target, head, id).finally(() => inflight.delete(`${deps.id}:${id}`));
  inflight.set(`${deps.id}:${id}`, run);
  return run;
}

async function runScan(deps: ScanDeps, target: ScanTarget, head: bigint, id: string): Promise<ScanResult> {
  const db = await deps.db();
  const client = deps.clients[target.chain];
  const chainId = CHAIN_IDS[target.chain];
  const cursor = await db.oracleScanCursor.findUnique({ where: { id } });
  // A cursor that started later than the configured start block rescans from the configured one.
  const fromBlock = cursor && cursor.fromBlock <= target.fromBlock ? cursor.fromBlock : target.fromBlock;
  // A reorg rewind may move a cursor below its start: never scan before it.
  let next = cursor && cursor.fromBlock <= target.fromBlock && cursor.nextBlock > fromBlock ? cursor.nextBlock : fromBlock;
  let ranges = 0;
  const started = Date.now();
  while (next <= head && (ranges === 0 || Date.now() - started < deps.config.scanBudgetMs)) {
    const size = currentChunkSize(deps, target.chain);
    const to = next + size - 1n < head ? next + size - 1n : head;
    let logs: Log[];
    try {
      logs = await client.getLogs({
        address: target.addresses,
        events: target.events,
        fromBlock: next,
        toBlock: to,
        strict: false,
      });
    } catch (error) {
      const refusal = rangeRefusal(error);
      const span = to - next + 1n;
      if (!refusal || span <= 1n) throw toUpstreamError(error, target.chain) ?? error;
      const suggested =
        refusal.suggestedTo !== null && refusal.suggestedTo >= next && refusal.suggestedTo < to ? refusal.suggestedTo - next + 1n : null;
      recordChunkOutcome(deps, target.chain, { ok: false, next: suggested ?? span / 2n });
      continue;
    }
    recordChunkOutcome(deps, target.chain, { ok: true });
    const rows = await toRows(deps, target, chainId, logs);
    const nextBlock = to + 1n;
    // Raw logs whose text something reads, plus the derived rows (lib/oracle/derived.ts), with the cursor: atomically.
    await db.$transaction([
      db.oracleLog.createMany({ data: rows.filter(keepsRawLog), skipDuplicates: true }),
      ...derivedWrites(db, deps.config, rows),
      db.oracleScanCursor.upsert({
        where: { id },
        create: { id, chainId, address: target.addresses.join(",").toLowerCase(), fromBlock, nextBlock },
        update: { fromBlock, nextBlock },
      }),
    ]);
    next = nextBlock;
    ranges += 1;
  }
  const span = head - fromBlock + 1n;
  const done = next - fromBlock;
  return {
    scannedTo: next - 1n,
    head,
    complete: next > head,
    progress: span > 0n ? Math.min(1, Number((done * 10_000n) / span) / 10_000) : 1,
  };
}

const CHECKPOINTS_KEPT = 64;

/** Remembers the hash of the last block a pass scanned on a chain (the next pass checks it is still there). */
export async function storeCheckpoint(deps: ScanDeps, chain: ChainName, block: { number: bigint; hash: Hex }): Promise<void> {
  const db = await deps.db();
  const chainId = CHAIN_IDS[chain];
  await db.oracleBlockCheckpoint.upsert({
    where: { chainId_blockNumber: { chainId, blockNumber: block.number } },
    create: { chainId, blockNumber: block.number, hash: block.hash.toLowerCase() },
    update: { hash: block.hash.toLowerCase() },
  });
  const old = await db.oracleBlockCheckpoint.findMany({
    where: { chainId },
    orderBy: { blockNumber: "desc" },
    skip: CHECKPOINTS_KEPT,
    select: { blockNumber: true },
  });
  if (old.length) await db.oracleBlockCheckpoint.deleteMany({ where: { chainId, blockNumber: { lte: old[0].blockNumber } } });
}

/**
 * Detects a reorg below the indexed head: the newest stored checkpoint whose block hash the chain still has is the
 * fork point; every log above it is deleted (with the derived rows it wrote, the rest recomputed) and every cursor of
 * the chain moved back to it. One getBlock per pass when
 * nothing changed. Returns the block rewound to, or null.
 */
export async function rewindOnReorg(deps: ScanDeps, chain: ChainName): Promise<bigint | null> {
  const db = await deps.db();
  const chainId = CHAIN_IDS[chain];
  const checkpoints = await db.oracleBlockCheckpoint.findMany({ where: { chainId }, orderBy: { blockNumber: "desc" } });
  if (!checkpoints.length) return null;
  let fork: bigint | null = null;
  for (const [i, checkpoint] of checkpoints.entries()) {
    const block = await onChain(chain, () => deps.clients[chain].getBlock({ blockNumber: checkpoint.blockNumber })).catch(
      (error: unknown) => {
        // A block above the (shorter) new chain's head does not exist: that checkpoint is gone too.
        if (error instanceof Error && /not found|could not be found/i.test(error.message)) return null;
        throw error;
      },
    );
    if (block && block.hash?.toLowerCase() === checkpoint.hash) {
      if (i === 0) return null;
      fork = checkpoint.blockNumber;
      break;
    }
  }
  // No stored block is on the chain any more: rescan from the start.
  const rewindTo = fork ?? -1n;
  const derived = await rewindDerived(db, chainId, rewindTo);
  await db.$transaction([
    db.oracleLog.deleteMany({ where: { chainId, blockNumber: { gt: rewindTo } } }),
    ...derived,
    db.oracleBlockCheckpoint.deleteMany({ where: { chainId, blockNumber: { gt: rewindTo } } }),
    db.oracleScanCursor.updateMany({ where: { chainId, nextBlock: { gt: rewindTo + 1n } }, data: { nextBlock: rewindTo + 1n } }),
  ]);
  return rewindTo;
}

async function toRows(deps: ScanDeps, target: ScanTarget, chainId: number, logs: Log[]) {
  const timestamps = new Map<bigint, bigint>();
  if (target.needsTimestamp) {
    const missing = [...new Set(logs.filter((l) => (l as { blockTimestamp?: bigint }).blockTimestamp == null).map((l) => l.blockNumber!))];
    for (const blockNumber of missing) {
      const block = await onChain(target.chain, () => deps.clients[target.chain].getBlock({ blockNumber }));
      timestamps.set(blockNumber, block.timestamp);
    }
  }
  return logs.map((log) => logRow(chainId, log, timestamps.get(log.blockNumber!) ?? null));
}

/** A fetched log as an `oracle_logs` row; the block timestamp from the log itself where the RPC includes it. */
function logRow(chainId: number, log: Log, fallbackTimestamp: bigint | null) {
  const fromLog = (log as { blockTimestamp?: bigint | Hex }).blockTimestamp;
  return {
    chainId,
    blockNumber: log.blockNumber!,
    logIndex: log.logIndex!,
    address: log.address.toLowerCase(),
    transactionHash: log.transactionHash!,
    topic0: log.topics[0]!,
    topics: log.topics as string[],
    data: log.data,
    blockTimestamp: fromLog != null ? BigInt(fromLog) : fallbackTimestamp,
  };
}

/** Stored logs of some events from some contracts, from `fromBlock` on, in chain order. */
export async function readLogs(
  db: Db,
  chain: ChainName,
  addresses: Address[],
  events: AbiEvent[],
  fromBlock: bigint,
  toBlock?: bigint,
): Promise<StoredLog[]> {
  const rows = await db.oracleLog.findMany({
    where: {
      chainId: CHAIN_IDS[chain],
      address: { in: addresses.map((a) => a.toLowerCase()) },
      topic0: { in: events.map((e) => toEventSelector(e)) },
      blockNumber: { gte: fromBlock, ...(toBlock !== undefined ? { lte: toBlock } : {}) },
    },
    orderBy: [{ blockNumber: "asc" }, { logIndex: "asc" }],
  });
  return rows.map((r) => ({
    blockNumber: r.blockNumber,
    logIndex: r.logIndex,
    address: r.address as Address,
    transactionHash: r.transactionHash as Hex,
    topics: r.topics as Hex[],
    data: r.data as Hex,
    blockTimestamp: r.blockTimestamp,
  }));
}

/** Stores logs found by a targeted lookup (outside any scan's range) so the next request finds them in the database. */
export async function storeLogs(db: Db, chain: ChainName, logs: Log[]): Promise<void> {
  if (!logs.length) return;
  await db.oracleLog.createMany({
    skipDuplicates: true,
    data: logs.map((log) => logRow(CHAIN_IDS[chain], log, null)),
  });
}

export function decodeStored<TArgs>(abi: Abi, log: StoredLog): { eventName: string; args: TArgs } {
  const decoded = decodeEventLog({ abi, data: log.data, topics: log.topics as [Hex, ...Hex[]] });
  return { eventName: String(decoded.eventName), args: decoded.args as unknown as TArgs };
}
