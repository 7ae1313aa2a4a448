// `npm run chain`: starts both local chains, seeds them, prints the env lines that point the app at them, and runs
// until SIGINT/SIGTERM.
import { startLocalChains } from "./index";

async function main() {
  const started = Date.now();
  const chains = await startLocalChains();
  console.error(`local chains ready in ${Date.now() - started} ms (Ethereum ${chains.ethRpcUrl}, Polygon ${chains.polygonRpcUrl})`);
  for (const [key, value] of Object.entries(chains.env)) console.log(`${key}=${value}`);
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await chains.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());
  setInterval(() => undefined, 1 << 30);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
