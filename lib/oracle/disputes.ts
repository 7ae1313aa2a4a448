// Disputed Polymarket questions with cleartext titles and lifecycle status.
//
// Two sources, joined: (A) DisputePrice logs of the Polygon Optimistic Oracles whose requester is a Polymarket
// adapter; their ancillary data is the question's cleartext. (B) the mainnet DVM's RequestAdded logs: since 2025-04
// a bridged request carries only `ancillaryDataHash:…,childBlockNumber:…` (no text), so it is matched to its Polygon
// origin through the child tunnel's PriceRequestBridged log (the same transaction as the dispute; parentRequestId =
// the mainnet request id) and, when that origin lies outside the Polygon scan, found by a targeted eth_getLogs at
// childBlockNumber. Status combines OOv2.getState on Polygon with VotingV2.getPriceRequestStatuses on mainnet.
import { type Address, formatUnits, getAddress, type Hex, type Log } from "viem";
import { optimisticOracleV2Abi, oracleChildTunnelAbi, votingV2Abi } from "./abi";
import {
  decodeAncillaryData,
  decodeIdentifier,
  dvmRequestId,
  legacyBridgedAncillaryData,
  optimisticOracleRequestId,
  parseCompressed,
  parsePolymarketText,
  stampAncillaryData,
} from "./ancillary";
import { MULTICALL_BATCH_BYTES, MULTICALL3_ADDRESS } from "./clients";
import { headOf, type OracleContext, polygonEvents, polygonScan, votingEvents, votingScan } from "./context";
import { onChain } from "./errors";
import { type DisputeStatus, disputeLifecycle, dvmStatusName, type VotePhase } from "./lifecycle";
import { advanceScan, decodeStored, readLogs, type StoredLog, storeLogs } from "./scan";

interface DisputeArgs {
  requester: Address;
  proposer: Address;
  disputer: Address;
  identifier: Hex;
  timestamp: bigint;
  ancillaryData: Hex;
  proposedPrice: bigint;
}
interface BridgedArgs {
  requester: Address;
  identifier: Hex;
  time: bigint;
  ancillaryData: Hex;
  childRequestId: Hex;
  parentRequestId: Hex;
}
interface RequestAddedArgs {
  requester: Address;
  roundId: number;
  identifier: Hex;
  time: bigint;
  ancillaryData: Hex;
}
interface RolledArgs {
  identifier: Hex;
  time: bigint;
  ancillaryData: Hex;
  rollCount: number;
}

interface Origin {
  oracle: Address;
  args: DisputeArgs;
  disputedAt: bigint | null;
  txHash: Hex;
}
interface DvmRequest {
  id: Hex;
  identifier: Hex;
  time: bigint;
  ancillaryData: Hex;
  form: "compressed" | "legacy";
}
interface Row {
  origin: Origin | null;
  /** Cleartext question as the OO requester wrote it (or, for a legacy-only row, as mainnet carries it). */
  text: string;
  requester: Address;
  identifier: Hex;
  dvm: DvmRequest | null;
}

export interface DisputedAssertion {
  id: Hex;
  title: string | null;
  description: string | null;
  market_id: string | null;
  status: DisputeStatus;
  vote_phase: VotePhase | null;
  roll_count: number;
  requester: Address;
  proposer: Address | null;
  disputer: Address | null;
  proposed_price: string | null;
  identifier: string;
  requested_at: string | null;
  disputed_at: string | null;
  chain: "polygon";
  oracle_address: Address | null;
  dispute_tx_hash: Hex | null;
  dvm: { request_id: Hex; status: ReturnType<typeof dvmStatusName>; round_id: number | null; ancillary_form: "compressed" | "legacy" } | null;
}

export interface DisputesSnapshot {
  disputes: DisputedAssertion[];
  blockNumbers: { ethereum: bigint; polygon: bigint };
  asOf: bigint;
  backfillComplete: boolean;
}

const iso = (seconds: bigint) => new Date(Number(seconds) * 1000).toISOString();
const lower = (a: string) => a.toLowerCase();

// Mainnet requests whose Polygon origin a targeted lookup did not find: not retried on every refresh.
const unresolvedLookups = ((globalThis as unknown as { __predmktOracleMisses?: Map<string, number> }).__predmktOracleMisses ??= new Map());
const MISS_RETRY_MS = 10 * 60_000;

async function findOriginOfCompressed(
  ctx: OracleContext,
  request: DvmRequest,
  ref: NonNullable<ReturnType<typeof parseCompressed>>,
  bridgedByParent: Map<string, { args: BridgedArgs; log: StoredLog }>,
  disputesByTx: Map<string, Origin[]>,
): Promise<{ bridged: BridgedArgs; origin: Origin | null } | null> {
  const known = bridgedByParent.get(lower(request.id));
  if (known) {
    const origin = disputesByTx.get(lower(known.log.transactionHash))?.find((o) => lower(stampAncillaryData(o.args.ancillaryData, o.args.requester)) === lower(known.args.ancillaryData));
    if (origin) return { bridged: known.args, origin };
  }
  const missAt = unresolvedLookups.get(request.id);
  if (missAt && Date.now() - missAt < MISS_RETRY_MS) return null;
  const from = ref.childBlockNumber > 0n ? ref.childBlockNumber - 1n : 0n;
  const events = [...polygonEvents.priceRequestBridged, ...polygonEvents.disputePrice];
  const addresses = [ref.childOracle, ref.childRequester];
  const db = await ctx.db();
  let logs = await readLogs(db, "polygon", addresses, events, from, ref.childBlockNumber);
  const hasBridged = (list: StoredLog[]) =>
    list.some((l) => l.address === lower(ref.childOracle) && lower(decodeStored<BridgedArgs>(oracleChildTunnelAbi, l).args.parentRequestId) === lower(request.id));
  if (!hasBridged(logs)) {
    const fetched = await onChain("polygon", () =>
      ctx.clients.polygon.getLogs({ address: addresses, events, fromBlock: from, toBlock: ref.childBlockNumber, strict: false }),
    );
    await storeLogs(db, "polygon", fetched as unknown as Log[]);
    logs = await readLogs(db, "polygon", addresses, events, from, ref.childBlockNumber);
  }
  const bridgedLog = logs.find(
    (l) => l.address === lower(ref.childOracle) && lower(decodeStored<BridgedArgs>(oracleChildTunnelAbi, l).args.parentRequestId) === lower(request.id),
  );
  if (!bridgedLog) {
    unresolvedLookups.set(request.id, Date.now());
    return null;
  }
  const bridged = decodeStored<BridgedArgs>(oracleChildTunnelAbi, bridgedLog).args;
  const disputeLog = logs.find((l) => l.transactionHash === bridgedLog.transactionHash && l.address === lower(ref.childRequester));
  let origin: Origin | null = null;
  if (disputeLog) {
    const args = decodeStored<DisputeArgs>(optimisticOracleV2Abi, disputeLog).args;
    let disputedAt = disputeLog.blockTimestamp;
    if (disputedAt === null) {
      disputedAt = (await onChain("polygon", () => ctx.clients.polygon.getBlock({ blockNumber: disputeLog.blockNumber }))).timestamp;
    }
    origin = { oracle: getAddress(disputeLog.address), args, disputedAt, txHash: disputeLog.transactionHash };
  }
  return { bridged, origin };
}

export async function loadDisputes(ctx: OracleContext): Promise<DisputesSnapshot> {
  const { config } = ctx;
  const [ethHead, polyHead] = await Promise.all([headOf(ctx, "ethereum"), headOf(ctx, "polygon")]);
  const [ethScan, polyScan] = await Promise.all([
    advanceScan(ctx, votingScan(config), ethHead.number),
    advanceScan(ctx, polygonScan(config), polyHead.number),
  ]);
  const db = await ctx.db();
  const [disputeLogs, bridgedLogs, addedLogs, rolledLogs] = await Promise.all([
    readLogs(db, "polygon", config.optimisticOracles, polygonEvents.disputePrice, config.optimisticOraclesFromBlock),
    readLogs(db, "polygon", [config.childTunnel], polygonEvents.priceRequestBridged, config.optimisticOraclesFromBlock),
    readLogs(db, "ethereum", [config.votingV2], votingEvents.requestAdded, config.votingV2FromBlock),
    readLogs(db, "ethereum", [config.votingV2], votingEvents.requestRolled, config.votingV2FromBlock),
  ]);

  const disputesByTx = new Map<string, Origin[]>();
  const origins: Origin[] = disputeLogs.map((log) => {
    const origin = { oracle: getAddress(log.address), args: decodeStored<DisputeArgs>(optimisticOracleV2Abi, log).args, disputedAt: log.blockTimestamp, txHash: log.transactionHash };
    disputesByTx.set(lower(log.transactionHash), [...(disputesByTx.get(lower(log.transactionHash)) ?? []), origin]);
    return origin;
  });
  const bridgedByTx = new Map<string, BridgedArgs[]>();
  const bridgedByParent = new Map<string, { args: BridgedArgs; log: StoredLog }>();
  for (const log of bridgedLogs) {
    const args = decodeStored<BridgedArgs>(oracleChildTunnelAbi, log).args;
    bridgedByTx.set(lower(log.transactionHash), [...(bridgedByTx.get(lower(log.transactionHash)) ?? []), args]);
    bridgedByParent.set(lower(args.parentRequestId), { args, log });
  }
  const dvmById = new Map<string, DvmRequest>();
  const dvmIdByAncillary = new Map<string, string>();
  for (const log of addedLogs) {
    const args = decodeStored<RequestAddedArgs>(votingV2Abi, log).args;
    const id = dvmRequestId(args.identifier, args.time, args.ancillaryData);
    const form = parseCompressed(decodeAncillaryData(args.ancillaryData)) ? "compressed" : "legacy";
    dvmById.set(lower(id), { id, identifier: args.identifier, time: args.time, ancillaryData: args.ancillaryData, form });
    dvmIdByAncillary.set(lower(args.ancillaryData), lower(id));
  }
  const rollCounts = new Map<string, number>();
  for (const log of rolledLogs) {
    const args = decodeStored<RolledArgs>(votingV2Abi, log).args;
    const id = lower(dvmRequestId(args.identifier, args.time, args.ancillaryData));
    rollCounts.set(id, Math.max(rollCounts.get(id) ?? 0, Number(args.rollCount)));
  }

  // (A) Polymarket disputes on Polygon, each linked to its DVM request when it has reached mainnet.
  const rows: Row[] = [];
  const linked = new Set<string>();
  for (const origin of origins) {
    if (!config.polymarketRequesters.has(lower(origin.args.requester))) continue;
    const stamped = stampAncillaryData(origin.args.ancillaryData, origin.args.requester);
    const bridged = bridgedByTx.get(lower(origin.txHash))?.find((b) => lower(b.ancillaryData) === lower(stamped) && b.identifier === origin.args.identifier);
    const dvmId = bridged ? lower(bridged.parentRequestId) : dvmIdByAncillary.get(lower(legacyBridgedAncillaryData(stamped, origin.oracle)));
    const dvm = dvmId ? (dvmById.get(dvmId) ?? null) : null;
    if (dvm) linked.add(lower(dvm.id));
    rows.push({ origin, text: decodeAncillaryData(origin.args.ancillaryData), requester: origin.args.requester, identifier: origin.args.identifier, dvm });
  }
  // (B) DVM requests not matched above: bridged Polymarket questions whose Polygon origin the scan did not cover.
  for (const dvm of dvmById.values()) {
    if (linked.has(lower(dvm.id))) continue;
    const text = decodeAncillaryData(dvm.ancillaryData);
    const ref = parseCompressed(text);
    if (ref) {
      if (ref.childChainId !== 137) continue;
      const found = await findOriginOfCompressed(ctx, dvm, ref, bridgedByParent, disputesByTx);
      if (!found) continue;
      const stampedText = decodeAncillaryData(found.bridged.ancillaryData);
      const requester = parsePolymarketText(stampedText).ooRequester;
      if (!requester || !config.polymarketRequesters.has(lower(requester))) continue;
      const questionText = found.origin ? decodeAncillaryData(found.origin.args.ancillaryData) : stampedText;
      rows.push({ origin: found.origin, text: questionText, requester, identifier: found.bridged.identifier, dvm });
    } else {
      const parsed = parsePolymarketText(text);
      if (parsed.childChainId !== 137 || !parsed.ooRequester || !config.polymarketRequesters.has(lower(parsed.ooRequester))) continue;
      rows.push({ origin: null, text, requester: parsed.ooRequester, identifier: dvm.identifier, dvm });
    }
  }

  // Contract states, each chain read at its head block in one Multicall3 round trip.
  const withOrigin = rows.filter((r) => r.origin);
  const ooStates = withOrigin.length
    ? await onChain("polygon", () =>
        ctx.clients.polygon.multicall({
          allowFailure: false,
          blockNumber: polyHead.number,
          multicallAddress: MULTICALL3_ADDRESS,
          batchSize: MULTICALL_BATCH_BYTES,
          contracts: withOrigin.map((r) => ({
            address: r.origin!.oracle,
            abi: optimisticOracleV2Abi,
            functionName: "getState",
            args: [r.origin!.args.requester, r.origin!.args.identifier, r.origin!.args.timestamp, r.origin!.args.ancillaryData],
          }) as const),
        }),
      )
    : [];
  const ooStateOf = new Map(withOrigin.map((r, i) => [r, Number(ooStates[i])]));
  const dvmRows = rows.filter((r) => r.dvm);
  const [phase, statuses] = await onChain("ethereum", () =>
    ctx.clients.ethereum.multicall({
      allowFailure: false,
      blockNumber: ethHead.number,
      multicallAddress: MULTICALL3_ADDRESS,
      batchSize: MULTICALL_BATCH_BYTES,
      contracts: [
        { address: config.votingV2, abi: votingV2Abi, functionName: "getVotePhase" },
        {
          address: config.votingV2,
          abi: votingV2Abi,
          functionName: "getPriceRequestStatuses",
          args: [dvmRows.map((r) => ({ identifier: r.dvm!.identifier, time: r.dvm!.time, ancillaryData: r.dvm!.ancillaryData }))],
        },
      ],
    }),
  );
  const dvmStateOf = new Map(dvmRows.map((r, i) => [r, statuses[i]]));
  const votePhase: VotePhase = Number(phase) === 1 ? "reveal" : "commit";

  const disputes: DisputedAssertion[] = [];
  for (const row of rows) {
    const dvmState = dvmStateOf.get(row) ?? null;
    const lifecycle = disputeLifecycle(row.origin ? ooStateOf.get(row)! : null, dvmState ? Number(dvmState.status) : null, votePhase);
    if (!lifecycle) continue;
    const question = parsePolymarketText(row.text);
    const o = row.origin;
    disputes.push({
      id: o ? optimisticOracleRequestId(o.args.requester, o.args.identifier, o.args.timestamp, o.args.ancillaryData) : row.dvm!.id,
      title: question.title,
      description: question.description,
      market_id: question.marketId,
      ...lifecycle,
      roll_count: row.dvm ? (rollCounts.get(lower(row.dvm.id)) ?? 0) : 0,
      requester: getAddress(row.requester),
      proposer: o ? getAddress(o.args.proposer) : null,
      disputer: o ? getAddress(o.args.disputer) : null,
      proposed_price: o ? formatUnits(o.args.proposedPrice, 18) : null,
      identifier: decodeIdentifier(row.identifier),
      requested_at: o ? iso(o.args.timestamp) : null,
      disputed_at: o?.disputedAt != null ? iso(o.disputedAt) : null,
      chain: "polygon",
      oracle_address: o ? o.oracle : null,
      dispute_tx_hash: o ? o.txHash : null,
      dvm: row.dvm
        ? {
            request_id: row.dvm.id,
            status: dvmStatusName(dvmState ? Number(dvmState.status) : null),
            round_id: dvmState && dvmState.lastVotingRound > 0 ? Number(dvmState.lastVotingRound) : null,
            ancillary_form: row.dvm.form,
          }
        : null,
    });
  }
  // Newest dispute first; rows without a known dispute time (legacy mainnet-only) last.
  disputes.sort((a, b) => (b.disputed_at ?? "").localeCompare(a.disputed_at ?? ""));
  return {
    disputes,
    blockNumbers: { ethereum: ethHead.number, polygon: polyHead.number },
    asOf: ethHead.timestamp,
    backfillComplete: ethScan.complete && polyScan.complete,
  };
}
