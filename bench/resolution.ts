// `npx tsx bench/resolution.ts`: the dispute -> market join at the oracle bench's scale. The mainnet-scale oracle world
// (sim/chain/scaled.ts: thousands of ≥ 1 kB questions, half bridged in the legacy cleartext form and half compressed,
// some disputed twice) is indexed cold by the oracle indexer; the markets are what the Polymarket simulator would list
// for those questions (ids built from the question bytes, sim/polymarket/disputed.ts), and the join runs over the
// indexed disputes. It measures whether the oracle layer recovers each dispute's exact question bytes (so its
// questionID) at scale, in both bridged forms, and how long the join takes. BENCH_ORACLE_SCALE=0.1 seeds a tenth.
import { performance } from "node:perf_hooks";
import { PGlite } from "@electric-sql/pglite";
import { benchOracleContext, benchOracleScale } from "./lib/oracle-world";

async function main() {
  const { startLocalChains } = await import("../sim/chain");
  const { seedScaledWorld, scaledQuestionAncillary } = await import("../sim/chain/scaled");
  const { POLYMARKET_ADAPTERS } = await import("../sim/chain/seed");
  const { standardMarketIds } = await import("../sim/polymarket/disputed");
  const { REALISTIC_LIMITS } = await import("../sim/rpc/standin");
  const { runIndexerPass } = await import("../lib/oracle/indexer");
  const service = await import("../lib/oracle/service");
  const { indexMarkets, joinDisputeToMarket } = await import("../lib/resolution/join");

  const log = (line: string) => console.log(`[resolution bench] ${line}`);
  const chains = await startLocalChains({ logChunkSize: 2_000, limits: REALISTIC_LIMITS });
  const pglite = await PGlite.create();
  try {
    const options = await benchOracleScale();
    log(`seeding ${JSON.stringify(options)} ...`);
    const world = await seedScaledWorld(chains, options);
    log(`seeded in ${(world.seedMs / 1000).toFixed(1)} s: ${world.disputes} disputes, forms ${JSON.stringify(world.forms)}`);
    const { ctx } = await benchOracleContext(chains, pglite);
    const t0 = performance.now();
    for (let passes = 1; ; passes++) {
      const pass = await runIndexerPass(ctx);
      if (pass.chains.ethereum.backfill_complete && pass.chains.polygon.backfill_complete && pass.snapshots.disputes !== "failed") break;
      if (passes >= 50) throw new Error(`the backfill did not complete: ${JSON.stringify(pass.chains)}`);
    }
    log(`indexed cold in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const disputes = (await service.getOracleDisputes(ctx)).body.data;
    // What Gamma would list for the scaled questions: one standard market per distinct question text.
    const markets = Array.from({ length: options.disputes }, (_, i) => {
      const ids = standardMarketIds(POLYMARKET_ADAPTERS[0], scaledQuestionAncillary(i));
      return { id: String(900_000 + i), conditionId: ids.conditionId, questionID: ids.questionID };
    });
    const t1 = performance.now();
    const index = indexMarkets(markets);
    const joins = disputes.map((d) => ({ d, join: joinDisputeToMarket({ questionId: d.question_id, requester: d.requester }, index) }));
    const joinMs = performance.now() - t1;
    const scaled = joins.filter(({ d }) => d.title?.startsWith("Scaled question #"));
    const joined = scaled.filter(({ join }) => join.market !== null);
    const byForm = (form: string) => {
      const rows = scaled.filter(({ d }) => d.dvm?.ancillary_form === form);
      return `${rows.filter(({ join }) => join.market).length}/${rows.length}`;
    };
    const misses: Record<string, number> = {};
    for (const { join } of scaled) if (!join.market) misses[join.reason] = (misses[join.reason] ?? 0) + 1;
    const result = {
      disputes_listed: disputes.length,
      scaled_disputes: scaled.length,
      joined: joined.length,
      share: scaled.length ? Math.round((joined.length / scaled.length) * 10_000) / 100 : null,
      by_form: { legacy: byForm("legacy"), compressed: byForm("compressed") },
      misses,
      join_ms: Math.round(joinMs * 10) / 10,
    };
    log(JSON.stringify(result));
  } finally {
    await pglite.close();
    await chains.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
