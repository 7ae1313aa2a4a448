// A local Upstash-REST-compatible server over a real Redis, so the Upstash code path (@upstash/redis +
// @upstash/ratelimit over HTTP) runs in tests, CI and benchmarks without the internet. Nothing on npm or apt provides
// one. Protocol (reference/offline-toolchain.md §3): POST / with ["CMD", ...args], POST /pipeline and /multi-exec with
// [[...], ...]; Bearer token; `Upstash-Encoding: base64` means every string in a result is base64 except a top-level "OK".
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import IORedis from "ioredis";

export interface UpstashShim {
  url: string;
  token: string;
  requests: () => number;
  close: () => Promise<void>;
}

const SHEBANG = /^#!lua[^\n]*\n/;

function encode(value: unknown, topLevel: boolean): unknown {
  if (typeof value === "string") return topLevel && value === "OK" ? "OK" : Buffer.from(value).toString("base64");
  if (Array.isArray(value)) return value.map((v) => encode(v, false));
  return value;
}

export async function startUpstashShim(options: { redisUrl?: string; token?: string; port?: number } = {}): Promise<UpstashShim> {
  const token = options.token ?? "local-test-token";
  const redis = new IORedis(options.redisUrl ?? "redis://127.0.0.1:6379", { maxRetriesPerRequest: 1 });
  // Real Redis rejects Upstash's `#!lua flags=allow-key-locking` line: strip it and map the client's sha1 of the
  // original script to the sha1 of the one Redis actually knows.
  const shaMap = new Map<string, string>();
  let count = 0;

  const run = async (command: unknown[], base64: boolean) => {
    const [first, ...args] = command.map((a) => (typeof a === "number" ? String(a) : a)) as string[];
    const name = String(first).toUpperCase();
    if ((name === "EVAL" || name === "EVAL_RO") && SHEBANG.test(args[0])) {
      const original = args[0];
      args[0] = original.replace(SHEBANG, "");
      shaMap.set(createHash("sha1").update(original).digest("hex"), createHash("sha1").update(args[0]).digest("hex"));
    } else if ((name === "EVALSHA" || name === "EVALSHA_RO") && shaMap.has(args[0])) {
      args[0] = shaMap.get(args[0])!;
    }
    try {
      const result = await redis.call(name, ...args);
      return { result: base64 ? encode(result, true) : result };
    } catch (error) {
      return { error: (error as Error).message };
    }
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => void respond());
    const respond = async () => {
      count++;
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (req.headers.authorization !== `Bearer ${token}`) return send(401, { error: "Unauthorized" });
      const base64 = String(req.headers["upstash-encoding"] ?? "").toLowerCase() === "base64";
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        return send(400, { error: "ERR failed to parse command" });
      }
      const path = (req.url ?? "/").split("?")[0].replace(/\/+$/, "");
      if (path === "/pipeline" || path === "/multi-exec") {
        const results = [];
        // Commands run in order; Redis executes each atomically, which is what the rate-limit scripts need.
        for (const command of body as unknown[][]) results.push(await run(command, base64));
        return send(200, results);
      }
      const single = await run(body as unknown[], base64);
      return send("error" in single ? 400 : 200, single);
    };
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    token,
    requests: () => count,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      redis.disconnect();
    },
  };
}
