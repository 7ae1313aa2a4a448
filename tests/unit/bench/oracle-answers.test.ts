// The oracle bench's "answers vs the seeded world" count (bench/lib/oracle-answers.ts): the scaled world seeds bridged
// disputes (a DVM request each) and neg-risk and sports disputes on Polygon only (`dvm: null`), all in `expected`.
import { describe, expect, it } from "vitest";
import { disputeAnswers, disputeAnswersText, type ListedDispute, type SeededDisputes } from "@/bench/lib/oracle-answers";

const bridgedRow = (requestId: string, form: "legacy" | "compressed", rolls = 0): ListedDispute => ({
  dvm: { request_id: requestId, status: "resolved", ancillary_form: form },
  roll_count: rolls,
});
const polygonOnlyRow: ListedDispute = { dvm: null, roll_count: 0 };

// Three bridged disputes (the third a second dispute of the first question: same text, its own DVM request), one
// neg-risk and one sports dispute on Polygon only.
const world: SeededDisputes = {
  disputes: 3,
  expected: ["Scaled question #0", "Scaled question #1", "Scaled question #0", "Scaled neg-risk question #0", "Scaled game #0"].map(
    (title, i) => ({ title, requestedAt: new Date(i * 600_000).toISOString(), status: "dvm_resolved" as const, rollCount: 0 }),
  ),
  negRisk: [{ questionId: "0x01", conditionId: null }],
  games: [{ gameId: "0x02", conditionIds: [] }],
};

describe("oracle bench: disputes listed vs seeded", () => {
  it("counts the Polygon-only disputes as seeded and their missing DVM link as no request", () => {
    const rows = [
      bridgedRow("0xaa", "legacy"),
      bridgedRow("0xbb", "compressed", 2),
      bridgedRow("0xcc", "legacy"),
      polygonOnlyRow,
      polygonOnlyRow,
    ];
    expect(disputeAnswers(rows, world)).toEqual({
      disputes_listed: 5,
      disputes_seeded: 5,
      bridged_rows: 3,
      bridged_seeded: 3,
      polygon_only_rows: 2,
      polygon_only_seeded: 2,
      distinct_dvm_requests: 3,
      legacy_rows: 2,
      compressed_rows: 1,
      deleted_rows: 0,
      rolled_rows: 1,
    });
    expect(disputeAnswersText(disputeAnswers(rows, world), 0)).toBe(
      "5/5 disputes (3/3 bridged to the DVM, 3 distinct DVM requests; 2/2 neg-risk and sports on Polygon only; 0 degraded rows)",
    );
  });

  it("still shows a dispute listed twice: more bridged rows than seeded, fewer distinct requests than rows", () => {
    const rows = [
      bridgedRow("0xaa", "legacy"),
      bridgedRow("0xaa", "legacy"),
      bridgedRow("0xbb", "compressed"),
      bridgedRow("0xcc", "legacy"),
      polygonOnlyRow,
      polygonOnlyRow,
    ];
    const answers = disputeAnswers(rows, world);
    expect([answers.disputes_listed, answers.bridged_rows, answers.distinct_dvm_requests]).toEqual([6, 4, 3]);
    expect(disputeAnswersText(answers, 0)).toMatch(/^6\/5 disputes \(4\/3 bridged to the DVM, 3 distinct DVM requests;/);
  });
});
