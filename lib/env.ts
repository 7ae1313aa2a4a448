// The only module that reads process.env. Everything else imports `env` from here.
// Parsed once, at first import, so a bad value or a missing production secret stops the start with a clear
// message instead of failing at the first request.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== "" ? v.trim() : undefined));
const url = (fallback?: string) =>
  fallback === undefined ? optionalString.pipe(z.url().optional()) : optionalString.transform((v) => v ?? fallback).pipe(z.url());
const int = (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  optionalString.transform((v) => (v === undefined ? fallback : Number(v))).pipe(z.number().int().min(min).max(max));
const list = optionalString.transform((v) => (v ? v.split(",").map((s) => s.trim()).filter(Boolean) : []));

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: int(3000, 1, 65535),
  DATA_DIR: optionalString.transform((v) => path.resolve(/*turbopackIgnore: true*/ v ?? ".data")),

  DATABASE_URL: optionalString,
  // Embedded database directory; `memory://` keeps it in memory (tests).
  PGLITE_DIR: optionalString,

  UPSTASH_REDIS_REST_URL: url(),
  UPSTASH_REDIS_REST_TOKEN: optionalString,
  REDIS_URL: optionalString.pipe(
    z.string().regex(/^rediss?:\/\/\S+$/, "must be a redis:// or rediss:// URL").optional(),
  ),
  // How long a rate-limit store call may take before the request falls back to the in-process limiter.
  RATE_LIMIT_STORE_TIMEOUT_MS: int(1000, 10, 10_000),
  RATE_LIMIT_STARTER: int(300, 1),
  RATE_LIMIT_PRO: int(600, 1),
  RATE_LIMIT_ENTERPRISE: int(6000, 1),
  RATE_LIMIT_ANONYMOUS_PER_IP: int(60, 1),
  // Each client address's slice of the shared dashboard key (its tokens are handed to every visitor).
  RATE_LIMIT_DASHBOARD_PER_IP: int(300, 1),
  // How long a key lookup is cached in each server process; bounds how late a revocation takes effect.
  KEY_CACHE_TTL_S: int(30, 0, 60),

  // Signs browser tokens and the gateway header (HS256): short secrets can be brute-forced offline.
  JWT_SECRET: optionalString.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  CRON_SECRET: optionalString,

  POLYMARKET_GAMMA_URL: url("https://gamma-api.polymarket.com"),
  POLYMARKET_DATA_URL: url("https://data-api.polymarket.com"),
  POLYMARKET_CLOB_URL: url("https://clob.polymarket.com"),
  UPSTREAM_TIMEOUT_MS: int(8000, 100, 60_000),
  UPSTREAM_MAX_RETRIES: int(2, 0, 5),
  UPSTREAM_CONCURRENCY: int(8, 1, 100),

  ETH_RPC_URL: url("https://ethereum-rpc.publicnode.com"),
  POLYGON_RPC_URL: url("https://polygon-bor-rpc.publicnode.com"),
  UMA_VOTING_V2_ADDRESS: optionalString.transform((v) => v ?? "0x004395edb43EFca9885CEdad51EC9fAf93Bd34ac"),
  // VotingV2's deployment block: stakers who staked before a later start block would be missing from /voters.
  UMA_VOTING_V2_FROM_BLOCK: int(16_697_232),
  // OOv2 and the Managed OOv2 that Polymarket's newer adapters use (reference/uma-oracle.md §2.1).
  UMA_OOV2_ADDRESSES: list.transform((v) => (v.length ? v : ["0xeE3Afe347D5C74317041E2618C49534dAf887c24", "0x2C0367a9DB231dDeBd88a94b4f6461a6e47C58B1"])),
  UMA_OOV2_FROM_BLOCK: int(35_000_000),
  POLYMARKET_UMA_REQUESTERS: list,
  UMA_ORACLE_CHILD_TUNNEL_ADDRESS: optionalString,
  ORACLE_LOG_CHUNK_SIZE: int(10_000, 1, 1_000_000),

  SAMPLER_INTERVAL_S: int(0, 0, 3600),
  // Where `npm run demo` builds and serves the app from (the e2e suite reuses the integration tests' build).
  NEXT_DIST_DIR: optionalString.transform((v) => v ?? ".next"),
  DASHBOARD_API_KEY: optionalString,
});

export type Env = z.infer<typeof EnvSchema> & { JWT_SECRET: string; CRON_SECRET: string; embeddedDatabase: boolean };

// Development and the demo run without configuration: the two secrets are generated once and kept under DATA_DIR
// (never in the repo). A deployment (DATABASE_URL set) must provide them.
function localSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, "secrets.json");
  const secrets: Record<string, string> = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  if (!secrets[name]) {
    secrets[name] = randomBytes(32).toString("base64url");
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return secrets[name];
}

export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  const values = parsed.data;
  const embeddedDatabase = !values.DATABASE_URL;
  const missing = (["JWT_SECRET", "CRON_SECRET"] as const).filter((k) => !values[k]);
  // `next build` imports route modules; secrets are a runtime requirement, not a build one.
  const building = source.NEXT_PHASE === "phase-production-build";
  if (missing.length && !embeddedDatabase && !building) {
    throw new Error(`Missing required secret(s): ${missing.join(", ")}. Set them in the environment (see README).`);
  }
  const secret = (name: "JWT_SECRET" | "CRON_SECRET") =>
    values[name] ?? (building ? "build-time-placeholder" : localSecret(values.DATA_DIR, name));
  if (values.UPSTASH_REDIS_REST_URL && !values.UPSTASH_REDIS_REST_TOKEN) {
    throw new Error("UPSTASH_REDIS_REST_URL is set but UPSTASH_REDIS_REST_TOKEN is not.");
  }
  return { ...values, JWT_SECRET: secret("JWT_SECRET"), CRON_SECRET: secret("CRON_SECRET"), embeddedDatabase };
}

export const env: Env = loadEnv();
