// `npm run demo`: everything offline on embedded defaults. Builds the app if its sources changed, starts the Polymarket
// simulator and the local chains, starts the production server on PORT (3000) with the embedded database and the
// sampler loop, then issues (or reuses) a demo API key and prints it.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createApiKey, findKeyByPlaintext } from "@/lib/auth/api-key";
import { openToolDb } from "@/lib/db/tool-client";
import { env } from "@/lib/env";
import { startLocalChains } from "@/sim/chain";
import { startSimulator } from "@/sim/polymarket";
import { ensureBuild, ROOT } from "./lib/build";

const DEMO_KEY_FILE = path.join(env.DATA_DIR, "demo-key.txt");

async function waitForHealth(url: string, server: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("the server did not become healthy in time");
}

/** Reuses the demo key from an earlier run while it is still valid, so bookmarks and scripts keep working. */
async function demoKey(): Promise<string> {
  const tool = await openToolDb();
  try {
    if (existsSync(DEMO_KEY_FILE)) {
      const saved = readFileSync(DEMO_KEY_FILE, "utf8").trim();
      if ((await findKeyByPlaintext(tool.db, saved))?.status === "active") return saved;
    }
    const { key } = await createApiKey(tool.db, { tier: "pro", owner: "demo", useCase: "npm run demo" });
    writeFileSync(DEMO_KEY_FILE, key + "\n", { mode: 0o600 });
    return key;
  } finally {
    await tool.close();
  }
}

async function main() {
  const started = Date.now();
  ensureBuild(env.NEXT_DIST_DIR);
  const [simulator, chains] = await Promise.all([startSimulator({ seed: 1, scale: "demo" }), startLocalChains({ logChunkSize: 2_000 })]);
  const url = `http://127.0.0.1:${env.PORT}`;
  const server = spawn(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(env.PORT)], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      ...chains.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      NEXT_DIST_DIR: env.NEXT_DIST_DIR,
      POLYMARKET_GAMMA_URL: simulator.gammaUrl,
      POLYMARKET_DATA_URL: simulator.dataUrl,
      POLYMARKET_CLOB_URL: simulator.clobUrl,
      SAMPLER_INTERVAL_S: process.env.SAMPLER_INTERVAL_S ?? "15",
    },
  });
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    if (server.exitCode === null) {
      server.kill("SIGTERM");
      await Promise.race([new Promise((r) => server.once("exit", r)), new Promise((r) => setTimeout(r, 8000))]);
      if (server.exitCode === null) server.kill("SIGKILL");
    }
    await Promise.allSettled([simulator.close(), chains.stop()]);
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));
  server.on("exit", (code) => void stop(code ?? 1));

  await waitForHealth(url, server);
  const key = await demoKey();
  const line = "─".repeat(78);
  console.log(`\n${line}
  Predmkt demo is running (ready in ${((Date.now() - started) / 1000).toFixed(1)} s), fully offline:
    dashboard      ${url}/
    API reference  ${url}/docs   (OpenAPI: ${url}/api/openapi.json)
    health         ${url}/api/health
    upstream       Polymarket simulator at ${simulator.url}; local chains at ${chains.ethRpcUrl}, ${chains.polygonRpcUrl}

  Demo API key (pro tier, also saved in ${path.relative(ROOT, DEMO_KEY_FILE)}):
${key}

  Try:
    curl -H "Authorization: Bearer ${key}" ${url}/api/predmkt/stats
    curl -H "Authorization: Bearer ${key}" ${url}/api/oracle/summary
  The sampler fills the sampled endpoints every ${process.env.SAMPLER_INTERVAL_S ?? "15"} s. Ctrl-C stops everything.
${line}\n`);
}

main().catch((error) => {
  console.error(`demo failed: ${error instanceof Error ? error.stack : error}`);
  process.exit(1);
});
