// The oracle section of `npm run bench` (also `npm run bench:oracle` alone): a mainnet-scale oracle world
// (sim/chain/scaled.ts) behind public-RPC stand-ins with realistic limits (2,000-block ranges, 10,000-result cap, 50M
// gas cap, 5 MB bodies, 25 requests/s), indexed cold from nothing by the oracle indexer, then each oracle endpoint read
// warm. Figures: cold backfill wall time and RPC calls by method, warm p50/p95 per endpoint, RPC calls per warm request.
import { performance } from "node:perf_hooks";
import { PGlite } from "@electric-sql/pglite";
import { benchOracleContext, benchOracleScale, pairByLogOrder } from "./lib/oracle-world";
import { disputeAnswers, disputeAnswersText } from "./lib/oracle-answers";

export interface BenchRow {
  section: string;
  figure: string;
  value: string;
  database: string;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export async function oracleBench(progress: (line: string) => void, rows: BenchRow[], figures: Record<string, unknown>): Promise<void> {
  const { startLocalChains } = await import("../sim/chain");
  const { seedScaledWorld } = await import("../sim/chain/scaled");
  const { REALISTIC_LIMITS } = await import("../sim/rpc/standin");
  const { runIndexerPass } = await import("../lib/oracle/indexer");
  const service = await import("../lib/oracle/service");

  progress("oracle: starting the local chains behind public-RPC stand-ins (realistic limits)");
  const chains = await startLocalChains({ logChunkSize: 2_000, limits: REALISTIC_LIMITS });
  const pglite = await PGlite.create();
  try {
    progress("oracle: seeding the mainnet-scale world ...");
    const world = await seedScaledWorld(chains, await benchOracleScale());
    progress(
      `oracle: seeded in ${(world.seedMs / 1000).toFixed(1)} s: ${JSON.stringify({ ...world, expected: world.expected.length, negRisk: world.negRisk.length, games: world.games.length })}`,
    );
    const { db, ctx } = await benchOracleContext(chains, pglite);
    for (const s of Object.values(chains.standins)) s.resetCounters();

    // ---- cold backfill: passes until both scans reached the head and every answer is built ----
    const t0 = performance.now();
    const calls: Record<string, number> = {};
    let passes = 0;
    for (;;) {
      const pass = await runIndexerPass(ctx);
      passes += 1;
      for (const byMethod of Object.values(pass.rpc_calls)) for (const [m, n] of Object.entries(byMethod)) calls[m] = (calls[m] ?? 0) + n;
      const done = pass.chains.ethereum.backfill_complete && pass.chains.polygon.backfill_complete;
      progress(
        `oracle: pass ${passes} ${pass.status} in ${pass.duration_ms} ms, progress eth ${pass.chains.ethereum.backfill_progress} ` +
          `polygon ${pass.chains.polygon.backfill_progress}, snapshots ${JSON.stringify(pass.snapshots)}` +
          (pass.chains.ethereum.error || pass.chains.polygon.error
            ? `, errors ${pass.chains.ethereum.error} / ${pass.chains.polygon.error}`
            : ""),
      );
      if (done && Object.values(pass.snapshots).every((s) => s === "built" || s === "kept")) break;
      if (passes >= 5 && pass.status === "failed") throw new Error(`oracle backfill keeps failing: ${JSON.stringify(pass.chains)}`);
      if (passes >= 50) throw new Error(`oracle backfill did not complete in 50 passes: ${JSON.stringify(pass)}`);
    }
    const backfillS = (performance.now() - t0) / 1000;
    const refused = Object.fromEntries(Object.entries(chains.standins).map(([chain, s]) => [chain, s.counters().refused]));
    const totalCalls = Object.values(calls).reduce((a, b) => a + b, 0);

    // ---- the answers, checked against the world ----
    const disputes = (await service.getOracleDisputes(ctx)).body;
    const voters = (await service.getOracleVoters({ limit: 500 }, ctx)).body;
    const rounds = (await service.getOracleRounds(ctx)).body;
    const summary = (await service.getOracleSummary(ctx)).body;
    const scaledRows = disputes.data.filter((d) => d.title?.startsWith("Scaled "));
    // Every kind the world seeded: the bridged disputes and the neg-risk and sports ones on Polygon only (no DVM link).
    const check = {
      ...disputeAnswers(scaledRows, world),
      degraded_rows: disputes.meta.degraded_rows,
      voters: voters.data.length,
      stale_stakes: voters.meta.stale_stakes,
      rounds_listed: rounds.data.length,
      resolved_requests: summary.data.resolved_requests,
    };
    progress(`oracle: answers ${JSON.stringify(check)}`);

    // ---- warm reads: no RPC call on the request path ----
    const before = Object.values(chains.standins).reduce((n, s) => n + s.counters().received, 0);
    const beforeClient = ctx.clients.rpcCalls.ethereum + ctx.clients.rpcCalls.polygon;
    const endpoints = {
      summary: () => service.getOracleSummary(ctx),
      disputes: () => service.getOracleDisputes(ctx),
      rounds: () => service.getOracleRounds(ctx),
      voters: () => service.getOracleVoters({ limit: 50 }, ctx),
    };
    const warm: Record<string, { p50_ms: number; p95_ms: number; n: number }> = {};
    const N = Number(process.env.BENCH_ORACLE_WARM_REQUESTS ?? 200);
    for (const [name, read] of Object.entries(endpoints)) {
      const times: number[] = [];
      for (let i = 0; i < N; i++) {
        const t = performance.now();
        const answer = await read();
        // What a handler does with it: serialise the body.
        JSON.stringify(answer.body);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      warm[name] = { p50_ms: Math.round(percentile(times, 50) * 100) / 100, p95_ms: Math.round(percentile(times, 95) * 100) / 100, n: N };
    }
    const rpcDuringWarm =
      Object.values(chains.standins).reduce((n, s) => n + s.counters().received, 0) -
      before +
      (ctx.clients.rpcCalls.ethereum + ctx.clients.rpcCalls.polygon - beforeClient);
    const warmRequests = N * Object.keys(endpoints).length;

    // ---- every seeded dispute: one row with its status and roll count (sim/chain/scaled.ts `expected`) ----
    const keyOf = (title: string | null, requestedAt: string | null) => `${title}|${requestedAt}`;
    const rowsByKey = new Map<string, typeof scaledRows>();
    for (const d of scaledRows)
      rowsByKey.set(keyOf(d.title, d.requested_at), [...(rowsByKey.get(keyOf(d.title, d.requested_at)) ?? []), d]);
    const expectedKeys = new Set(world.expected.map((e) => keyOf(e.title, e.requestedAt)));
    const rowCheck = { one_row: 0, missing: 0, several_rows: 0, wrong_status: 0, wrong_roll_count: 0, rows_matching_no_dispute: 0 };
    const statusCounts: Record<string, number> = {};
    for (const e of world.expected) {
      const found = rowsByKey.get(keyOf(e.title, e.requestedAt)) ?? [];
      if (!found.length) rowCheck.missing += 1;
      else if (found.length > 1) rowCheck.several_rows += 1;
      else {
        rowCheck.one_row += 1;
        if (found[0].status !== e.status) rowCheck.wrong_status += 1;
        if (found[0].roll_count !== e.rollCount) rowCheck.wrong_roll_count += 1;
        statusCounts[found[0].status] = (statusCounts[found[0].status] ?? 0) + 1;
      }
    }
    rowCheck.rows_matching_no_dispute = scaledRows.filter((d) => !expectedKeys.has(keyOf(d.title, d.requested_at))).length;
    progress(`oracle: rows vs the seeded disputes ${JSON.stringify(rowCheck)}, statuses ${JSON.stringify(statusCounts)}`);

    // ---- the dispute -> market join by path (docs/resolution.md): markets as Gamma would list them for the seeded
    // questions, three in four stored by the sampler, the rest found only by a Gamma lookup of the expected condition
    // ids (lib/resolution/markets-for-disputes.ts marketsForDisputes) ----
    const { indexMarkets, joinDisputeToMarket, joinKeyOf } = await import("../lib/resolution/join");
    const { expectedConditionIds } = await import("../lib/resolution/markets-for-disputes");
    const { standardMarketIds } = await import("../sim/polymarket/disputed");
    const { scaledQuestionAncillary } = await import("../sim/chain/scaled");
    const { POLYMARKET_ADAPTERS } = await import("../sim/chain/seed");
    const gammaMarkets = [
      ...Array.from({ length: world.disputes }, (_, i) => {
        const ids = standardMarketIds(POLYMARKET_ADAPTERS[0], scaledQuestionAncillary(i));
        return { id: `std-${i}`, conditionId: ids.conditionId, questionID: ids.questionID };
      }),
      // Neg-risk markets as Gamma may list them without `negRiskRequestID`: only the operator's question leads there.
      ...world.negRisk.flatMap((q, i) => (q.conditionId ? [{ id: `nr-${i}`, conditionId: q.conditionId, questionID: null }] : [])),
      ...world.games.flatMap((g, i) => g.conditionIds.map((c, k) => ({ id: `game-${i}-${k}`, conditionId: c, questionID: null }))),
    ];
    const stored = gammaMarkets.filter((_, i) => i % 4 !== 3);
    const storedIndex = indexMarkets(stored);
    const gammaByCondition = new Map(gammaMarkets.map((m) => [m.conditionId.toLowerCase(), m]));
    const joins: Record<string, number> = { direct: 0, neg_risk_operator: 0, sports: 0, gamma_lookup: 0, unjoined: 0 };
    const gammaByMethod: Record<string, number> = {};
    for (const d of scaledRows) {
      const key = joinKeyOf(d);
      const local = joinDisputeToMarket(key, storedIndex);
      if (local.market) {
        joins[local.method === "neg_risk_operator" ? "neg_risk_operator" : local.method === "sports_game" ? "sports" : "direct"] += 1;
        continue;
      }
      const fetched = expectedConditionIds(d).flatMap((c) => gammaByCondition.get(c) ?? []);
      const remote = joinDisputeToMarket(key, indexMarkets([...stored, ...fetched]));
      if (remote.market) {
        joins.gamma_lookup += 1;
        gammaByMethod[remote.method] = (gammaByMethod[remote.method] ?? 0) + 1;
      } else joins.unjoined += 1;
    }
    const joinFigure = { ...joins, gamma_lookup_by_method: gammaByMethod, rows: scaledRows.length };
    progress(`oracle: joins by path ${JSON.stringify(joinFigure)}`);

    // ---- the same logs paired by the rule used before 2026-11 (bridging log looked for after the dispute) ----
    const { indexedHead } = await import("../lib/oracle/context");
    const { loadChainSummary } = await import("../lib/oracle/summary");
    const { loadDisputes } = await import("../lib/oracle/disputes");
    const heads = { ethereum: await indexedHead(ctx, "ethereum"), polygon: await indexedHead(ctx, "polygon") };
    const chainNow = await loadChainSummary(ctx, heads.ethereum);
    const isScaled = (d: { title: string | null }) => d.title?.startsWith("Scaled ") ?? false;
    const byOldRule = (await loadDisputes(ctx, heads, chainNow.rollCounts, await pairByLogOrder())).disputes.filter(isScaled);
    const pairing = {
      seeded: world.expected.length,
      rows_before: byOldRule.length,
      rows_after: scaledRows.length,
      before_rows_without_dvm_link: byOldRule.filter((d) => d.dvm === null).length,
      before_rows_without_dispute: byOldRule.filter((d) => d.dispute_tx_hash === null).length,
      after_rows_without_dvm_link: scaledRows.filter((d) => d.dvm === null).length,
      after_rows_without_dispute: scaledRows.filter((d) => d.dispute_tx_hash === null).length,
    };
    progress(`oracle: pairing before/after ${JSON.stringify(pairing)}`);

    // ---- the figures UMA counts differently (docs/oracle-facts.md, "Figures"), before and after ----
    const currentRound = summary.data.active_round.round_id;
    const roundRow = await db.oracleRound.findUnique({ where: { roundId: currentRound } });
    const { votingV2Abi } = await import("../lib/oracle/abi");
    const onChainRound = (await ctx.clients.ethereum.readContract({
      address: ctx.config.votingV2,
      abi: votingV2Abi,
      functionName: "rounds",
      args: [BigInt(currentRound)],
      blockNumber: heads.ethereum.number,
    })) as readonly [string, bigint, bigint, bigint, number];
    const cumulative = Number(voters.meta.cumulative_stake);
    const shareBefore = voters.data.map((v) => Number(v.stake) / cumulative);
    const umaFigures = {
      commits_in_current_round: {
        before_votecommitted_logs: await db.oracleVote.count({ where: { roundId: currentRound, revealed: false } }),
        after_unique_committers: roundRow?.commits ?? null,
        seeded: world.commits,
      },
      active_round_requests: {
        before_numberOfRequestsToVote: Number(onChainRound[4]),
        after_with_unprocessed_rolls: rounds.data.find((r) => r.status === "active")?.requests ?? null,
        up_for_vote_getPendingRequests: summary.data.active_round.requests_to_vote,
      },
      delegation: {
        before_one_sided_counted: voters.data.filter((v) => v.delegate || v.pending_delegate).length,
        after_two_sided: voters.data.filter((v) => v.delegate).length,
        pending: voters.data.filter((v) => v.pending_delegate).length,
        seeded: world.delegations,
      },
      stake_shares: {
        before_sum_over_cumulative_stake: Math.round(shareBefore.reduce((a, b) => a + b, 0) * 1e9) / 1e9,
        after_sum: Math.round(voters.data.reduce((a, v) => a + v.share_of_total_stake, 0) * 1e9) / 1e9,
        largest_change: Math.max(...voters.data.map((v, i) => Math.abs(v.share_of_total_stake - shareBefore[i]))),
      },
      pending_unstakes: { before: "not shown", after: voters.meta.pending_unstakes, seeded_stakers: world.unstaking },
    };
    progress(`oracle: UMA figures before/after ${JSON.stringify(umaFigures)}`);

    const { expected: _perDispute, negRisk, games, ...worldFigures } = world;
    figures.oracle = {
      world: { ...worldFigures, neg_risk_disputes: negRisk.length, sports_disputes: games.length },
      rows: { ...rowCheck, statuses: statusCounts },
      joins: joinFigure,
      pairing,
      uma_figures: umaFigures,
      limits: REALISTIC_LIMITS,
      backfill: {
        wall_s: Math.round(backfillS * 10) / 10,
        passes,
        rpc_calls: totalCalls,
        rpc_calls_by_method: calls,
        refused_by_standin: refused,
      },
      answers: check,
      warm,
      rpc_calls_per_warm_request: rpcDuringWarm / warmRequests,
    };
    const label = "PGlite (embedded)";
    rows.push({
      section: "oracle",
      figure: "mainnet-scale world (seeded)",
      value: `${world.disputes} bridged disputes (${world.forms.legacy} legacy, ${world.forms.compressed} compressed, ${world.disputedTwice} second disputes) + ${world.negRisk.length} neg-risk and ${world.games.length} sports on Polygon only, ${world.reveals} reveals over ${world.revealRounds} rounds, ${world.stakers} stakers (${world.stakersFarBehind} far behind), seeded in ${(world.seedMs / 1000).toFixed(0)} s`,
      database: label,
    });
    rows.push({
      section: "oracle",
      figure: "cold backfill through the RPC stand-in: wall time / passes / RPC calls",
      value: `${backfillS.toFixed(1)} s / ${passes} / ${totalCalls} (${Object.entries(calls)
        .map(([m, n]) => `${m} ${n}`)
        .join(", ")}); refused by the stand-in: ${JSON.stringify(refused)}`,
      database: label,
    });
    rows.push({
      section: "oracle",
      figure: "answers vs the seeded world",
      value: `${disputeAnswersText(check, check.degraded_rows)}, ${check.voters} voters (${check.stale_stakes} stale), ${check.rounds_listed} rounds listed`,
      database: label,
    });
    for (const [name, w] of Object.entries(warm)) {
      rows.push({
        section: "oracle",
        figure: `warm /api/oracle/${name} (service + JSON, n=${w.n})`,
        value: `p50 ${w.p50_ms} ms, p95 ${w.p95_ms} ms`,
        database: label,
      });
    }
    rows.push({ section: "oracle", figure: "RPC calls per warm request", value: String(rpcDuringWarm / warmRequests), database: label });
    await db.$disconnect();
  } finally {
    await pglite.close().catch(() => undefined);
    await chains.stop();
  }
}

// `npm run bench:oracle`: this section alone.
if (process.argv[1]?.endsWith("oracle.ts")) {
  const rows: BenchRow[] = [];
  const figures: Record<string, unknown> = {};
  const started = Date.now();
  oracleBench((line) => console.log(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`), rows, figures)
    .then(() => {
      console.table(rows.map((r) => ({ figure: r.figure, value: r.value })));
      console.log(JSON.stringify(figures.oracle, null, 2));
      process.exit(0);
    })
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
