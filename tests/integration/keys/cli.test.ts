// The operator's key CLI against a running server: create → use → list (never the key) → revoke → refused.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pollUntil, untilRefused } from "../../helpers/poll";
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
  it("the embedded database's bridge is closed until a tool asks, then a Unix socket only this user can open", async () => {
    const { existsSync, readFileSync, statSync } = await import("node:fs");
    const { requestBridge } = await import("@/lib/db/tool-client");
    const { BRIDGE_IDLE_MS } = await import("@/lib/db/bridge");
    const ownerFile = path.join(app.dataDir, "pglite.owner.json");
    const socketPath = path.join(app.dataDir, "bridge", ".s.PGSQL.5432");
    // Nothing asked yet: no socket, and the owner record says how to ask.
    expect(JSON.parse(readFileSync(ownerFile, "utf8"))).toEqual({ pid: expect.any(Number), bridgeOnRequest: true });
    expect(existsSync(socketPath)).toBe(false);

    expect(requestBridge(ownerFile)).toBe(path.join(app.dataDir, "bridge"));
    const owner = JSON.parse(readFileSync(ownerFile, "utf8"));
    expect(owner).not.toHaveProperty("socketPort");
    const socket = statSync(socketPath);
    expect(socket.isSocket()).toBe(true);
    expect(socket.mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(socketPath)).mode & 0o777).toBe(0o700);

    // Unused, it closes again: the socket goes and the owner record no longer names it.
    await pollUntil(
      () => existsSync(socketPath),
      (exists) => !exists,
      BRIDGE_IDLE_MS + 10_000,
      200,
      "the idle socket to close",
    );
    expect(JSON.parse(readFileSync(ownerFile, "utf8"))).not.toHaveProperty("socketDir");
  }, 40_000);

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
    // KEY_CACHE_TTL_S=1 in this server: refused within that second (and a margin).
    const refused = await untilRefused(() => fetch(`${app.url}/api/predmkt/x`, { headers: { authorization: `Bearer ${key}` } }));
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
