// Gateway cost: the same not-found handler behind the gateway (key lookup, rate limit, signed header) and outside it,
// measured side by side on one production server. Prints p50/p99 latency and requests/s.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { ensureBuild, ROOT } from "../scripts/lib/build";

async function measure(url: string, headers: Record<string, string>, seconds: number) {
  const result = await autocannon({ url, headers, connections: 10, duration: seconds });
  const statuses = Object.entries(result.statusCodeStats as Record<string, { count: number }>)
    .map(([code, { count }]) => `${code}×${count}`)
    .join(" ");
  return { rps: Math.round(result.requests.average), p50_ms: result.latency.p50, p99_ms: result.latency.p99, statuses, errors: result.errors };
}

async function main() {
  ensureBuild(".next");
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-gw-"));
  const port = 3990;
  const env = { ...process.env, DATA_DIR: dataDir, NODE_ENV: "production" as const, RATE_LIMIT_ENTERPRISE: "100000000", NEXT_DIST_DIR: ".next" };
  const server = spawn(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"], { cwd: ROOT, env, stdio: "ignore" });
  try {
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 200; i++) {
      try {
        if ((await fetch(`${base}/api/health`)).ok) break;
      } catch {}
      await new Promise((r) => setTimeout(r, 100));
    }
    // The env module reads process.env once, at first import: point it at the server's data dir first.
    process.env.DATA_DIR = dataDir;
    const { openToolDb } = await import("@/lib/db/tool-client");
    const { createApiKey } = await import("@/lib/auth/api-key");
    const tool = await openToolDb();
    const { key } = await createApiKey(tool.db, { tier: "enterprise", owner: "bench" });
    await tool.close();
    const seconds = Number(process.env.BENCH_SECONDS ?? 8);
    // Warm both paths (JIT, key cache) before measuring.
    await measure(`${base}/api/predmkt/none`, { authorization: `Bearer ${key}` }, 2);
    await measure(`${base}/api/none`, {}, 2);
    const gated = await measure(`${base}/api/predmkt/none`, { authorization: `Bearer ${key}` }, seconds);
    const open = await measure(`${base}/api/none`, {}, seconds);
    console.table({ "behind gateway (key + limit)": gated, "same handler, no gateway": open });
    console.log(`gateway cost: p50 +${(gated.p50_ms - open.p50_ms).toFixed(2)} ms, throughput ratio ${(gated.rps / open.rps).toFixed(2)}`);
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => setTimeout(r, 1000));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main();
