// The last read state of each oracle request (oracle_requests, lib/oracle/derived.ts): what the disputes builder does
// not need to read again. A request whose state is terminal (an OOv2 request settled; a DVM request resolved), by a
// log the indexer stored (Settle, RequestResolved) or by an earlier read, is never read from the chain again.
import type { Db } from "@/lib/db/client";
import { CHAIN_IDS, type ChainName } from "./clients";
import { refreshTerminal } from "./derived";

interface KnownState {
  terminal: boolean;
  /** The state as the terminal fact says it: OOv2 State 6 (Settled) / VotingV2 status 2 (Resolved) with its round. */
  state: number | null;
  round: number | null;
}

/** Stored states of these requests (ids of either case), keyed by lower-case id. */
export async function knownStates(db: Db, chain: ChainName, ids: readonly string[]): Promise<Map<string, KnownState>> {
  if (!ids.length) return new Map();
  const chainId = CHAIN_IDS[chain];
  const rows = await db.oracleRequest.findMany({
    where: { chainId, requestId: { in: [...new Set(ids.map((id) => id.toLowerCase()))] } },
    select: {
      requestId: true,
      terminal: true,
      state: true,
      stateRound: true,
      settledBlock: true,
      resolvedBlock: true,
      resolvedRound: true,
    },
  });
  return new Map(
    rows.map((r) => {
      if (chain === "polygon") return [r.requestId, { terminal: r.terminal, state: r.terminal ? 6 : r.state, round: null }];
      // A RequestResolved log resolves the request in its round; a read says the same with lastVotingRound.
      const fromLog = r.resolvedBlock !== null;
      return [
        r.requestId,
        { terminal: r.terminal, state: r.terminal ? 2 : r.state, round: fromLog ? r.resolvedRound : (r.stateRound ?? null) },
      ];
    }),
  );
}

/** Records states read at `block`; only rows whose state changed are written (state_block = where it was first seen). */
export async function recordStates(
  db: Db,
  chain: ChainName,
  block: bigint,
  reads: readonly { id: string; state: number; round: number | null }[],
  known: Map<string, KnownState>,
): Promise<void> {
  const chainId = CHAIN_IDS[chain];
  const changed = reads.filter((r) => {
    const k = known.get(r.id.toLowerCase());
    return !k || k.state !== r.state || (chain === "ethereum" && k.round !== r.round);
  });
  if (!changed.length) return;
  const ids = new Set(changed.map((r) => r.id.toLowerCase()));
  await db.$transaction([
    ...changed.map((r) => {
      const data = { state: r.state, stateRound: r.round, stateBlock: block };
      return db.oracleRequest.upsert({
        where: { chainId_requestId: { chainId, requestId: r.id.toLowerCase() } },
        create: { chainId, requestId: r.id.toLowerCase(), ...data },
        update: data,
      });
    }),
    refreshTerminal(db, chainId, ids),
  ]);
}
