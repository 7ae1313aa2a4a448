// The only module that reads process.env. Everything else imports `env` from here.
// Parsed once, at first import, so a bad value or a missing production secret stops the start with a clear
// message instead of failing at the first request.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import ipaddr from "ipaddr.js";
import { z } from "zod";

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== "" ? v.trim() : undefined));
const url = (fallback?: string) =>
  fallback === undefined ? optionalString.pipe(z.url().optional()) : optionalString.transform((v) => v ?? fallback).pipe(z.url());
const int = (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  optionalString.transform((v) => (v === undefined ? fallback : Number(v))).pipe(z.number().int().min(min).max(max));
const list = optionalString.transform((v) =>
  v
    ? v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : [],
);
// "finalized" or a number of blocks below the latest one.
const confirmations = optionalString
  .transform((v) => v ?? "finalized")
  .pipe(z.union([z.literal("finalized"), z.string().regex(/^\d+$/, 'must be "finalized" or a block count').transform(Number)]));

/** Which hops in front of this server may report the client's address (lib/auth/client-address.ts, SECURITY.md). */
export type TrustProxy =
  | { mode: "none" }
  | { mode: "vercel" }
  | { mode: "hops"; hops: number }
  | { mode: "ranges"; ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] };

const trustProxy = optionalString.transform((value, context): TrustProxy => {
  if (value === undefined || value === "none" || value === "false" || value === "0") return { mode: "none" };
  if (value === "vercel") return { mode: "vercel" };
  if (/^\d+$/.test(value)) return { mode: "hops", hops: Math.min(Number(value), 10) };
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  for (const entry of value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    try {
      ranges.push(entry.includes("/") ? ipaddr.parseCIDR(entry) : [ipaddr.parse(entry), entry.includes(":") ? 128 : 32]);
    } catch {
      context.addIssue({ code: "custom", message: `"${entry}" is not an address or CIDR; use none, vercel, a hop count or a CIDR list` });
      return z.NEVER;
    }
  }
  return { mode: "ranges", ranges };
});

// Shared secrets that protect a route (cron, token signing) must not be guessable offline or online.
const secret = optionalString.pipe(z.string().min(32, "must be at least 32 characters").optional());

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: int(3000, 1, 65535),
  // The interface `npm start` and the demo listen on: loopback unless a deployment says otherwise (e.g. 0.0.0.0).
  HOST: optionalString.transform((v) => v ?? "127.0.0.1"),
  TRUST_PROXY: trustProxy,
  // Sites allowed to frame /embed/* (CSP frame-ancestors sources); every other page may not be framed at all.
  EMBED_FRAME_ANCESTORS: optionalString.transform((v) => v ?? "*"),
  DATA_DIR: optionalString.transform((v) => path.resolve(/*turbopackIgnore: true*/ v ?? ".data")),

  DATABASE_URL: optionalString,
  // Embedded database directory; `memory://` keeps it in memory (tests).
  PGLITE_DIR: optionalString,
  // An in-memory database starts from this migrated data directory (a PGlite dump, .tar) instead of running initdb and
  // every migration again: the unit tests' global setup makes one (docs/testing.md "The embedded database in tests").
  PGLITE_TEMPLATE: optionalString,

  UPSTASH_REDIS_REST_URL: url(),
  UPSTASH_REDIS_REST_TOKEN: optionalString,
  REDIS_URL: optionalString.pipe(
    z
      .string()
      .regex(/^rediss?:\/\/\S+$/, "must be a redis:// or rediss:// URL")
      .optional(),
  ),
  // A store of its own for the rate-limit windows, stream leases and usage counts (recommended with
  // `maxmemory-policy noeviction`): cached answers written to the other store can then never evict a budget
  // (SECURITY.md "Shared stores"). Unset: both share UPSTASH_REDIS_REST_URL/REDIS_URL.
  RATE_LIMIT_UPSTASH_REDIS_REST_URL: url(),
  RATE_LIMIT_UPSTASH_REDIS_REST_TOKEN: optionalString,
  RATE_LIMIT_REDIS_URL: optionalString.pipe(
    z
      .string()
      .regex(/^rediss?:\/\/\S+$/, "must be a redis:// or rediss:// URL")
      .optional(),
  ),
  // Bytes of sampled answers all instances together may write to the shared store per sampler pass; past it, answers
  // stay in each process's own cache (a flood of distinct requests cannot fill the store).
  ANSWER_KV_BUDGET_MB: int(32, 1, 4096),
  // How long a rate-limit store call may take before the request falls back to the in-process limiter.
  RATE_LIMIT_STORE_TIMEOUT_MS: int(1000, 10, 10_000),
  RATE_LIMIT_STARTER: int(300, 1),
  RATE_LIMIT_PRO: int(600, 1),
  RATE_LIMIT_ENTERPRISE: int(6000, 1),
  RATE_LIMIT_ANONYMOUS_PER_IP: int(60, 1),
  // Each client address's slice of the shared dashboard key (its tokens are handed to every visitor): well below the
  // starter tier, and per DASHBOARD_IPV6_PREFIX network for IPv6 (SECURITY.md, "Dashboard tokens").
  RATE_LIMIT_DASHBOARD_PER_IP: int(60, 1),
  // The IPv6 network one dashboard slice covers: a /48 (a site's allocation) or a /56 (a home's), not the /64 of the
  // other budgets, so a client holding many /64s still gets one slice.
  DASHBOARD_IPV6_PREFIX: int(48, 32, 64),
  // Percent of the dashboard key's per-minute allowance kept for server-rendered page views: browser tokens together
  // may spend only the rest, so a token flood cannot take the whole key.
  DASHBOARD_PAGE_RESERVE_PCT: int(20, 0, 90),
  // Server-rendered dashboard pages per client address (they read the same data as the API).
  RATE_LIMIT_PAGES_PER_IP: int(120, 1),
  // The router's link prefetches per client address (each runs the page's metadata reads), apart from page views.
  RATE_LIMIT_PREFETCHES_PER_IP: int(240, 1),
  // Failed cron authentications per client address.
  RATE_LIMIT_CRON_FAILURES_PER_IP: int(10, 1),
  // Largest request body the gateway reads (the token exchange is the only route with a body).
  MAX_BODY_BYTES: int(16 * 1024, 256, 1024 * 1024),
  // How long a request body may take to arrive after its headers, under the cap (a slow-loris upload), before `npm
  // start`'s entry answers 408 (scripts/lib/body-cap.mjs reads it the same way).
  BODY_TIMEOUT_MS: int(10_000, 100, 60_000),
  // How long one /api/health report answers every caller of an instance (its checks cost 3 queries and a store ping).
  HEALTH_CACHE_S: int(5, 0, 60),
  // How long a key lookup is cached in each server process; bounds how late a revocation takes effect.
  KEY_CACHE_TTL_S: int(30, 0, 60),
  // How often each process moves its usage counts out (lib/keys/usage-meter.ts): shorter only means smaller, more
  // frequent writes.
  USAGE_FLUSH_MS: int(5000, 100, 60_000),

  // Signs browser tokens and the gateway header (HS256): short secrets can be brute-forced offline.
  JWT_SECRET: secret,
  CRON_SECRET: secret,
  // Bearer token Prometheus sends to /api/metrics; unset, the endpoint answers 404 (metrics are off by default).
  METRICS_TOKEN: secret,

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
  // The legacy OOv2, whose proposals expire by the clock (docs/oracle-facts.md#deployments).
  UMA_OOV2_ADDRESSES: list.transform((v) => (v.length ? v : ["0xeE3Afe347D5C74317041E2618C49534dAf887c24"])),
  // The Managed OOv2s of Polymarket's v4 adapters: a proposal stays Proposed past liveness until a resolver settles it
  // (docs/oracle-indexer.md, "Per-oracle semantics").
  UMA_MANAGED_OOV2_ADDRESSES: list.transform((v) => (v.length ? v : ["0x2C0367a9DB231dDeBd88a94b4f6461a6e47C58B1"])),
  UMA_OOV2_FROM_BLOCK: int(35_000_000),
  POLYMARKET_UMA_REQUESTERS: list,
  // The NegRiskOperators whose questionIds(requestId) name a neg-risk dispute's question (UMA's monitor reads both:
  // protocol monitor-v2 monitor-polymarket/common.ts; docs/oracle-indexer.md, "Neg-risk and sports joins").
  POLYMARKET_NEG_RISK_OPERATOR_ADDRESSES: list.transform((v) =>
    v.length ? v : ["0x71523d0f655B41E805Cec45b17163f528B59B820", "0x661992aebf6BecF7BA5abB66f6b0Bf62Aa7a2E93"],
  ),
  // Polymarket's UmaSportsOracle: an OO requester of its own (MULTIPLE_VALUES game scores) whose games decide markets.
  POLYMARKET_SPORTS_ORACLE_ADDRESS: optionalString.transform((v) => v ?? "0xb21182d0494521Cf45DbbeEbb5A3ACAAb6d22093"),
  UMA_ORACLE_CHILD_TUNNEL_ADDRESS: optionalString,
  ORACLE_LOG_CHUNK_SIZE: int(10_000, 1, 1_000_000),
  // Polygon's own starting range: UMA's Polygon monitor scans 3,499 blocks at a time (monitor-v2 monitor-polymarket).
  ORACLE_POLYGON_LOG_CHUNK_SIZE: int(3_499, 1, 1_000_000),
  // How far behind the head the oracle indexer stops: "finalized" (the chain's finalized tag) or a block count.
  ORACLE_ETH_CONFIRMATIONS: confirmations,
  ORACLE_POLYGON_CONFIRMATIONS: confirmations,
  // Requests per second the oracle sends to each RPC (public RPCs answer 429 above their limit).
  ORACLE_RPC_MAX_RPS: int(20, 1, 10_000),
  // Seconds between two oracle indexer passes in `npm run sampler` and in a server with SAMPLER_INTERVAL_S set.
  ORACLE_INDEX_INTERVAL_S: int(30, 1, 3600),
  // Stakers whose post-slash stake is refreshed one by one (getVoterStakePostUpdate); the rest keep voterStakes().stake.
  ORACLE_TOP_VOTERS: int(200, 1, 10_000),

  SAMPLER_INTERVAL_S: int(0, 0, 3600),
  // Test servers only (refused on a deployment, below): passes are stamped this many seconds off the real clock, so a
  // test can land a pass "a minute ago" instead of waiting a minute (docs/testing.md "Waiting in tests").
  SAMPLER_CLOCK_OFFSET_S: int(0, -86_400, 86_400),
  // Test servers only (refused on a deployment, below): caps each -live body's TTL at this many seconds (0: the
  // documented TTLs), so a test sees a body go stale within a second.
  LIVE_TTL_MAX_S: int(0, 0, 3600),
  // Test servers only (refused on a deployment, below): the in-process rate limiter's clock stands still at the
  // server's start, so every request falls in one limiter window and a test counting to a limit never waits for a
  // window's edge to pass (lib/auth/ratelimit.ts; a shared store keeps its own clock).
  RATE_LIMIT_CLOCK_HELD: optionalString.pipe(z.enum(["true", "false", "1", "0"]).optional()).transform((v) => v === "true" || v === "1"),
  // A server that runs no sampler checks this often (ms) for a pass another process ran, and computes its aggregates
  // at once so no reader pays for them (lib/server/jobs.ts); 0 turns it off.
  PASS_WATCH_MS: int(1000, 0, 60_000),
  // Wallet ledgers (docs/wallets.md): upstream pages one request may read before answering (the rest in the background),
  // and the leaderboard job (interval 0 = off; it runs beside the sampler) with how many top wallets it completes.
  WALLET_READ_PAGES: int(40, 1, 10_000),
  WALLET_LEADERBOARD_INTERVAL_S: int(600, 0, 86_400),
  WALLET_LEADERBOARD_TOP: int(20, 1, 50),
  // Whales across the platform (lib/sampler/whales.ts): open markets with at least this total volume (USD) get top holders.
  WHALE_MIN_VOLUME_USD: int(10_000, 0),
  // The live stream (docs/stream.md): the worker's websockets, the stream's limits and timings.
  // Run the ingest worker (websockets + sampler loop) inside the server: the embedded database allows one process only.
  WORKER_IN_SERVER: optionalString.pipe(z.enum(["true", "false", "1", "0"]).optional()).transform((v) => v === "true" || v === "1"),
  POLYMARKET_CLOB_WS_URL: url("wss://ws-subscriptions-clob.polymarket.com/ws/market"),
  POLYMARKET_RTDS_URL: url("wss://ws-live-data.polymarket.com"),
  // A socket that has said nothing (not even a PONG) for this long is taken as stalled and reconnected.
  WORKER_WATCHDOG_S: int(30, 2, 600),
  WORKER_MAX_ASSETS_PER_SOCKET: int(500, 1, 5000),
  // The market channel's subscription rule (docs/stream.md, "Which markets the worker subscribes"): open markets with at
  // least this 24 h volume (USD), the busiest first, at most WORKER_MAX_TOKENS tokens on at most WORKER_MAX_SOCKETS
  // sockets, opened one every WORKER_CONNECT_INTERVAL_MS; the rule is read again every WORKER_SUBSCRIPTIONS_REFRESH_S.
  WORKER_MIN_VOLUME_24H_USD: int(1000, 0),
  WORKER_MAX_TOKENS: int(20_000, 0, 1_000_000),
  WORKER_MAX_SOCKETS: int(60, 1, 1000),
  WORKER_CONNECT_INTERVAL_MS: int(250, 0, 60_000),
  WORKER_SUBSCRIPTIONS_REFRESH_S: int(60, 1, 3600),
  STREAM_MAX_DURATION_S: int(300, 5, 86_400),
  STREAM_HEARTBEAT_S: int(15, 1, 300),
  STREAM_RETRY_MS: int(2000, 100, 600_000),
  STREAM_LIMIT_STARTER: int(2, 0),
  STREAM_LIMIT_PRO: int(10, 0),
  STREAM_LIMIT_ENTERPRISE: int(100, 0),
  // Dashboard visitors share the dashboard key's streams; each client address may hold this many of them.
  STREAM_LIMIT_DASHBOARD_PER_ADDRESS: int(1, 1),
  // Bytes of built answers (sampled, -live, oracle) each server process keeps in memory, least recently used first out.
  ANSWER_CACHE_MAX_MB: int(64, 1, 4096),
  // Where `npm run demo` builds and serves the app from (the e2e suite reuses the integration tests' build).
  NEXT_DIST_DIR: optionalString.transform((v) => v ?? ".next"),
  DASHBOARD_API_KEY: optionalString,
  // A production start on the embedded database generates JWT_SECRET/CRON_SECRET under DATA_DIR only with this set
  // (the demo and the test servers): a deployment must give both explicitly (SECURITY.md).
  GENERATE_LOCAL_SECRETS: optionalString.transform((v) => v === "1" || v === "true"),

  // Alerts (docs/alerts.md). Test-only: webhook targets on loopback addresses are allowed (the test suite, the demo's
  // local receiver); every other private, link-local, multicast or metadata address stays refused.
  ALERTS_ALLOW_LOOPBACK: optionalString.pipe(z.enum(["true", "false", "1", "0"]).optional()).transform((v) => v === "true" || v === "1"),
  // Development only: http:// webhook targets are accepted (https otherwise).
  ALERTS_ALLOW_HTTP: optionalString.pipe(z.enum(["true", "false", "1", "0"]).optional()).transform((v) => v === "true" || v === "1"),
  // How often the self-hosted alert worker looks for new stream events and due deliveries.
  ALERTS_POLL_MS: int(250, 20, 10_000),
  // One delivery attempt's deadline (connect, send, answer).
  ALERTS_TIMEOUT_MS: int(10_000, 100, 60_000),
  // Deliveries per second one subscription may receive (a cap per process).
  ALERTS_MAX_PER_SECOND: int(20, 1, 10_000),
  // Subscriptions per key and rules per subscription, per tier.
  ALERTS_SUBSCRIPTIONS_STARTER: int(5, 0),
  ALERTS_SUBSCRIPTIONS_PRO: int(25, 0),
  ALERTS_SUBSCRIPTIONS_ENTERPRISE: int(200, 0),
  ALERTS_RULES_STARTER: int(5, 1, 20),
  ALERTS_RULES_PRO: int(20, 1, 20),
  ALERTS_RULES_ENTERPRISE: int(20, 1, 20),
});

export type Env = z.infer<typeof EnvSchema> & { JWT_SECRET: string; CRON_SECRET: string; embeddedDatabase: boolean };

// Development and the demo run without configuration: the two secrets are generated once and kept under DATA_DIR
// (never in the repo). A deployment (DATABASE_URL set) must provide them.
function localSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, "secrets.json");
  const secrets: Record<string, string> = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, string>) : {};
  if (!secrets[name]) {
    secrets[name] = randomBytes(32).toString("base64url");
    mkdirSync(dataDir, { recursive: true, mode: 0o700 }); // private: lib/db/private-state.ts
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
  // Generated secrets are for development and the local demo: a deployment (PostgreSQL, or any production start that
  // did not ask for them with GENERATE_LOCAL_SECRETS) must give both.
  const mayGenerate = embeddedDatabase && (values.NODE_ENV !== "production" || values.GENERATE_LOCAL_SECRETS);
  if (missing.length && !mayGenerate && !building) {
    throw new Error(
      `Missing required secret(s): ${missing.join(", ")}. Set them in the environment (SECURITY.md, "Settings a deployment must choose"); ` +
        "GENERATE_LOCAL_SECRETS=1 keeps generated ones under DATA_DIR, for a local demo only.",
    );
  }
  // The knobs that bend time for tests would stamp wrong sample times or spend the upstream's budget on a deployment:
  // only a local start (the rule of generated secrets: the test servers, the demo, development) takes them.
  const testKnobs = (["SAMPLER_CLOCK_OFFSET_S", "LIVE_TTL_MAX_S", "RATE_LIMIT_CLOCK_HELD"] as const).filter((k) => Boolean(values[k]));
  if (testKnobs.length && !mayGenerate) {
    throw new Error(
      `${testKnobs.join(", ")}: for test servers only; a deployment (DATABASE_URL, or production without ` +
        "GENERATE_LOCAL_SECRETS) must leave them unset (docs/configuration.md).",
    );
  }
  // One secret signing tokens and guarding the cron routes would let whoever learns one do both.
  if (values.JWT_SECRET && values.JWT_SECRET === values.CRON_SECRET) {
    throw new Error("JWT_SECRET and CRON_SECRET must differ: each protects something else (SECURITY.md).");
  }
  const secret = (name: "JWT_SECRET" | "CRON_SECRET") =>
    values[name] ?? (building ? "build-time-placeholder" : localSecret(values.DATA_DIR, name));
  if (values.UPSTASH_REDIS_REST_URL && !values.UPSTASH_REDIS_REST_TOKEN) {
    throw new Error("UPSTASH_REDIS_REST_URL is set but UPSTASH_REDIS_REST_TOKEN is not.");
  }
  if (values.RATE_LIMIT_UPSTASH_REDIS_REST_URL && !values.RATE_LIMIT_UPSTASH_REDIS_REST_TOKEN) {
    throw new Error("RATE_LIMIT_UPSTASH_REDIS_REST_URL is set but RATE_LIMIT_UPSTASH_REDIS_REST_TOKEN is not.");
  }
  return { ...values, JWT_SECRET: secret("JWT_SECRET"), CRON_SECRET: secret("CRON_SECRET"), embeddedDatabase };
}

export const env: Env = loadEnv();
