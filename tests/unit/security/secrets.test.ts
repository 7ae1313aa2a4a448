// Finding 7: CRON_SECRET had no minimum length. Both shared secrets must be at least 32 characters, or the server
// refuses to start with a message that names them.
import { describe, expect, it } from "vitest";
import { loadEnv } from "@/lib/env";

const base = { DATA_DIR: ".data/test", DATABASE_URL: "postgresql://localhost/x", NODE_ENV: "production" };
const long = "x".repeat(32);

describe("shared secrets", () => {
  it("a short CRON_SECRET or JWT_SECRET stops the start", () => {
    expect(() => loadEnv({ ...base, JWT_SECRET: long, CRON_SECRET: "short-cron" })).toThrow(/CRON_SECRET: must be at least 32 characters/);
    expect(() => loadEnv({ ...base, JWT_SECRET: "short", CRON_SECRET: long })).toThrow(/JWT_SECRET: must be at least 32 characters/);
  });

  it("a deployment without them does not start", () => {
    expect(() => loadEnv({ ...base })).toThrow(/Missing required secret\(s\): JWT_SECRET, CRON_SECRET/);
  });

  it("32 characters or more are accepted", () => {
    expect(loadEnv({ ...base, JWT_SECRET: long, CRON_SECRET: long }).CRON_SECRET).toBe(long);
  });
});
