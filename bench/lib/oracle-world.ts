// The setup the oracle bench (bench/oracle.ts) and the resolution bench (bench/resolution.ts) share: the scale of the
// seeded world, and a migrated in-memory database with an oracle context over the local chains.
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPGlite } from "pglite-prisma-adapter";
import type { LocalChains } from "../../sim/chain";

/**
 * MAINNET_SCALE, or BENCH_ORACLE_SCALE of it (0.1 seeds a tenth, a quick look; every count stays ≥ 10 and the revealers
 * per round are kept). The figures of record use the full scale.
 */
export async function benchOracleScale() {
  const { MAINNET_SCALE } = await import("../../sim/chain/scaled");
  const scale = Number(process.env.BENCH_ORACLE_SCALE ?? 1);
  if (scale === 1) return MAINNET_SCALE;
  return Object.fromEntries(
    Object.entries(MAINNET_SCALE).map(([k, v]) => [k, k === "revealersPerRound" ? v : Math.max(10, Math.round(v * scale))]),
  ) as typeof MAINNET_SCALE;
}

/**
 * Migrates `pglite` and builds an oracle context over `chains` with the real chains' defaults (2,000-block Ethereum
 * ranges, UMA's 3,499 on Polygon), paced below the stand-ins' 25 requests/s.
 */
export async function benchOracleContext(chains: LocalChains, pglite: PGlite) {
  const { loadEnv } = await import("../../lib/env");
  const { oracleConfigFromEnv } = await import("../../lib/oracle/config");
  const { createOracleContext } = await import("../../lib/oracle/context");
  const { applyMigrations, pgliteMigrationTarget } = await import("../../lib/db/migrate");
  const { PrismaClient } = await import("../../lib/generated/prisma/client");
  await applyMigrations(pgliteMigrationTarget(pglite));
  const db = new PrismaClient({ adapter: new PrismaPGlite(pglite) as never });
  const config = oracleConfigFromEnv(
    loadEnv({
      ...process.env,
      ...chains.env,
      ORACLE_LOG_CHUNK_SIZE: "2000",
      ORACLE_POLYGON_LOG_CHUNK_SIZE: "3499",
      ORACLE_RPC_MAX_RPS: "11",
    }),
  );
  return { db, ctx: createOracleContext("bench", config, async () => db) };
}

/**
 * The pairing rule this index used before 2026-11, kept here only to measure what it did: a dispute's bridging log was
 * looked for AFTER its DisputePrice in the same transaction (the first one with its identifier and stamped text). On
 * the real chain the tunnel's log comes first (OptimisticOracleV2.disputePriceFor calls the oracle before it emits
 * DisputePrice), so most disputes found none, and a later dispute of the same text in the transaction took another's.
 */
export async function pairByLogOrder() {
  const { lower } = await import("../../lib/oracle/dispute-sources");
  const { stampAncillaryData } = await import("../../lib/oracle/ancillary");
  type Sources = import("../../lib/oracle/dispute-sources").DisputeSources;
  const rule: import("../../lib/oracle/dispute-sources").Pairing = (disputes, bridged) => {
    const pairs: Sources["bridgeOf"] = new Map();
    for (const d of disputes) {
      const stamped = lower(stampAncillaryData(d.args.ancillaryData, d.args.requester));
      const next = bridged
        .filter(
          (b) =>
            lower(b.log.transactionHash) === lower(d.txHash) &&
            b.log.logIndex > d.logIndex &&
            lower(b.args.ancillaryData) === stamped &&
            b.args.identifier === d.args.identifier,
        )
        .sort((a, b) => a.log.logIndex - b.log.logIndex)[0];
      if (next) pairs.set(d, next);
    }
    return pairs;
  };
  return rule;
}
