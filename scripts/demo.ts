// `npm run demo`: everything offline on embedded defaults. Builds the app if its sources changed, starts the Polymarket
// simulator and the local chains, starts the production server on PORT (3000) with the embedded database and the
// ingest worker (websockets + sampler loop) inside it, then issues (or reuses) a demo API key and prints it.
import { type ChildProcess, spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { once } from "node:events";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createApiKey, findKeyByPlaintext } from "@/lib/auth/api-key";
import { openToolDb } from "@/lib/db/tool-client";
import { env } from "@/lib/env";
import { withTimeout } from "@/lib/timeout";
import { startLocalChains } from "@/sim/chain";
import { REALISTIC_LIMITS } from "@/sim/rpc/standin";
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

const DEMO_SUBSCRIPTION = "demo receiver";

/**
 * A local webhook receiver that verifies and prints each delivery, and the demo key's sample subscription pointing at
 * it (an earlier run's, aimed at an older port, is replaced) — made through the API like any client's.
 */
async function startDemoAlerts(url: string, key: string): Promise<{ receiverUrl: string; subscriptionId: string }> {
  let secret = "";
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const signed = `${String(req.headers["webhook-id"])}.${String(req.headers["webhook-timestamp"])}.${body}`;
      const mac = createHmac("sha256", Buffer.from(secret.replace(/^whsec_/, ""), "base64"))
        .update(signed)
        .digest("base64");
      const valid = String(req.headers["webhook-signature"]).split(" ").includes(`v1,${mac}`);
      const event = JSON.parse(body) as { type: string; data: Record<string, unknown> };
      const what = [event.data.question, event.data.title, event.data.message].find((v) => typeof v === "string") ?? "";
      console.log(
        `  [alert ${valid ? "signed ok" : "BAD SIGNATURE"}] ${event.type} ${String(req.headers["webhook-id"])} ${what.slice(0, 60)}`,
      );
      res.statusCode = valid ? 204 : 400;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiver.unref();
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhook`;
  const api = (pathname: string, init: RequestInit = {}) =>
    fetch(`${url}${pathname}`, { ...init, headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" } });
  const listed = (await (await api("/api/alerts")).json()) as { data: { id: string; name: string }[] };
  for (const old of listed.data.filter((s) => s.name === DEMO_SUBSCRIPTION)) await api(`/api/alerts/${old.id}`, { method: "DELETE" });
  const created = await api("/api/alerts", {
    method: "POST",
    body: JSON.stringify({
      name: DEMO_SUBSCRIPTION,
      url: receiverUrl,
      rules: [
        { type: "trade", min_usd: 1000 },
        { type: "dispute", transitions: ["disputed", "voting", "resolved", "settled"] },
      ],
    }),
  });
  const answer = (await created.json()) as { data: { id: string; secret: string } };
  if (created.status !== 201) throw new Error(`the demo subscription was refused: ${JSON.stringify(answer)}`);
  secret = answer.data.secret;
  return { receiverUrl, subscriptionId: answer.data.id };
}

async function main() {
  const started = Date.now();
  ensureBuild(env.NEXT_DIST_DIR);
  const [simulator, chains] = await Promise.all([
    startSimulator({ seed: 1, scale: "demo" }),
    startLocalChains({ logChunkSize: 2_000, limits: REALISTIC_LIMITS }),
  ]);
  const host = ["0.0.0.0", "::"].includes(env.HOST) ? "127.0.0.1" : env.HOST;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${env.PORT}`;
  // The production entry: listens on HOST (loopback unless set) and tells the gateway each connection's address.
  const server = spawn(process.execPath, [path.join(ROOT, "scripts/server.mjs")], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
    env: {
      ...process.env,
      ...chains.env,
      NODE_ENV: "production",
      GENERATE_LOCAL_SECRETS: "1", // the offline demo keeps generated secrets under DATA_DIR (SECURITY.md)
      PORT: String(env.PORT),
      HOST: env.HOST,
      NEXT_TELEMETRY_DISABLED: "1",
      NEXT_DIST_DIR: env.NEXT_DIST_DIR,
      POLYMARKET_GAMMA_URL: simulator.gammaUrl,
      POLYMARKET_DATA_URL: simulator.dataUrl,
      POLYMARKET_CLOB_URL: simulator.clobUrl,
      POLYMARKET_CLOB_WS_URL: simulator.clobWsUrl,
      POLYMARKET_RTDS_URL: simulator.rtdsUrl,
      SAMPLER_INTERVAL_S: process.env.SAMPLER_INTERVAL_S ?? "15",
      // The embedded database has one owner, so the ingest worker (websockets + sampler loop) runs in the server.
      WORKER_IN_SERVER: process.env.WORKER_IN_SERVER ?? "true",
      // The chains sit behind public-RPC stand-ins with realistic limits (25 requests/s among them): stay below.
      ORACLE_RPC_MAX_RPS: "20",
      // The sample alert subscription delivers to a receiver on loopback over http (docs/alerts.md: demo and tests only).
      ALERTS_ALLOW_LOOPBACK: "true",
      ALERTS_ALLOW_HTTP: "true",
    },
  });
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    if (server.exitCode === null) {
      server.kill("SIGTERM");
      // Up to 8 s for a clean exit, then SIGKILL.
      await withTimeout(once(server, "exit"), 8000).catch(() => undefined);
      if (server.exitCode === null) server.kill("SIGKILL");
    }
    await Promise.allSettled([simulator.close(), chains.stop()]);
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));
  server.on("exit", (code) => void stop(code ?? 1));

  // Where the simulator listens (its controls, e.g. /__sim/ws/emitted), for browser tests and curious users.
  writeFileSync(path.join(env.DATA_DIR, "simulator.json"), JSON.stringify({ url: simulator.url }) + "\n");
  await waitForHealth(url, server);
  const key = await demoKey();
  const alerts = await startDemoAlerts(url, key);
  const line = "─".repeat(78);
  console.log(`\n${line}
  Predmkt demo is running (ready in ${((Date.now() - started) / 1000).toFixed(1)} s), fully offline:
    dashboard      ${url}/
    API reference  ${url}/docs   (OpenAPI: ${url}/api/openapi.json)
    health         ${url}/api/health
    upstream       Polymarket simulator at ${simulator.url}; local chains at ${chains.ethRpcUrl}, ${chains.polygonRpcUrl}
                   (public-RPC stand-ins: GET ${chains.ethRpcUrl}/__standin shows limits and counters, POST changes them)

  Demo API key (pro tier, also saved in ${path.relative(ROOT, DEMO_KEY_FILE)}):
${key}

  Try:
    curl -H "Authorization: Bearer ${key}" ${url}/api/predmkt/stats
    curl -H "Authorization: Bearer ${key}" ${url}/api/oracle/summary
    curl -N "${url}/api/predmkt/stream?api_key=${key}&topics=trades,ticks"
  Alerts: subscription ${alerts.subscriptionId} (trades of $1,000 or more, dispute transitions) delivers to
    the local receiver ${alerts.receiverUrl}, which prints each signed webhook below.
    curl -H "Authorization: Bearer ${key}" ${url}/api/alerts/${alerts.subscriptionId}/deliveries
  Trades arrive live from the simulator's websockets; the sampler fills the rest every ${process.env.SAMPLER_INTERVAL_S ?? "15"} s.
  Ctrl-C stops everything.
${line}\n`);
}

main().catch((error) => {
  console.error(`demo failed: ${error instanceof Error ? error.stack : error}`);
  process.exit(1);
});
