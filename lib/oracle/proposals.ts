// Polymarket's Optimistic Oracle requests as the index holds them (oracle_requests on Polygon, from the ProposePrice,
// DisputePrice and Settle logs of Polymarket's requesters, lib/oracle/derived.ts): what the resolution layer needs to
// say `proposed` and `settled` without a chain read. Read from the database only.
import type { Hex } from "viem";
import { CHAIN_IDS } from "./clients";
import type { OracleContext } from "./context";

export interface IndexedProposal {
  /** The OO request id (lower case). */
  id: Hex;
  requester: Hex;
  /** keccak256 of the requester's ancillary data: Polymarket's questionID. */
  question_id: Hex;
  /** OOv2 State as the index knows it: 2 Proposed, 3 Expired, 4 Disputed (or later, read), 6 Settled. */
  oo_state: 2 | 3 | 4 | 6;
  /** Scaled from 1e18 (decimal string). */
  proposed_price: string | null;
  requested_at: number | null;
  proposed_at: number | null;
  disputed_at: number | null;
  settled_at: number | null;
}

/** Settled requests listed at most (newest settlements first); unsettled ones are all listed. */
const SETTLED_PROPOSALS_LISTED = 5_000;

const ONE = 10n ** 18n;
function decimal(wei: bigint): string {
  const negative = wei < 0n;
  const abs = negative ? -wei : wei;
  const fraction = (abs % ONE).toString().padStart(18, "0").replace(/0+$/, "");
  return `${negative ? "-" : ""}${abs / ONE}${fraction ? `.${fraction}` : ""}`;
}

type Row = Awaited<ReturnType<Awaited<ReturnType<OracleContext["db"]>>["oracleRequest"]["findMany"]>>[number];

function toProposal(r: Row): IndexedProposal {
  const state: IndexedProposal["oo_state"] =
    r.settledBlock !== null || r.state === 6 ? 6 : r.disputedBlock !== null || (r.state ?? 0) >= 4 ? 4 : r.state === 3 ? 3 : 2;
  const n = (v: bigint | null) => (v === null ? null : Number(v));
  return {
    id: r.requestId as Hex,
    requester: r.requester as Hex,
    question_id: r.questionId as Hex,
    oo_state: state,
    proposed_price: r.proposedPrice === null ? null : decimal(BigInt(r.proposedPrice.toFixed())),
    requested_at: n(r.requestedAt),
    proposed_at: n(r.proposedAt),
    disputed_at: n(r.disputedAt),
    settled_at: n(r.settledAt),
  };
}

/** Every unsettled Polymarket request with a proposal, and the most recently settled ones. */
export async function readIndexedProposals(ctx: OracleContext): Promise<IndexedProposal[]> {
  const db = await ctx.db();
  const base = { chainId: CHAIN_IDS.polygon, questionId: { not: null }, requester: { not: null } };
  const [open, settled] = await Promise.all([
    db.oracleRequest.findMany({ where: { ...base, proposedBlock: { not: null }, settledBlock: null } }),
    db.oracleRequest.findMany({
      where: { ...base, settledBlock: { not: null } },
      orderBy: { settledBlock: "desc" },
      take: SETTLED_PROPOSALS_LISTED,
    }),
  ]);
  return [...open, ...settled].map(toProposal);
}
