import { describe, expect, it } from "vitest";
import { loadEnv } from "@/lib/env";

describe("environment", () => {
  it("a deployment (DATABASE_URL set) without its secrets stops with a clear message", () => {
    expect(() => loadEnv({ DATABASE_URL: "postgresql://x@db/app" })).toThrow(/Missing required secret\(s\): JWT_SECRET, CRON_SECRET/);
  });

  it("refuses a short JWT_SECRET, a bad REDIS_URL and a half-configured Upstash", () => {
    const base = { DATABASE_URL: "postgresql://x@db/app", CRON_SECRET: "c".repeat(32) };
    expect(() => loadEnv({ ...base, JWT_SECRET: "short" })).toThrow(/JWT_SECRET: must be at least 32 characters/);
    expect(() => loadEnv({ ...base, JWT_SECRET: "j".repeat(32), REDIS_URL: "localhost:6379" })).toThrow(/REDIS_URL/);
    expect(() => loadEnv({ ...base, JWT_SECRET: "j".repeat(32), UPSTASH_REDIS_REST_URL: "https://x.upstash.io" })).toThrow(
      /UPSTASH_REDIS_REST_TOKEN/,
    );
    expect(() => loadEnv({ ...base, JWT_SECRET: "j".repeat(32), RATE_LIMIT_PRO: "lots" })).toThrow(/RATE_LIMIT_PRO/);
  });

  it("applies documented defaults", () => {
    const env = loadEnv({ DATABASE_URL: "postgresql://x@db/app", JWT_SECRET: "j".repeat(32), CRON_SECRET: "c".repeat(32) });
    expect(env).toMatchObject({
      PORT: 3000,
      RATE_LIMIT_STARTER: 300,
      RATE_LIMIT_PRO: 600,
      RATE_LIMIT_ENTERPRISE: 6000,
      KEY_CACHE_TTL_S: 30,
      USAGE_FLUSH_MS: 5000,
      SAMPLER_CLOCK_OFFSET_S: 0,
      LIVE_TTL_MAX_S: 0,
      RATE_LIMIT_CLOCK_HELD: false,
      embeddedDatabase: false,
    });
  });

  it("takes the test servers' clock knobs on a local start only", () => {
    const deployment = { DATABASE_URL: "postgresql://x@db/app", JWT_SECRET: "j".repeat(32), CRON_SECRET: "c".repeat(32) };
    const knobs = { SAMPLER_CLOCK_OFFSET_S: "-61", LIVE_TTL_MAX_S: "1", RATE_LIMIT_CLOCK_HELD: "1" };
    expect(() => loadEnv({ ...deployment, ...knobs })).toThrow(
      /SAMPLER_CLOCK_OFFSET_S, LIVE_TTL_MAX_S, RATE_LIMIT_CLOCK_HELD: for test servers only/,
    );
    expect(() => loadEnv({ ...deployment, RATE_LIMIT_CLOCK_HELD: "true" })).toThrow(/RATE_LIMIT_CLOCK_HELD: for test servers only/);
    // A production start on the embedded database that did not ask for local secrets is a deployment too.
    const embedded = { NODE_ENV: "production", JWT_SECRET: "j".repeat(32), CRON_SECRET: "c".repeat(32) };
    expect(() => loadEnv({ ...embedded, LIVE_TTL_MAX_S: "1" })).toThrow(/LIVE_TTL_MAX_S: for test servers only/);
    // The test servers: production on the embedded database with GENERATE_LOCAL_SECRETS.
    expect(loadEnv({ ...embedded, ...knobs, GENERATE_LOCAL_SECRETS: "1" })).toMatchObject({
      SAMPLER_CLOCK_OFFSET_S: -61,
      LIVE_TTL_MAX_S: 1,
      RATE_LIMIT_CLOCK_HELD: true,
    });
    // Left at their defaults, a deployment starts.
    expect(
      loadEnv({ ...deployment, SAMPLER_CLOCK_OFFSET_S: "0", LIVE_TTL_MAX_S: "0", RATE_LIMIT_CLOCK_HELD: "0" }).RATE_LIMIT_CLOCK_HELD,
    ).toBe(false);
  });
});
