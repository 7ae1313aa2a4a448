// Incremental log scans: each scan (one contract set on one chain, a fixed set of event topics) walks forward from its
// cursor in ranges of ORACLE_LOG_CHUNK_SIZE blocks (RPCs cap eth_getLogs ranges), stores the raw logs, and moves its
// cursor in the same database batch. A request pays only for blocks no earlier request has scanned, and at most
// maxChunksPerScan ranges: a long backfill spreads over several requests instead of hanging one.
import { type Abi, type Address, type Hex, type Log, decodeEventLog, toEventSelector, type AbiEvent } from "viem";
import type { Db } from "@/lib/db/client";
import { CHAIN_IDS, type ChainName, type OracleClients } from "./clients";
import type { OracleConfig } from "./config";
import { onChain } from "./errors";

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

const inflight = ((globalThis as unknown as { __predmktOracleScans?: Map<string, Promise<ScanResult>> }).__predmktOracleScans ??= new Map());

function cursorId(target: ScanTarget): string {
  const addresses = target.addresses.map((a) => a.toLowerCase()).sort().join("+");
  return `${CHAIN_IDS[target.chain]}:${addresses}:${target.name}`;
}

export interface ScanDeps {
  config: OracleConfig;
  clients: OracleClients;
  db: () => Promise<Db>;
}

/** Brings a scan up to `head` (or as far as this request's chunk budget goes). Concurrent calls share one run. */
export function advanceScan(deps: ScanDeps, target: ScanTarget, head: bigint): Promise<ScanResult> {
  const id = cursorId(target);
  const running = inflight.get(id);
  if (running) return running;
  const run = runScan(deps, target, head, id).finally(() => inflight.delete(id));
  inflight.set(id, run);
  return run;
}

async function runScan(deps: ScanDeps, target: ScanTarget, head: bigint, id: string): Promise<ScanResult> {
  const db = await deps.db();
  const client = deps.clients[target.chain];
  const chainId = CHAIN_IDS[target.chain];
  const cursor = await db.oracleScanCursor.findUnique({ where: { id } });
  // A cursor that started later than the configured start block rescans from the configured one.
  let next = cursor && cursor.fromBlock <= target.fromBlock ? cursor.nextBlock : target.fromBlock;
  const fromBlock = cursor && cursor.fromBlock <= target.fromBlock ? cursor.fromBlock : target.fromBlock;
  const chunk = deps.config.logChunkSize;
  let chunks = 0;
  const started = Date.now();
  while (next <= head && chunks < deps.config.maxChunksPerScan && (chunks === 0 || Date.now() - started < deps.config.scanBudgetMs)) {
    const to = next + chunk - 1n < head ? next + chunk - 1n : head;
    const logs = await onChain(target.chain, () =>
      client.getLogs({ address: target.addresses, events: target.events, fromBlock: next, toBlock: to, strict: false }),
    );
    const rows = await toRows(deps, target, chainId, logs as unknown as Log[]);
    const nextBlock = to + 1n;
    await db.$transaction([
      db.oracleLog.createMany({ data: rows, skipDuplicates: true }),
      db.oracleScanCursor.upsert({
        where: { id },
        create: { id, chainId, address: target.addresses.join(",").toLowerCase(), fromBlock, nextBlock },
        update: { fromBlock, nextBlock },
      }),
    ]);
    next = nextBlock;
    chunks += 1;
  }
  return { scannedTo: next - 1n, head, complete: next > head };
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
  return logs.map((log) => {
    const fromLog = (log as { blockTimestamp?: bigint | Hex }).blockTimestamp;
    const blockTimestamp = fromLog != null ? BigInt(fromLog) : (timestamps.get(log.blockNumber!) ?? null);
    return {
      chainId,
      blockNumber: log.blockNumber!,
      logIndex: log.logIndex!,
      address: log.address.toLowerCase(),
      transactionHash: log.transactionHash!,
      topic0: log.topics[0]!,
      topics: log.topics as string[],
      data: log.data,
      blockTimestamp,
    };
  });
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
    data: logs.map((log) => {
      const ts = (log as { blockTimestamp?: bigint | Hex }).blockTimestamp;
      return {
        chainId: CHAIN_IDS[chain],
        blockNumber: log.blockNumber!,
        logIndex: log.logIndex!,
        address: log.address.toLowerCase(),
        transactionHash: log.transactionHash!,
        topic0: log.topics[0]!,
        topics: log.topics as string[],
        data: log.data,
        blockTimestamp: ts != null ? BigInt(ts) : null,
      };
    }),
  });
}

export function decodeStored<TArgs>(abi: Abi, log: StoredLog): { eventName: string; args: TArgs } {
  const decoded = decodeEventLog({ abi, data: log.data, topics: log.topics as [Hex, ...Hex[]] });
  return { eventName: String(decoded.eventName), args: decoded.args as unknown as TArgs };
}
