// CLI: npx tsx sim/polymarket/main.ts [--port 4100] [--seed 1] [--scale demo|bench|real] [--host 127.0.0.1] [--reality on|off]
//   [--active-share 0..1] (the share of markets sending the measured order flow, reality `activeMarketShare`: 0, off)
// Prints the three upstream URLs as POLYMARKET_*_URL=... lines (stdout) and serves until SIGINT/SIGTERM.
import { PLAIN_UPSTREAM, REAL_UPSTREAM, startSimulator } from "./index";

function parseArgs(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("--")) continue;
    const [key, inline] = arg.slice(2).split("=", 2);
    out[key] = inline ?? argv[++i] ?? "";
  }
  return out;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const port = args.port !== undefined ? Number(args.port) : 4100;
  const seed = args.seed !== undefined ? Number(args.seed) : 1;
  const scale = args.scale ?? "demo";
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0..65535, got ${args.port}`);
  if (!Number.isInteger(seed)) throw new Error(`--seed must be an integer, got ${args.seed}`);
  if (scale !== "demo" && scale !== "bench" && scale !== "real") throw new Error(`--scale must be demo, bench or real, got ${scale}`);

  const realityArg = args.reality ?? "on";
  if (realityArg !== "on" && realityArg !== "off") throw new Error(`--reality must be on or off, got ${realityArg}`);
  const activeShare = args["active-share"] !== undefined ? Number(args["active-share"]) : 0;
  if (!(activeShare >= 0 && activeShare <= 1)) throw new Error(`--active-share must be 0..1, got ${args["active-share"]}`);
  const reality = { ...(realityArg === "on" ? REAL_UPSTREAM : PLAIN_UPSTREAM), activeMarketShare: activeShare };
  const sim = await startSimulator({ port, seed, scale, host: args.host ?? "127.0.0.1", reality });
  const summary = sim.summary();
  process.stdout.write(
    `POLYMARKET_GAMMA_URL=${sim.gammaUrl}\nPOLYMARKET_DATA_URL=${sim.dataUrl}\nPOLYMARKET_CLOB_URL=${sim.clobUrl}\nPOLYMARKET_CLOB_WS_URL=${sim.clobWsUrl}\nPOLYMARKET_RTDS_URL=${sim.rtdsUrl}\n`,
  );
  process.stderr.write(
    `[polymarket-sim] seed=${seed} scale=${scale}: ${summary.counts.open_events} open events, ${summary.counts.markets} markets, ` +
      `${summary.counts.categories} categories, built in ${summary.build_ms} ms; controls at ${sim.url}/__sim/{faults,counters,world}\n`,
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`[polymarket-sim] ${signal}: shutting down\n`);
    void sim.close().then(() => process.exit(0));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main().catch((error: unknown) => {
  process.stderr.write(`[polymarket-sim] ${(error as Error).message}\n`);
  process.exit(1);
});
