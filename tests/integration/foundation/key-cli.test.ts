// The operator's key CLI against a running server: create → use → list (never the key) → revoke → refused.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningApp, startApp } from "../../helpers/server";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../../..");
let app: RunningApp;

function keys(args: string[]) {
  return run(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/keys.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: app.dataDir, PGLITE_DIR: "" },
  });
}

beforeAll(async () => {
  app = await startApp({ env: { KEY_CACHE_TTL_S: "1" } });
});
afterAll(() => app?.stop());

describe("npm run keys", () => {
  it("the embedded database's bridge is a Unix socket only this user can open", async () => {
    const { statSync } = await import("node:fs");
    const owner = JSON.parse((await import("node:fs")).readFileSync(path.join(app.dataDir, "pglite.owner.json"), "utf8"));
    expect(owner.socketDir).toBe(app.dataDir);
    expect(owner).not.toHaveProperty("socketPort");
    const socket = statSync(path.join(app.dataDir, ".s.PGSQL.5432"));
    expect(socket.isSocket()).toBe(true);
    expect(socket.mode & 0o777).toBe(0o600);
  });

  it("round trip through the running server's database", async () => {
    const created = await keys(["create", "--tier", "enterprise", "--owner", "CLI Corp", "--use-case", "research", "--volume", "50k/day"]);
    const key = created.stdout.trim();
    expect(key).toMatch(/^pmk_[0-9A-Za-z]{40}$/);
    expect(created.stderr).toContain("shown once");

    const used = await fetch(`${app.url}/api/predmkt/x`, { headers: { authorization: `Bearer ${key}` } });
    expect(used.status).toBe(404);
    expect(used.headers.get("x-api-tier")).toBe("enterprise");
    expect(used.headers.get("x-ratelimit-limit")).toBe("6000");

    const listed = await keys(["list", "--json"]);
    expect(listed.stdout).not.toContain(key);
    const rows = JSON.parse(listed.stdout);
    const row = rows.find((r: { prefix: string }) => r.prefix === key.slice(0, 12));
    expect(row).toMatchObject({ tier: "enterprise", owner: "CLI Corp", useCase: "research", expectedVolume: "50k/day", status: "active" });
    expect(row).not.toHaveProperty("hashedKey");
    const table = await keys(["list"]);
    expect(table.stdout).toContain(key.slice(0, 12));
    expect(table.stdout).not.toContain(key);

    const revoked = await keys(["revoke", key.slice(0, 12)]);
    expect(revoked.stdout).toContain("revoked");
    await new Promise((r) => setTimeout(r, 1200));
    const refused = await fetch(`${app.url}/api/predmkt/x`, { headers: { authorization: `Bearer ${key}` } });
    expect(refused.status).toBe(401);
    expect((await refused.json()).code).toBe("revoked_api_key");
  });

  it("refuses bad usage with a clear message and exit code 2", async () => {
    const error = await keys(["create", "--tier", "gold", "--owner", "x"]).catch((e) => e);
    expect(error.code).toBe(2);
    expect(error.stderr).toContain("--tier must be one of starter, pro, enterprise");
    const missing = await keys(["revoke", "pmk_nothere0"]).catch((e) => e);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("no key matches");
  });
});
