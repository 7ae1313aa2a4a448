// Child processes of the benchmark: the production server (`next start`), the Polymarket simulator and a bare
// `node:http` server. Each runs in its own process so that the load generator (autocannon, in this process) never
// shares an event loop with what it measures. Every process started here is stopped by `stopAll()`.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "../../scripts/lib/build";
import { freePort } from "../../scripts/lib/net";

// The node flags `npm start` gives the server (its heap cap, docs/deployment.md), read from package.json so that the
// bench measures the server as deployed.
const START_NODE_FLAGS = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start
  .split(/\s+/)
  .filter((arg) => arg.startsWith("--"));

const children = new Set<ChildProcess>();
const stoppers = new Set<() => Promise<void>>();

export interface Child {
  url: string;
  port: number;
  /** The process id (the server's memory is read from /proc/<pid> and its children). */
  pid: number;
  logs: () => string;
  stop: () => Promise<void>;
}

function track(child: ChildProcess): { logs: () => string; stop: () => Promise<void> } {
  children.add(child);
  let output = "";
  child.stdout?.on("data", (d) => (output = (output + d).slice(-50_000)));
  child.stderr?.on("data", (d) => (output = (output + d).slice(-50_000)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await Promise.race([new Promise((r) => child.once("exit", r)), new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
    children.delete(child);
    stoppers.delete(stop);
  };
  stoppers.add(stop);
  return { logs: () => output, stop };
}

async function waitForHttp(url: string, child: ChildProcess, logs: () => string, accept: (status: number) => boolean, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`process exited (${child.exitCode}) before ${url} answered:\n${logs()}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (accept(res.status)) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not become ready:\n${logs()}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/**
 * The production server (`npm start`'s scripts/server.mjs) of the build in `distDir` with `env` on a free loopback port;
 * `extraNodeFlags` go after `npm start`'s own (a profile's).
 */
export async function startServer(distDir: string, env: Record<string, string>, extraNodeFlags: string[] = []): Promise<Child> {
  const port = await freePort();
  const fullEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) fullEnv[k] = v;
  delete fullEnv.PGLITE_DIR;
  // A bench server on the embedded database may keep generated secrets (SECURITY.md); benches that give theirs win.
  fullEnv.GENERATE_LOCAL_SECRETS = "1";
  Object.assign(fullEnv, env, {
    NEXT_DIST_DIR: distDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
  });
  const child = spawn(process.execPath, [...START_NODE_FLAGS, ...extraNodeFlags, path.join(ROOT, "scripts/server.mjs")], {
    cwd: ROOT,
    env: fullEnv as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const { logs, stop } = track(child);
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/api/ping`, child, logs, (s) => s === 200);
  return { url, port, pid: child.pid!, logs, stop };
}

/** The Polymarket simulator (`sim/polymarket/main.ts`) at a given scale (bench by default). */
export async function startSimulatorProcess(scale: "demo" | "bench" | "real" = "bench", seed = 1): Promise<Child> {
  const port = await freePort();
  // tsx as a loader in this one process: the tsx CLI would run the simulator in a grandchild.
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "sim/polymarket/main.ts", "--port", String(port), "--seed", String(seed), "--scale", scale],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const { logs, stop } = track(child);
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/__sim/counters`, child, logs, (s) => s === 200);
  return { url, port, pid: child.pid!, logs, stop };
}

/** A bare node:http server that answers every request with exactly `body` and `headers` (the baseline). */
export async function startBareServer(body: string, headers: Record<string, string>): Promise<Child> {
  const port = await freePort();
  const script = `
    const http = require("node:http");
    const body = Buffer.from(process.env.BARE_BODY);
    const headers = JSON.parse(process.env.BARE_HEADERS);
    http.createServer((req, res) => { res.writeHead(200, headers); res.end(body); }).listen(${port}, "127.0.0.1");`;
  const child = spawn(process.execPath, ["-e", script], {
    env: {
      ...process.env,
      BARE_BODY: body,
      BARE_HEADERS: JSON.stringify({ ...headers, "content-length": String(Buffer.byteLength(body)) }),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const { logs, stop } = track(child);
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(url, child, logs, (s) => s === 200, 10_000);
  return { url, port, pid: child.pid!, logs, stop };
}

/**
 * A bare node:http server-sent-event server with the node flags `npm start` gives the server: every GET gets `headers`
 * and a first comment, then all open responses are written `event` every 1000/eventsPerS ms (the streams' floor: what
 * Node itself keeps and churns per connection). `/ping` answers 200.
 */
export async function startBareSseServer(event: string, eventsPerS: number, headers: Record<string, string>): Promise<Child> {
  const port = await freePort();
  const script = `
    const http = require("node:http");
    const event = Buffer.from(process.env.BARE_EVENT);
    const headers = JSON.parse(process.env.BARE_HEADERS);
    const open = new Set();
    http.createServer((req, res) => {
      if (req.url === "/ping") return res.end("ok");
      res.writeHead(200, headers);
      res.write(": stream open\\n\\n");
      open.add(res);
      res.on("close", () => open.delete(res));
    }).listen(${port}, "127.0.0.1");
    setInterval(() => { for (const res of open) res.write(event); }, ${1000 / eventsPerS});`;
  const child = spawn(process.execPath, [...START_NODE_FLAGS, "-e", script], {
    env: { ...process.env, BARE_EVENT: event, BARE_HEADERS: JSON.stringify(headers) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const { logs, stop } = track(child);
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/ping`, child, logs, (s) => s === 200, 10_000);
  return { url, port, pid: child.pid!, logs, stop };
}

export async function stopAll(): Promise<void> {
  await Promise.all([...stoppers].map((stop) => stop()));
}

// A Ctrl-C must not leave servers behind.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    for (const child of children) child.kill("SIGKILL");
    process.exit(130);
  });
}
