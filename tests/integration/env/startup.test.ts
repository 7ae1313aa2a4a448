// A production server (`npm start`, scripts/server.mjs) with an invalid configuration refuses to run, with the reason,
// instead of listening and answering 500 to everything.
import { describe, expect, it } from "vitest";
import { startApp } from "../../helpers/server";

describe("npm start with an invalid configuration", () => {
  it("exits with the configuration error when the secrets are shorter than 32 characters", async () => {
    const started = startApp({ env: { JWT_SECRET: "too-short", CRON_SECRET: "also-too-short" } });
    await expect(started).rejects.toThrow(/server exited \(1\)[\s\S]*JWT_SECRET: must be at least 32 characters[\s\S]*refusing to start/);
  });
});
