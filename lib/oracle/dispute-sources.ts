// The indexed logs behind /disputes, decoded and keyed: Polygon disputes (OOv2 DisputePrice), the child tunnel's
// PriceRequestBridged, and the mainnet DVM's requests with their rolls and deletions. Plus the one chain lookup the
// join may need: the Polygon origin of a compressed mainnet request whose dispute lies before the Polygon scan window.
import { type Address, getAddress, type Hex, keccak256 } from "viem";
import { optimisticOracleV2Abi, oracleChildTunnelAbi, umaSportsOracleAbi, votingV2Abi } from "./abi";
import { type CompressedReference, decodeAncillaryData, dvmRequestId, parseCompressed, stampAncillaryData } from "./ancillary";
import { type OracleContext, polygonEvents, requesterAddresses, votingEvents } from "./context";
import { onChain } from "./errors";
import { decodeStored, readLogs, type StoredLog, storeLogs } from "./scan";

export interface DisputeArgs {
  requester: Address;
  proposer: Address;
  disputer: Address;
  identifier: Hex;
  timestamp: bigint;
  ancillaryData: Hex;
  proposedPrice: bigint;
}
export interface BridgedArgs {
  requester: Address;
  identifier: Hex;
  time: bigint;
  ancillaryData: Hex;
  childRequestId: Hex;
  parentRequestId: Hex;
}
interface RequestArgs {
  identifier: Hex;
  time: bigint;
  ancillaryData: Hex;
  rollCount?: number;
  roundId?: number;
}

export interface Origin {
  oracle: Address;
  /** Position of the DisputePrice log in its block (the bridging log of the same call comes BEFORE it on chain). */
  logIndex: number;
  args: DisputeArgs;
  disputedAt: bigint | null;
  txHash: Hex;
  blockNumber?: bigint;
}
export interface DvmRequest {
  id: Hex;
  identifier: Hex;
  time: bigint;
  ancillaryData: Hex;
  form: "compressed" | "legacy";
  /** The round its RequestAdded log put it in (VotingV2 `_requestPrice`: the first round after the request's not full). */
  addedRound: number;
  /**
   * Highest rollCount its RequestRolled / RequestDeleted logs carry. Each log carries VotingV2's running count, which
   * grows by the rounds passed since the last voting round (`request.rollCount += currentRoundId -
   * request.lastVotingRound`), so one log may stand for several rolls; the logs are emitted lazily, when the queue is
   * processed, so the count may lag (lib/oracle/disputes.ts `actualRollCount`).
   */
  rolledLogs: number;
  deleted: boolean;
}

export interface BridgedEntry {
  args: BridgedArgs;
  log: StoredLog;
}

export interface DisputeSources {
  origins: Origin[];
  bridgedByParent: Map<string, BridgedEntry>;
  /** Each dispute's bridging log and back, paired by identity (pairByIdentity). */
  bridgeOf: Map<Origin, BridgedEntry>;
  originOf: Map<BridgedEntry, Origin>;
  /**
   * Bridging logs by what the tunnel keys a request by (its requester, the identifier and the stamped text), for a
   * dispute whose own call bridged nothing: OracleChildTunnel.requestPrice returns early for a request it already
   * sent (same identifier, DVM time and stamped text), so that dispute shares the earlier one's DVM request.
   */
  bridgedByIdentity: Map<string, BridgedEntry[]>;
  dvmById: Map<string, DvmRequest>;
  /** `<tx>:<adapter>:<questionID>` of every QuestionReset log (lower case): the adapter reset the question there. */
  resets: Set<string>;
  /** The pairing rule these sources were read with (also for the logs a targeted lookup finds). */
  pair: Pairing;
  /** The sports oracle's markets by game id (lower case), from its MarketCreated logs. */
  sportsMarkets: Map<string, SportsMarket[]>;
}

export interface SportsMarket {
  market_id: Hex;
  /** keccak256(abi.encodePacked(sportsOracle, marketId, 2)): the CTF condition (UmaSportsOracle._prepareMarket). */
  condition_id: Hex;
  market_type: "winner" | "spreads" | "totals";
  /** Spreads and totals: the line, scaled by 1e6 (2.5 = 2500000) as the contract stores it, as a decimal string. */
  line: string;
}

const MARKET_TYPES = ["winner", "spreads", "totals"] as const;

/** The key of `DisputeSources.bridgedByIdentity`: the tunnel's requester (the OO), identifier and stamped text. */
export const tunnelIdentity = (oracle: string, identifier: Hex, stamped: Hex) => `${lower(oracle)}:${lower(identifier)}:${lower(stamped)}`;

/** The key of `DisputeSources.resets` for a dispute: the adapter resets the question its own ancillary data hashes to. */
export const resetKey = (txHash: string, requester: string, ancillaryData: Hex) =>
  `${lower(txHash)}:${lower(requester)}:${lower(keccak256(ancillaryData))}`;

export const lower = (a: string) => a.toLowerCase();

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  map.set(key, [...(map.get(key) ?? []), value]);
}

/**
 * Pairs each DisputePrice with the PriceRequestBridged log its own disputePriceFor call emitted, by identity, whatever
 * their log order: OptimisticOracleV2.disputePriceFor calls `_getOracle().requestPrice(identifier, dvmTime,
 * _stampAncillaryData(ancillaryData, requester))` (the child tunnel emits PriceRequestBridged, its `requester` being
 * the OO) and only then emits DisputePrice (docs/oracle-indexer.md, "How /disputes is built"). Identity: the same
 * transaction, the tunnel's requester = the dispute's oracle, the same identifier and the tunnel's ancillary data =
 * the dispute's stamped ancillary data. A transaction disputing one text twice (same identity) pairs its k-th dispute
 * with its k-th bridging log: each call emits one of each, so ranks agree in either order.
 */
export function pairByIdentity(disputes: readonly Origin[], bridged: readonly BridgedEntry[]): Map<Origin, BridgedEntry> {
  const keyOf = (tx: string, oracle: string, identifier: Hex, stamped: Hex) =>
    `${lower(tx)}:${lower(oracle)}:${lower(identifier)}:${lower(stamped)}`;
  const queues = new Map<string, BridgedEntry[]>();
  for (const b of [...bridged].sort(byPosition((e) => e.log))) {
    push(queues, keyOf(b.log.transactionHash, b.args.requester, b.args.identifier, b.args.ancillaryData), b);
  }
  const pairs = new Map<Origin, BridgedEntry>();
  const taken = new Map<string, number>();
  for (const d of [...disputes].sort(byPosition((o) => o))) {
    const key = keyOf(d.txHash, d.oracle, d.args.identifier, stampAncillaryData(d.args.ancillaryData, d.args.requester));
    const rank = taken.get(key) ?? 0;
    const match = queues.get(key)?.[rank];
    if (!match) continue;
    taken.set(key, rank + 1);
    pairs.set(d, match);
  }
  return pairs;
}

function byPosition<T>(of: (t: T) => { blockNumber?: bigint; logIndex: number }) {
  return (a: T, b: T) => {
    const x = of(a);
    const y = of(b);
    const blocks = (x.blockNumber ?? 0n) - (y.blockNumber ?? 0n);
    return blocks !== 0n ? (blocks < 0n ? -1 : 1) : x.logIndex - y.logIndex;
  };
}

/** Reads and decodes every stored log /disputes needs, each chain's up to its indexed block. */
export type Pairing = (disputes: readonly Origin[], bridged: readonly BridgedEntry[]) => Map<Origin, BridgedEntry>;

/**
 * @param pair how disputes meet their bridging logs: by identity (the real rule); the bench passes the order-based rule
 *   this index used before 2026-11 to measure what it did.
 */
export async function readDisputeSources(
  ctx: OracleContext,
  heads: { ethereum: bigint; polygon: bigint },
  pair: Pairing = pairByIdentity,
): Promise<DisputeSources> {
  const { config } = ctx;
  const db = await ctx.db();
  const sports = config.sportsOracle ? [getAddress(config.sportsOracle)] : [];
  const [disputeLogs, bridgedLogs, addedLogs, rolledLogs, deletedLogs, resetLogs, marketLogs] = await Promise.all([
    readLogs(db, "polygon", config.optimisticOracles, polygonEvents.disputePrice, config.optimisticOraclesFromBlock, heads.polygon),
    readLogs(db, "polygon", [config.childTunnel], polygonEvents.priceRequestBridged, config.optimisticOraclesFromBlock, heads.polygon),
    readLogs(db, "ethereum", [config.votingV2], votingEvents.requestAdded, config.votingV2FromBlock, heads.ethereum),
    readLogs(db, "ethereum", [config.votingV2], votingEvents.requestRolled, config.votingV2FromBlock, heads.ethereum),
    readLogs(db, "ethereum", [config.votingV2], votingEvents.requestDeleted, config.votingV2FromBlock, heads.ethereum),
    readLogs(
      db,
      "polygon",
      requesterAddresses(config),
      [...polygonEvents.questionReset, ...polygonEvents.gameReset],
      config.optimisticOraclesFromBlock,
      heads.polygon,
    ),
    sports.length ? readLogs(db, "polygon", sports, polygonEvents.marketCreated, config.optimisticOraclesFromBlock, heads.polygon) : [],
  ]);
  const origins = disputeLogs.map(originOfLog);
  const bridgedByParent = new Map<string, BridgedEntry>();
  const bridgedByIdentity = new Map<string, BridgedEntry[]>();
  const bridged = bridgedLogs.map((log) => {
    const entry: BridgedEntry = { args: decodeStored<BridgedArgs>(oracleChildTunnelAbi, log).args, log };
    bridgedByParent.set(lower(entry.args.parentRequestId), entry);
    push(bridgedByIdentity, tunnelIdentity(entry.args.requester, entry.args.identifier, entry.args.ancillaryData), entry);
    return entry;
  });
  // QuestionReset (the adapters) and GameReset (the sports oracle) both carry keccak256 of the request's ancillary data.
  const resets = new Set(
    resetLogs.map((log) => {
      const id = log.topics[1];
      return `${lower(log.transactionHash)}:${lower(log.address)}:${lower(id)}`;
    }),
  );
  const sportsMarkets = new Map<string, SportsMarket[]>();
  for (const log of marketLogs) {
    const a = decodeStored<{ marketId: Hex; gameId: Hex; conditionId: Hex; marketType: number; line: bigint }>(
      umaSportsOracleAbi,
      log,
    ).args;
    push(sportsMarkets, lower(a.gameId), {
      market_id: a.marketId,
      condition_id: a.conditionId,
      market_type: MARKET_TYPES[a.marketType] ?? "winner",
      line: a.line.toString(),
    });
  }
  const bridgeOf = pair(origins, bridged);
  const originOf = new Map([...bridgeOf].map(([o, b]) => [b, o] as const));
  const idOf = (a: RequestArgs) => lower(dvmRequestId(a.identifier, a.time, a.ancillaryData));
  const dvmById = new Map<string, DvmRequest>();
  for (const log of addedLogs) {
    const args = decodeStored<RequestArgs>(votingV2Abi, log).args;
    const form = parseCompressed(decodeAncillaryData(args.ancillaryData)) ? "compressed" : "legacy";
    const id = dvmRequestId(args.identifier, args.time, args.ancillaryData);
    dvmById.set(lower(id), {
      id,
      identifier: args.identifier,
      time: args.time,
      ancillaryData: args.ancillaryData,
      form,
      addedRound: Number(args.roundId),
      rolledLogs: 0,
      deleted: false,
    });
  }
  for (const log of rolledLogs) {
    const args = decodeStored<RequestArgs>(votingV2Abi, log).args;
    const request = dvmById.get(idOf(args));
    if (request) request.rolledLogs = Math.max(request.rolledLogs, Number(args.rollCount));
  }
  for (const log of deletedLogs) {
    const args = decodeStored<RequestArgs>(votingV2Abi, log).args;
    const request = dvmById.get(idOf(args));
    if (request) {
      request.deleted = true;
      request.rolledLogs = Math.max(request.rolledLogs, Number(args.rollCount));
    }
  }
  return { origins, bridgedByParent, bridgeOf, originOf, bridgedByIdentity, dvmById, resets, pair, sportsMarkets };
}

function originOfLog(log: StoredLog): Origin {
  return {
    oracle: getAddress(log.address),
    args: decodeStored<DisputeArgs>(optimisticOracleV2Abi, log).args,
    disputedAt: log.blockTimestamp,
    txHash: log.transactionHash,
    logIndex: log.logIndex,
    blockNumber: log.blockNumber,
  };
}

// Mainnet requests whose Polygon origin a targeted lookup did not find: not retried on every pass.
const unresolvedLookups = ((globalThis as unknown as { __predmktOracleMisses?: Map<string, number> }).__predmktOracleMisses ??= new Map<
  string,
  number
>());
const MISS_RETRY_MS = 10 * 60_000;

/**
 * The Polygon side of a compressed mainnet request: its PriceRequestBridged log (parentRequestId = the request id)
 * and the dispute in the same transaction. From the scan when it covers the block, else one eth_getLogs at
 * childBlockNumber (stored, so the next pass finds it in the database). The dispute time is the block time of that
 * transaction, known from the bridged log even when the dispute log itself is not found.
 */
export async function findOriginOfCompressed(
  ctx: OracleContext,
  request: DvmRequest,
  ref: CompressedReference,
  sources: DisputeSources,
): Promise<{ bridged: BridgedArgs; origin: Origin | null; disputedAt: bigint | null } | null> {
  const known = sources.bridgedByParent.get(lower(request.id));
  if (known) {
    const origin = sources.originOf.get(known);
    if (origin) return { bridged: known.args, origin, disputedAt: origin.disputedAt ?? known.log.blockTimestamp };
  }
  const missAt = unresolvedLookups.get(request.id);
  if (missAt && Date.now() - missAt < MISS_RETRY_MS) return null;
  const from = ref.childBlockNumber > 0n ? ref.childBlockNumber - 1n : 0n;
  const events = [...polygonEvents.priceRequestBridged, ...polygonEvents.disputePrice];
  const addresses = [ref.childOracle, ref.childRequester];
  const db = await ctx.db();
  const isOurBridge = (l: StoredLog) =>
    l.address === lower(ref.childOracle) &&
    lower(decodeStored<BridgedArgs>(oracleChildTunnelAbi, l).args.parentRequestId) === lower(request.id);
  let logs = await readLogs(db, "polygon", addresses, events, from, ref.childBlockNumber);
  if (!logs.some(isOurBridge)) {
    const fetched = await onChain("polygon", () =>
      ctx.clients.polygon.getLogs({ address: addresses, events, fromBlock: from, toBlock: ref.childBlockNumber, strict: false }),
    );
    await storeLogs(db, "polygon", fetched);
    logs = await readLogs(db, "polygon", addresses, events, from, ref.childBlockNumber);
  }
  const bridgedLog = logs.find(isOurBridge);
  if (!bridgedLog) {
    unresolvedLookups.set(request.id, Date.now());
    return null;
  }
  const sameTx = logs.filter((l) => l.transactionHash === bridgedLog.transactionHash);
  const bridgedEntries = sameTx
    .filter((l) => l.address === lower(ref.childOracle))
    .map((l): BridgedEntry => ({ args: decodeStored<BridgedArgs>(oracleChildTunnelAbi, l).args, log: l }));
  const ours = bridgedEntries.find((e) => e.log.logIndex === bridgedLog.logIndex)!;
  const bridged = ours.args;
  const pairs = sources.pair(sameTx.filter((l) => l.address === lower(ref.childRequester)).map(originOfLog), bridgedEntries);
  const origin = [...pairs].find(([, b]) => b === ours)?.[0] ?? null;
  let disputedAt = origin?.disputedAt ?? bridgedLog.blockTimestamp;
  if (disputedAt === null) {
    disputedAt = (await onChain("polygon", () => ctx.clients.polygon.getBlock({ blockNumber: bridgedLog.blockNumber }))).timestamp;
  }
  if (origin) origin.disputedAt = disputedAt;
  return { bridged, origin, disputedAt };
}
