// The oracle bench's "answers vs the seeded world" count (bench/oracle.ts): the /disputes rows of the scaled world
// against what sim/chain/scaled.ts seeded. The world holds two kinds of dispute (docs/oracle-indexer.md, "Measured at
// mainnet scale"): the standard questions, each bridged to a DVM request on mainnet (`world.disputes`), and the
// neg-risk and sports disputes, seeded on Polygon only (no mainnet request, so their rows carry `dvm: null`). Both kinds
// are in `world.expected`, one row each; the count compares rows with each kind and counts only real DVM request ids.
import type { ScaledWorld } from "../../sim/chain/scaled";

/** The fields of a /disputes row this count reads. */
export interface ListedDispute {
  dvm: { request_id: string; status: string | null; ancillary_form: "compressed" | "legacy" } | null;
  roll_count: number;
}

export type SeededDisputes = Pick<ScaledWorld, "disputes" | "expected" | "negRisk" | "games">;

export function disputeAnswers(rows: readonly ListedDispute[], world: SeededDisputes) {
  const bridged = rows.filter((d) => d.dvm !== null);
  return {
    disputes_listed: rows.length,
    disputes_seeded: world.expected.length,
    bridged_rows: bridged.length,
    bridged_seeded: world.disputes,
    polygon_only_rows: rows.length - bridged.length,
    polygon_only_seeded: world.negRisk.length + world.games.length,
    distinct_dvm_requests: new Set(bridged.map((d) => d.dvm!.request_id.toLowerCase())).size,
    legacy_rows: bridged.filter((d) => d.dvm!.ancillary_form === "legacy").length,
    compressed_rows: bridged.filter((d) => d.dvm!.ancillary_form === "compressed").length,
    deleted_rows: bridged.filter((d) => d.dvm!.status === "deleted").length,
    rolled_rows: rows.filter((d) => d.roll_count > 0).length,
  };
}

/** The disputes part of the bench row: listed/seeded in all, then each kind, and the DVM requests the bridged rows name. */
export function disputeAnswersText(a: ReturnType<typeof disputeAnswers>, degradedRows: number): string {
  return (
    `${a.disputes_listed}/${a.disputes_seeded} disputes (${a.bridged_rows}/${a.bridged_seeded} bridged to the DVM, ` +
    `${a.distinct_dvm_requests} distinct DVM requests; ${a.polygon_only_rows}/${a.polygon_only_seeded} neg-risk and sports ` +
    `on Polygon only; ${degradedRows} degraded rows)`
  );
}
