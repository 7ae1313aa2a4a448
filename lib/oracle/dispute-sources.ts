// The indexed logs behind /disputes, decoded and keyed: Polygon disputes (OOv2 DisputePrice), the child tunnel's
// PriceRequestBridged, and the mainnet DVM's requests with their rolls and deletions. Plus the one chain lookup the
// join may need: the Polygon origin of a compressed mainnet request whose dispute lies before the Polygon scan window.
import { type Address, getAddress, type Hex } from "viem";
import { optimisticOracleV2Abi, oracleChildTunnelAbi, votingV2Abi } from "./abi";
import { type CompressedReference, decodeAncillaryData, dvmRequestId, parseCompressed, stampAncillaryData } from "./ancillary";
import { type OracleContext, polygonEvents, votingEvents } from "./context";
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
}

export interface Origin {
  oracle: Address;
  /** Position of the DisputePrice log in its block: its bridging log follows it in the same transaction. */
  logIndex: number;
  args: DisputeArgs;
  disputedAt: bigint | null;
  txHash: Hex;
}
export interface DvmRequest {
  id: Hex;
  identifier: Hex;
  time: bigint;
  ancillaryData: Hex;
  form: "compressed" | "legacy";
  /** Highest rollCount of its RequestRolled logs (emitted lazily: getPendingRequests has the true count). */
  rolledLogs: number;
  deleted: boolean;
}

export interface DisputeSources {
  origins: Origin[];
  disputesByTx: Map<string, Origin[]>;
  bridgedByTx: Map<string, { args: BridgedArgs; log: StoredLog }[]>;
  bridgedByParent: Map<string, { args: BridgedArgs; log: StoredLog }>;
  dvmById: Map<string, DvmRequest>;
}

export const lower = (a: string) => a.toLowerCase();

function push<K, V>(map: Map<K, V[]>, key: K, value: V) {
  map.set(key, [...(map.get(key) ?? []), value]);
}

/** Reads and decodes every stored log /disputes needs, each chain's up to its indexed block. */
export async function readDisputeSources(ctx: OracleContext, heads: { ethereum: bigint; polygon: bigint }): Promise<DisputeSources> {
  const { config } = ctx;
  const db = await ctx.db();
  const [disputeLogs, bridgedLogs, addedLogs, rolledLogs, deletedLogs] = await Promise.all([
    readLogs(db, "polygon", config.optimisticOracles, polygonEvents.disputePrice, config.optimisticOraclesFromBlock, heads.polygon),
    readLogs(db, "polygon", [config.childTunnel], polygonEvents.priceRequestBridged, config.optimisticOraclesFromBlock, heads.polygon),
    readLogs(db, "ethereum", [config.votingV2], votingEvents.requestAdded, config.votingV2FromBlock, heads.ethereum),
    readLogs(db, "ethereum", [config.votingV2], votingEvents.requestRolled, config.votingV2FromBlock, heads.ethereum),
    readLogs(db, "ethereum", [config.votingV2], votingEvents.requestDeleted, config.votingV2FromBlock, heads.ethereum),
  ]);
  const disputesByTx = new Map<string, Origin[]>();
  const origins = disputeLogs.map((log) => {
    const origin: Origin = {
      oracle: getAddress(log.address),
      args: decodeStored<DisputeArgs>(optimisticOracleV2Abi, log).args,
      disputedAt: log.blockTimestamp,
      txHash: log.transactionHash,
      logIndex: log.logIndex,
    };
    push(disputesByTx, lower(log.transactionHash), origin);
    return origin;
  });
  const bridgedByTx = new Map<string, { args: BridgedArgs; log: StoredLog }[]>();
  const bridgedByParent = new Map<string, { args: BridgedArgs; log: StoredLog }>();
  for (const log of bridgedLogs) {
    const entry = { args: decodeStored<BridgedArgs>(oracleChildTunnelAbi, log).args, log };
    push(bridgedByTx, lower(log.transactionHash), entry);
    bridgedByParent.set(lower(entry.args.parentRequestId), entry);
  }
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
  return { origins, disputesByTx, bridgedByTx, bridgedByParent, dvmById };
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
    // The dispute right before the bridging log (one transaction may hold several disputes, even of one text).
    const origin = sources.disputesByTx
      .get(lower(known.log.transactionHash))
      ?.filter(
        (o) =>
          o.logIndex < known.log.logIndex &&
          lower(stampAncillaryData(o.args.ancillaryData, o.args.requester)) === lower(known.args.ancillaryData),
      )
      .sort((a, b) => b.logIndex - a.logIndex)[0];
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
  const bridged = decodeStored<BridgedArgs>(oracleChildTunnelAbi, bridgedLog).args;
  const disputeLog = logs
    .filter(
      (l) =>
        l.transactionHash === bridgedLog.transactionHash && l.address === lower(ref.childRequester) && l.logIndex < bridgedLog.logIndex,
    )
    .sort((a, b) => b.logIndex - a.logIndex)[0];
  const origin: Origin | null = disputeLog
    ? {
        oracle: getAddress(disputeLog.address),
        args: decodeStored<DisputeArgs>(optimisticOracleV2Abi, disputeLog).args,
        disputedAt: disputeLog.blockTimestamp,
        txHash: disputeLog.transactionHash,
        logIndex: disputeLog.logIndex,
      }
    : null;
  let disputedAt = disputeLog?.blockTimestamp ?? bridgedLog.blockTimestamp;
  if (disputedAt === null) {
    disputedAt = (await onChain("polygon", () => ctx.clients.polygon.getBlock({ blockNumber: bridgedLog.blockNumber }))).timestamp;
  }
  if (origin) origin.disputedAt = disputedAt;
  return { bridged, origin, disputedAt };
}
