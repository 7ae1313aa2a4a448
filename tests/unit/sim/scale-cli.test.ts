// Bench scale and the CLI entry point.
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildWorld, startSimulator } from "@/sim/polymarket";

describe("bench scale", () => {
  it("builds a world of ≥ 10,000 markets and serves it", async () => {
    const { world, buildMs } = buildWorld(1, "bench");
    console.log(
      `bench world built in ${buildMs.toFixed(0)} ms: ${world.events.length} events, ${world.markets.length} markets, ${world.posCount} positions`,
    );
    expect(world.markets.length).toBeGreaterThanOrEqual(10_000);
    const sim = await startSimulator({ seed: 1, scale: "bench" });
    try {
      const started = performance.now();
      const res = await fetch(`${sim.gammaUrl}/events/keyset?limit=100&active=true&closed=false`);
      const body = (await res.json()) as { events: unknown[]; next_cursor?: string };
      console.log(`bench keyset page of 100 in ${(performance.now() - started).toFixed(0)} ms`);
      expect(body.events).toHaveLength(100);
      expect(body.next_cursor).toBeTruthy();
    } finally {
      await sim.close();
    }
  });
});

describe("CLI", () => {
  it("prints the POLYMARKET_*_URL lines (three HTTP APIs, two websockets), serves, and exits on SIGTERM", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", path.resolve("sim/polymarket/main.ts"), "--port", "0", "--seed", "2"], {
      cwd: path.resolve("."),
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      let stdout = "";
      const urls = await new Promise<Record<string, string>>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URLs printed: ${stdout}`)), 20_000);
        child.stdout.on("data", (chunk: Buffer) => {
          stdout += chunk.toString();
          const found = Object.fromEntries([...stdout.matchAll(/^(POLYMARKET_\w+_URL)=(\S+)$/gm)].map((m) => [m[1], m[2]]));
          if (Object.keys(found).length === 5) {
            clearTimeout(timer);
            resolve(found);
          }
        });
        child.once("exit", (code) => reject(new Error(`exited early with ${code}`)));
      });
      expect(urls.POLYMARKET_GAMMA_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/gamma$/);
      expect(urls.POLYMARKET_DATA_URL).toMatch(/\/data$/);
      expect(urls.POLYMARKET_CLOB_URL).toMatch(/\/clob$/);
      expect(urls.POLYMARKET_CLOB_WS_URL).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/ws\/market$/);
      expect(urls.POLYMARKET_RTDS_URL).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/rtds$/);
      const res = await fetch(`${urls.POLYMARKET_GAMMA_URL}/events?limit=1`);
      expect(res.status).toBe(200);
      await res.text();
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});
