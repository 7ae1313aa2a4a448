// The shared key-value store: Upstash Redis over REST when UPSTASH_REDIS_REST_URL/_TOKEN are set, or a self-hosted
// Redis (REDIS_URL) spoken to through the same @upstash/redis client with an in-process requester over ioredis, so the
// rate limiter and the upstream cache have one code path. Null when neither is configured (embedded defaults).
// The limits store (getLimitsKv: rate-limit windows, stream leases, usage counts) is a second one when
// RATE_LIMIT_UPSTASH_REDIS_REST_URL or RATE_LIMIT_REDIS_URL is set, else the same: SECURITY.md "Shared stores".
import { createHash } from "node:crypto";
import { Redis } from "@upstash/redis";
import IORedis from "ioredis";
import { env } from "@/lib/env";

export type KvKind = "upstash" | "redis";

interface KvState {
  redis: Redis;
  kind: KvKind;
  close: () => Promise<void>;
}

const globalForKv = globalThis as unknown as { __predmktKv?: KvState | null; __predmktLimitsKv?: KvState | null };

// @upstash/ratelimit's scripts start with `#!lua flags=allow-key-locking`, a Dragonfly/Upstash flag real Redis
// rejects. Strip it, and remember which stripped script a client-side sha1 stands for so EVALSHA keeps working.
const SHEBANG = /^#!lua[^\n]*\n/;
const shaOfOriginal = new Map<string, string>();

function sha1(text: string): string {
  return createHash("sha1").update(text).digest("hex");
}

function rewriteCommand(command: unknown[]): unknown[] {
  const [name, ...args] = command;
  const upper = String(name).toUpperCase();
  if ((upper === "EVAL" || upper === "EVAL_RO") && typeof args[0] === "string" && SHEBANG.test(args[0])) {
    const stripped = args[0].replace(SHEBANG, "");
    shaOfOriginal.set(sha1(args[0]), sha1(stripped));
    return [upper, stripped, ...args.slice(1)];
  }
  if ((upper === "EVALSHA" || upper === "EVALSHA_RO") && typeof args[0] === "string" && shaOfOriginal.has(args[0])) {
    return [upper, shaOfOriginal.get(args[0]), ...args.slice(1)];
  }
  return [upper, ...args];
}

function ioredisRequester(client: IORedis) {
  const run = async (command: unknown[]) => {
    const [name, ...args] = rewriteCommand(command);
    try {
      return { result: await client.call(String(name), ...(args as (string | number)[])) };
    } catch (error) {
      const message = (error as Error).message;
      // Connection-level failures must surface as exceptions (store unreachable), not as Redis errors.
      if (/Connection is closed|ECONNREFUSED|Stream isn't writeable|enableOfflineQueue/.test(message)) throw error;
      return { error: message };
    }
  };
  return {
    request: async <T>(req: { path?: string[]; body?: unknown }) => {
      const path = req.path?.join("/") ?? "";
      if (path === "pipeline" || path === "multi-exec") {
        const commands = req.body as unknown[][];
        const results = [];
        for (const command of commands) results.push(await run(command));
        return results as unknown as { result?: T };
      }
      return (await run(req.body as unknown[])) as { result?: T };
    },
  };
}

interface KvConfig {
  upstashUrl?: string;
  upstashToken?: string;
  redisUrl?: string;
}

function open({ upstashUrl, upstashToken, redisUrl }: KvConfig): KvState | null {
  if (upstashUrl && upstashToken) {
    const redis = new Redis({
      url: upstashUrl,
      token: upstashToken,
      enableTelemetry: false,
      // One quick retry: callers have their own timeout and fallback, so long client-side backoff only adds latency.
      retry: { retries: 1, backoff: () => 50 },
    });
    return { redis, kind: "upstash", close: async () => undefined };
  }
  if (redisUrl) {
    const client = new IORedis(redisUrl, {
      lazyConnect: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 1000,
      retryStrategy: (times) => Math.min(times * 200, 2000),
    });
    client.on("error", () => undefined); // reported through failing calls; avoids unhandled 'error' events
    const redis = new Redis(ioredisRequester(client) as never);
    return { redis, kind: "redis", close: async () => void client.disconnect() };
  }
  return null;
}

/** The shared store: cached answers, upstream bodies, per-pass aggregates (and the limits, unless they have their own). */
export function getKv(): KvState | null {
  if (globalForKv.__predmktKv === undefined) {
    globalForKv.__predmktKv = open({
      upstashUrl: env.UPSTASH_REDIS_REST_URL,
      upstashToken: env.UPSTASH_REDIS_REST_TOKEN,
      redisUrl: env.REDIS_URL,
    });
  }
  return globalForKv.__predmktKv;
}

/** Whether the rate-limit state has a store of its own (RATE_LIMIT_UPSTASH_REDIS_REST_URL or RATE_LIMIT_REDIS_URL). */
function limitsStoreSeparate(): boolean {
  return Boolean((env.RATE_LIMIT_UPSTASH_REDIS_REST_URL && env.RATE_LIMIT_UPSTASH_REDIS_REST_TOKEN) || env.RATE_LIMIT_REDIS_URL);
}

/** The store of rate-limit windows, stream leases and usage counts: its own when configured, else getKv()'s. */
export function getLimitsKv(): KvState | null {
  if (!limitsStoreSeparate()) return getKv();
  if (globalForKv.__predmktLimitsKv === undefined) {
    globalForKv.__predmktLimitsKv = open({
      upstashUrl: env.RATE_LIMIT_UPSTASH_REDIS_REST_URL,
      upstashToken: env.RATE_LIMIT_UPSTASH_REDIS_REST_TOKEN,
      redisUrl: env.RATE_LIMIT_REDIS_URL,
    });
  }
  return globalForKv.__predmktLimitsKv;
}

export function getRedis(): Redis | null {
  return getKv()?.redis ?? null;
}

export async function closeKv(): Promise<void> {
  const states = [globalForKv.__predmktKv, globalForKv.__predmktLimitsKv];
  globalForKv.__predmktKv = undefined;
  globalForKv.__predmktLimitsKv = undefined;
  for (const state of states) if (state) await state.close();
}
