// The shared key-value store: Upstash Redis over REST when UPSTASH_REDIS_REST_URL/_TOKEN are set, or a self-hosted
// Redis (REDIS_URL) spoken to through the same @upstash/redis client with an in-process requester over ioredis, so the
// rate limiter and the upstream cache have one code path. Null when neither is configured (embedded defaults).
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

const globalForKv = globalThis as unknown as { __predmktKv?: KvState | null };

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

function open(): KvState | null {
  if (env.UPSTASH_REDIS_REST_URL && env.UPSTASH_REDIS_REST_TOKEN) {
    const redis = new Redis({
      url: env.UPSTASH_REDIS_REST_URL,
      token: env.UPSTASH_REDIS_REST_TOKEN,
      enableTelemetry: false,
      // One quick retry: callers have their own timeout and fallback, so long client-side backoff only adds latency.
      retry: { retries: 1, backoff: () => 50 },
    });
    return { redis, kind: "upstash", close: async () => undefined };
  }
  if (env.REDIS_URL) {
    const client = new IORedis(env.REDIS_URL, {
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

export function getKv(): KvState | null {
  if (globalForKv.__predmktKv === undefined) globalForKv.__predmktKv = open();
  return globalForKv.__predmktKv;
}

export function getRedis(): Redis | null {
  return getKv()?.redis ?? null;
}

export async function closeKv(): Promise<void> {
  const state = globalForKv.__predmktKv;
  globalForKv.__predmktKv = undefined;
  if (state) await state.close();
}
