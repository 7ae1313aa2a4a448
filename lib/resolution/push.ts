// The `resolution` topic of the live stream, publishing part (docs/stream.md, "Resolution"): after an oracle indexer
// pass, the stored disputes answer is joined to its markets, diffed against the state last published per dispute
// (table resolution_stream_states) and, in one transaction, each transition is appended to the stream log
// (`stream_events`, topic `resolution`) and the published state moves forward. The stream's hub then delivers the
// rows like trades and ticks, with the same cursors and Last-Event-ID replay.
// - Restart-safe: the state and the events commit together; a crash before commit publishes nothing and the next run
//   finds the same transitions again; after commit they are never found again.
// - Several processes (server, worker, cron) may run it: a transaction-scoped advisory lock serialises them, and an
//   answer older than the newest one already published is skipped, so no state goes backwards.
// It reads the stored answer only; it never runs an indexer pass itself (indexAndPublish does both, for the cron).
import type { Db } from "@/lib/db/client";
import { errorFields, log } from "@/lib/log";
import { repeatEvery } from "@/lib/loop";
import type { DisputesBody, RoundsBody } from "@/lib/oracle/bodies";
import type { OracleContext } from "@/lib/oracle/context";
import { type IndexedOutcome, type IndexedSubject, readOutcomeSubjects } from "@/lib/oracle/outcomes";
import { runIndexerPass } from "@/lib/oracle/indexer";
import { readSnapshot, type StoredSnapshot } from "@/lib/oracle/snapshots";
import { marketsForDisputes } from "./markets-for-disputes";
import { indexMarkets, joinDisputeToMarket, joinKeyOf } from "./join";
import { resolutionsByConditionId } from "./market-status";
import { marketsOfSubjects, outcomesByMarket } from "./outcome-markets";
import { diffOutcomes, questionKey, type QuestionTransition } from "./outcome-transitions";
import { questionFactsOf } from "./question-facts";
import { decimalToWei, outcomeInWords, outcomeLabelsFromOutcomes, outcomeLabelsFromText } from "./status";
import { diffResolutions, type PublishedState, type Transition, type TransitionMarket } from "./transitions";

/** The stream log's seq lock (prisma/migrations/20261124140001_stream_events): seq order stays commit order. */
const STREAM_SEQ_LOCK = 741400001;
/** Held by one publisher at a time, for its whole read-diff-write. */
const PUBLISH_LOCK = 741400002;
const stateKey = (ctx: OracleContext) => `resolution_stream_built_at:${ctx.id}`;

/** A dispute's transition (`scope: "dispute"`) or a question's outcome outside the vote (`scope: "question"`). */
type PublishedTransition =
  | (Transition & { scope: "dispute"; proposed_outcome: string | null; seq: number })
  | (QuestionTransition & { proposed_outcome: string | null; seq: number });

interface PublishResult {
  /** `no_answer`: the index has no disputes answer yet; `stale`: a newer answer was already published. */
  status: "published" | "no_answer" | "stale";
  transitions: PublishedTransition[];
}

type Dispute = DisputesBody["data"][number];

async function marketsOf(db: Db, disputes: readonly Dispute[], subjects: readonly IndexedSubject[]) {
  const found = await marketsForDisputes(db, disputes);
  const index = indexMarkets(found.markets);
  const byDispute = new Map(disputes.map((d) => [d.id.toLowerCase(), joinDisputeToMarket(joinKeyOf(d), index).market]));
  // The questions' outcomes outside the vote, on the markets the sampler stored (lib/resolution/outcome-markets.ts).
  const stored = await marketsOfSubjects(db, subjects);
  const standing = subjects.filter((s): s is IndexedOutcome => s.status !== "none");
  const statuses = resolutionsByConditionId(
    disputes.map((d) => {
      const m = byDispute.get(d.id.toLowerCase());
      return { ...d, market: m ? { condition_id: m.condition_id, outcomes: m.outcomes } : null };
    }),
    [],
    await outcomesByMarket(db, standing, stored),
  );
  const statusOf = (conditionId: string) => statuses.get(conditionId.toLowerCase())?.status ?? "none";
  const marketOf = (d: Dispute): TransitionMarket | null => {
    const m = byDispute.get(d.id.toLowerCase());
    if (!m) return null;
    return {
      id: m.id,
      condition_id: m.condition_id.toLowerCase(),
      slug: m.slug,
      event_slug: m.event_slug,
      question: m.question,
      resolution_status: statusOf(m.condition_id),
    };
  };
  const questions = await questionFactsOf(db, subjects, disputes, marketOf, statusOf, stored);
  return { marketOf, outcomesOf: (id: string) => byDispute.get(id.toLowerCase())?.outcomes ?? null, questions };
}

function proposedOutcome(
  t: { proposed_price: string | null },
  description: string | null,
  outcomes: readonly string[] | null,
): string | null {
  if (t.proposed_price === null) return null;
  const labels = outcomeLabelsFromText(description ?? "") ?? (outcomes ? outcomeLabelsFromOutcomes(outcomes) : null);
  return outcomeInWords(decimalToWei(t.proposed_price), labels);
}

/** Publishes the transitions of the stored disputes answer since the last run (see the header). */
export async function publishResolutionTransitions(
  ctx: OracleContext,
  stored?: StoredSnapshot<DisputesBody> | null,
): Promise<PublishResult> {
  const db = await ctx.db();
  const snapshot = stored ?? (await readSnapshot<DisputesBody>(ctx, "disputes"));
  if (!snapshot) return { status: "no_answer", transitions: [] };
  const rounds = await readSnapshot<RoundsBody>(ctx, "rounds");
  const disputes = snapshot.body.data;
  // The outcomes outside the vote as of the answer's Polygon block (an answer stored without one has none).
  const polygonBlock = snapshot.body.meta.polygon_block_number as number | undefined;
  const subjects = polygonBlock === undefined ? [] : await readOutcomeSubjects(ctx, BigInt(polygonBlock));
  // The join may ask Gamma for a market the sampler never stored: done before the transaction, which stays short.
  const { marketOf, outcomesOf, questions } = await marketsOf(db, disputes, subjects);
  const byId = new Map(disputes.map((d) => [d.id.toLowerCase(), d]));
  const builtAt = snapshot.builtAt.toISOString();
  return db.$transaction(
    async (tx) => {
      await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(${PUBLISH_LOCK})::text`);
      const mark = await tx.samplerState.findUnique({ where: { key: stateKey(ctx) } });
      if (mark?.value && mark.value > builtAt) return { status: "stale" as const, transitions: [] };
      const published = new Map<string, PublishedState>(
        (await tx.resolutionStreamState.findMany()).map((r) => [
          r.disputeId,
          {
            status: r.status as PublishedState["status"],
            vote_phase: r.votePhase as PublishedState["vote_phase"],
            round_id: r.roundId,
            roll_count: r.rollCount,
            block_number: r.blockNumber === null ? null : Number(r.blockNumber),
            polygon_block_number: r.polygonBlockNumber === null ? null : Number(r.polygonBlockNumber),
          },
        ]),
      );
      const facts = {
        block_number: snapshot.body.meta.block_number,
        polygon_block_number: snapshot.body.meta.polygon_block_number,
        as_of: snapshot.body.meta.as_of,
        rounds: new Map((rounds?.body.data ?? []).map((r) => [r.round_id, { starts_at: r.starts_at, ends_at: r.ends_at }])),
      };
      const outcomeIn = (disputeId: string | null, t: { proposed_price: string | null }) =>
        disputeId ? proposedOutcome(t, byId.get(disputeId.toLowerCase())?.description ?? null, outcomesOf(disputeId)) : null;
      const found = [
        ...diffResolutions(disputes, published, facts, marketOf).map((t) => ({
          scope: "dispute" as const,
          ...t,
          proposed_outcome: outcomeIn(t.dispute_id, t),
        })),
        ...diffOutcomes(questions, published, facts).map((t) => ({ ...t, proposed_outcome: outcomeIn(t.dispute_id, t) })),
      ];
      // The stream log's ref and the published state's key: the dispute id, or the question's key (outcome-transitions.ts).
      const refOf = (t: (typeof found)[number]) => (t.scope === "dispute" ? t.dispute_id.toLowerCase() : questionKey(t.subject));
      const now = new Date();
      await tx.samplerState.upsert({
        where: { key: stateKey(ctx) },
        create: { key: stateKey(ctx), at: now, value: builtAt },
        update: { at: now, value: builtAt },
      });
      if (!found.length) return { status: "published" as const, transitions: [] };
      await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(${STREAM_SEQ_LOCK})::text`);
      const refs = found.map(refOf);
      const rows = await tx.$queryRawUnsafe<{ seq: bigint; ref: string }[]>(
        `INSERT INTO stream_events (topic, ref, market_id, payload)
         SELECT 'resolution', x->>'ref', x->'e'->'market'->>'id', x->'e'
         FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS t(x, n) ORDER BY n
         RETURNING seq, ref`,
        JSON.stringify(found.map((e, i) => ({ ref: refs[i], e }))),
      );
      const seqOf = new Map(rows.map((r) => [r.ref.toLowerCase(), Number(r.seq)]));
      for (const [i, t] of found.entries()) {
        const ref = refs[i].toLowerCase();
        const data = {
          status: t.to.status,
          votePhase: t.to.vote_phase,
          roundId: t.to.round_id,
          rollCount: t.to.roll_count,
          blockNumber: BigInt(t.block_number),
          polygonBlockNumber: BigInt(t.polygon_block_number),
          seq: BigInt(seqOf.get(ref)!),
          updatedAt: now,
        };
        await tx.resolutionStreamState.upsert({ where: { disputeId: ref }, create: { disputeId: ref, ...data }, update: data });
      }
      const newest = Math.max(...rows.map((r) => Number(r.seq)));
      await tx.$queryRawUnsafe(`SELECT pg_notify('predmkt_stream', $1)::text`, String(newest));
      return {
        status: "published" as const,
        transitions: found.map((t, i): PublishedTransition => ({ ...t, seq: seqOf.get(refs[i].toLowerCase())! })),
      };
    },
    { timeout: 60_000, maxWait: 60_000 },
  );
}

/** One indexer pass, then its transitions published (the cron route). A failed publish leaves the pass's answer. */
export async function indexAndPublish(ctx: OracleContext) {
  const pass = await runIndexerPass(ctx);
  await publishResolutionTransitions(ctx).catch((error) => log.warn("resolution stream: publish failed", errorFields(error)));
  return pass;
}

/**
 * Beside an indexer loop (server, worker, sampler): publishes each new disputes answer, whichever pass built it (the
 * loop's, a cold request's, the cron's), within `intervalSeconds` of its build.
 */
export function startResolutionPublisher(
  ctx: OracleContext,
  intervalSeconds = Math.max(1, Math.min(5, ctx.config.indexIntervalS)),
): () => void {
  let last: number | null = null;
  return repeatEvery(
    intervalSeconds,
    async () => {
      try {
        const snapshot = await readSnapshot<DisputesBody>(ctx, "disputes");
        if (snapshot && snapshot.builtAt.getTime() !== last) {
          await publishResolutionTransitions(ctx, snapshot);
          last = snapshot.builtAt.getTime();
        }
      } catch (error) {
        log.warn("resolution stream: publish failed", errorFields(error));
      }
    },
    "resolution stream: publisher crashed",
  );
}
