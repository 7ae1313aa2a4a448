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
    expect(loadEnv({ ...base, JWT_SECRET: long, CRON_SECRET: "y".repeat(32) }).CRON_SECRET).toBe("y".repeat(32));
  });

  it("a production start on the embedded database without them fails with a message, unless it asks for generated ones", () => {
    const embedded = { DATA_DIR: ".data/test", NODE_ENV: "production" };
    expect(() => loadEnv(embedded)).toThrow(/Missing required secret\(s\): JWT_SECRET, CRON_SECRET\. Set them in the environment/);
    expect(() => loadEnv({ ...embedded, JWT_SECRET: long })).toThrow(/Missing required secret\(s\): CRON_SECRET\b/);
    const demo = loadEnv({ ...embedded, DATA_DIR: ".data/test/secrets-demo", GENERATE_LOCAL_SECRETS: "1" });
    expect(demo.JWT_SECRET).toHaveLength(43);
    expect(demo.JWT_SECRET).not.toBe(demo.CRON_SECRET);
  });

  it("refuses equal JWT_SECRET and CRON_SECRET", () => {
    expect(() => loadEnv({ ...base, JWT_SECRET: long, CRON_SECRET: long })).toThrow(/JWT_SECRET and CRON_SECRET must differ/);
  });
});
