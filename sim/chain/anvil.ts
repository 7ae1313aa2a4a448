// Starts the real anvil binary (not the node_modules/.bin wrapper, which can leave the real process running when
// killed) in its own process group on an ephemeral loopback port, and stops it for sure.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
export const ANVIL_BINARY = path.join(ROOT, "node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil");

export interface AnvilInstance {
  url: string;
  chainId: number;
  pid: number;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Last resort when the owner forgets stop(): no anvil may outlive the process that started it.
  process.once("exit", () => {
    for (const child of running) killGroup(child, "SIGKILL");
  });
}

export async function startAnvil(options: { chainId: number; genesisTimestamp: number; timeoutMs?: number }): Promise<AnvilInstance> {
  if (!existsSync(ANVIL_BINARY)) throw new Error(`anvil binary not found at ${ANVIL_BINARY} (npm package @foundry-rs/anvil)`);
  const args = [
    "--host",
    "127.0.0.1",
    "--port",
    "0",
    "--chain-id",
    String(options.chainId),
    "--timestamp",
    String(options.genesisTimestamp),
    "--accounts",
    "2",
    "--balance",
    "1000",
  ];
  const child = spawn(ANVIL_BINARY, args, { detached: true, stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  installExitHook();
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup(child, "SIGKILL");
      reject(new Error(`anvil did not start within ${options.timeoutMs ?? 10_000} ms:\n${output}`));
    }, options.timeoutMs ?? 10_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Listening on (127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(`http://${match[1]}`);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`anvil exited (${code}) before listening:\n${output}`));
    });
  });
  // Keep draining its per-request log so a full pipe never blocks it.
  child.stdout.removeAllListeners("data");
  child.stderr.removeAllListeners("data");
  child.stdout.resume();
  child.stderr.resume();
  return {
    url,
    chainId: options.chainId,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        killGroup(child, "SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 2_000))]);
        killGroup(child, "SIGKILL");
      }
      running.delete(child);
    },
  };
}
