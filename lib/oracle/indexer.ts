// The oracle indexer: all chain reading happens here, in a background pass (its cron route /api/cron/oracle, a loop in
// `npm run sampler` and in a server with SAMPLER_INTERVAL_S set, e.g. the demo), never on a warm request. A pass:
//   1. reads each chain's indexed head (finalized, or N confirmations: lib/oracle/context.ts);
//   2. checks the last stored block hash is still on the chain and rewinds the cursors on a reorg;
//   3. advances the log scans to the head within a time budget (the backfill resumes across passes);
//   4. stores the last scanned block's hash;
//   5. builds each endpoint's answer at the head with bounded chain reads and stores it (lib/oracle/snapshots.ts).
// A chain that fails leaves the other chain's work done; an answer that cannot be built keeps its last stored one.
// Table layout and failure modes: docs/oracle-indexer.md.
import { ApiError } from "@/lib/api/errors";
import { errorFields, log } from "@/lib/log";
import { repeatEvery } from "@/lib/loop";
import type { ChainName } from "./clients";
import { chainScans, indexedHead, type OracleContext } from "./context";
import { markExpired, repairManagedExpired } from "./derived";
import { loadDisputes } from "./disputes";
import { toUpstreamError } from "./errors";
import { loadRounds } from "./rounds";
import { advanceScan, type ChainHead, currentChunkSize, rewindOnReorg, type ScanResult, storeCheckpoint } from "./scan";
import { disputesBody, roundsBody, summaryBody, votersBody } from "./bodies";
import { readSnapshot, type SnapshotName, storeSnapshot } from "./snapshots";
import { loadChainSummary } from "./summary";
import { loadVoters } from "./voters";

// Stake refreshes are the pass's most expensive reads (one eth_call per top staker): at most every 5 minutes.
const VOTERS_REFRESH_MS = 5 * 60_000;

interface ChainPassResult {
  head: number | null;
  rewound_to: number | null;
  scanned_to: number | null;
  backfill_progress: number;
  backfill_complete: boolean;
  chunk_size: number;
  error: string | null;
}

interface IndexerPassResult {
  status: "ok" | "partial" | "failed";
  duration_ms: number;
  chains: Record<ChainName, ChainPassResult>;
  snapshots: Record<SnapshotName, "built" | "kept" | "failed">;
  /** JSON-RPC calls this pass sent, by chain and method. */
  rpc_calls: Record<ChainName, Record<string, number>>;
}

interface ChainOutcome {
  head: ChainHead | null;
  scan: ScanResult | null;
  error: ApiError | Error | null;
  result: ChainPassResult;
}

// The last error of each answer, by context and name: a cold request that finds no stored answer reports it.
const lastErrors = ((globalThis as unknown as { __predmktOracleIndexErrors?: Map<string, Error> }).__predmktOracleIndexErrors ??= new Map<
  string,
  Error
>());
const running = ((
  globalThis as unknown as { __predmktOracleIndexPasses?: Map<string, Promise<IndexerPassResult>> }
).__predmktOracleIndexPasses ??= new Map<string, Promise<IndexerPassResult>>());

export function lastIndexError(ctx: OracleContext, name: SnapshotName): Error | undefined {
  return lastErrors.get(`${ctx.id}:${name}`);
}

const repaired = ((globalThis as unknown as { __predmktOracleRepaired?: Set<string> }).__predmktOracleRepaired ??= new Set<string>());

async function indexChain(ctx: OracleContext, chain: ChainName): Promise<ChainOutcome> {
  const result: ChainPassResult = {
    head: null,
    rewound_to: null,
    scanned_to: null,
    backfill_progress: 0,
    backfill_complete: false,
    chunk_size: Number(currentChunkSize(ctx, chain)),
    error: null,
  };
  try {
    const head = await indexedHead(ctx, chain);
    result.head = Number(head.number);
    const rewound = await rewindOnReorg(ctx, chain);
    if (rewound !== null) {
      result.rewound_to = Number(rewound);
      log.warn("oracle indexer: reorg detected, cursors rewound", { chain, rewound_to: Number(rewound) });
    }
    // Polygon has two scans (the Optimistic Oracles', the outcomes outside the vote): the chain is scanned as far as both.
    const scans = [];
    for (const target of chainScans(ctx.config, chain)) scans.push(await advanceScan(ctx, target, head.number));
    const scan = scans.reduce((a, b) => ({
      scannedTo: a.scannedTo < b.scannedTo ? a.scannedTo : b.scannedTo,
      head: a.head,
      complete: a.complete && b.complete,
      progress: Math.min(a.progress, b.progress),
    }));
    Object.assign(result, {
      scanned_to: Number(scan.scannedTo),
      backfill_progress: scan.progress,
      backfill_complete: scan.complete,
      chunk_size: Number(currentChunkSize(ctx, chain)),
    });
    // Legacy OOv2 proposals past liveness at this head are Expired, as getState at the head would say (not the Managed
    // OOv2's: docs/oracle-indexer.md, "Per-oracle semantics").
    if (chain === "polygon") {
      const db = await ctx.db();
      // Once per process and context: rows a Managed OOv2 never answers (State 3) written by an older index.
      if (!repaired.has(ctx.id)) {
        await repairManagedExpired(db, ctx.config.managedOracles);
        repaired.add(ctx.id);
      }
      await markExpired(db, head, ctx.config.managedOracles);
    }
    if (scan.scannedTo >= 0n) {
      const hash = scan.scannedTo === head.number ? head.hash : (await ctx.clients[chain].getBlock({ blockNumber: scan.scannedTo })).hash;
      await storeCheckpoint(ctx, chain, { number: scan.scannedTo, hash });
    }
    return { head, scan, error: null, result };
  } catch (error) {
    const mapped = toUpstreamError(error, chain) ?? (error as Error);
    result.error = mapped.message;
    return { head: null, scan: null, error: mapped, result };
  }
}

async function build(
  ctx: OracleContext,
  name: SnapshotName,
  outcomes: Record<SnapshotName, "built" | "kept" | "failed">,
  work: () => Promise<void>,
) {
  try {
    await work();
    outcomes[name] = "built";
    lastErrors.delete(`${ctx.id}:${name}`);
  } catch (error) {
    outcomes[name] = "failed";
    lastErrors.set(`${ctx.id}:${name}`, error instanceof Error ? error : new Error(String(error)));
    log.warn("oracle indexer: answer not rebuilt", { name, ...errorFields(error) });
  }
}

async function runPass(ctx: OracleContext): Promise<IndexerPassResult> {
  const started = Date.now();
  const before = structuredClone(ctx.clients.rpcCallsByMethod);
  const [eth, poly] = await Promise.all([indexChain(ctx, "ethereum"), indexChain(ctx, "polygon")]);
  const outcomes: Record<SnapshotName, "built" | "kept" | "failed"> = { summary: "kept", disputes: "kept", rounds: "kept", voters: "kept" };
  const failWith = (name: SnapshotName, error: Error | null) => {
    if (!error) return;
    outcomes[name] = "failed";
    lastErrors.set(`${ctx.id}:${name}`, error);
  };
  if (eth.head && eth.scan) {
    const ethHead = eth.head;
    const ethComplete = eth.scan.complete;
    // The DVM's summary first: the active round's request count needs its pending list.
    const chainSummary = await loadChainSummary(ctx, ethHead).then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    await build(ctx, "rounds", outcomes, async () => {
      const unprocessed = chainSummary.ok ? chainSummary.value.unprocessedRolls : null;
      await storeSnapshot(ctx, "rounds", roundsBody(await loadRounds(ctx, ethHead, unprocessed), ethComplete), ethHead.number);
    });
    const previousVoters = await readSnapshot(ctx, "voters");
    const stale = !previousVoters || Date.now() - previousVoters.builtAt.getTime() >= VOTERS_REFRESH_MS || !previousVoters.complete;
    // A reorg may have removed a Staked log the stored list was built from.
    if (stale || eth.result.rewound_to !== null) {
      await build(ctx, "voters", outcomes, async () => {
        await storeSnapshot(ctx, "voters", votersBody(await loadVoters(ctx, ethHead), ethComplete), ethHead.number);
      });
    }
    await build(ctx, "summary", outcomes, async () => {
      if (!chainSummary.ok) throw chainSummary.error;
      const chain = chainSummary.value;
      if (!poly.head || !poly.scan) throw poly.error ?? new Error("polygon not indexed");
      const disputes = await loadDisputes(ctx, { ethereum: ethHead, polygon: poly.head }, chain.rollCounts);
      const complete = ethComplete && poly.scan.complete;
      await storeSnapshot(ctx, "disputes", disputesBody(disputes, complete), ethHead.number);
      outcomes.disputes = "built";
      lastErrors.delete(`${ctx.id}:disputes`);
      await storeSnapshot(ctx, "summary", summaryBody(chain, disputes, complete), ethHead.number);
    });
    if (outcomes.summary === "failed" && outcomes.disputes !== "built") failWith("disputes", lastErrors.get(`${ctx.id}:summary`) ?? null);
  } else {
    for (const name of ["rounds", "voters", "summary", "disputes"] as const) failWith(name, eth.error);
  }
  const rpcCalls = { ethereum: {}, polygon: {} } as Record<ChainName, Record<string, number>>;
  for (const chain of ["ethereum", "polygon"] as const) {
    for (const [method, n] of Object.entries(ctx.clients.rpcCallsByMethod[chain])) {
      const delta = n - (before[chain][method] ?? 0);
      if (delta) rpcCalls[chain][method] = delta;
    }
  }
  const failed = Object.values(outcomes).filter((o) => o === "failed").length;
  return {
    status: failed === 0 && !eth.error && !poly.error ? "ok" : failed === 4 ? "failed" : "partial",
    duration_ms: Date.now() - started,
    chains: { ethereum: eth.result, polygon: poly.result },
    snapshots: outcomes,
    rpc_calls: rpcCalls,
  };
}

/** One indexer pass; concurrent callers in this process share it. */
export function runIndexerPass(ctx: OracleContext): Promise<IndexerPassResult> {
  const current = running.get(ctx.id);
  if (current) return current;
  const pass = runPass(ctx).finally(() => running.delete(ctx.id));
  running.set(ctx.id, pass);
  return pass;
}

export function indexerLoopRunning(ctx: OracleContext): boolean {
  return loops.has(ctx.id);
}
const loops = ((globalThis as unknown as { __predmktOracleLoops?: Set<string> }).__predmktOracleLoops ??= new Set<string>());

/** Runs a pass every `intervalSeconds` (the first at once) until the returned function is called. */
export function startOracleIndexerLoop(ctx: OracleContext, intervalSeconds: number): () => void {
  loops.add(ctx.id);
  const stop = repeatEvery(
    intervalSeconds,
    async () => {
      const result = await runIndexerPass(ctx);
      if (result.status !== "ok")
        log.warn("oracle indexer pass", { status: result.status, chains: result.chains, snapshots: result.snapshots });
    },
    "oracle indexer: pass crashed",
  );
  return () => {
    loops.delete(ctx.id);
    stop();
  };
}
