// A loopback JSON-RPC proxy in front of a local chain (anvil) that a test can switch between failure modes:
// `down` drops the connection, `hang` never answers, `http_500` answers 500, `malformed` answers 200 with a non-JSON
// body; `failAfter(n)` forwards the next n requests and then behaves like `down` (a node dying mid-scan).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { detach } from "@/tests/helpers/detach";

export type RpcMode = "up" | "down" | "hang" | "http_500" | "malformed";

export interface RpcProxy {
  url: string;
  set: (mode: RpcMode) => void;
  failAfter: (requests: number) => void;
  /** JSON-RPC requests forwarded to the chain so far. */
  forwarded: () => number;
  /** Requests that reached the proxy, whatever the mode. */
  received: () => number;
  close: () => Promise<void>;
}

export async function startRpcProxy(target: string): Promise<RpcProxy> {
  let mode: RpcMode = "up";
  let budget = Infinity;
  let forwarded = 0;
  let received = 0;
  const hanging = new Set<http.ServerResponse>();
  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    received += 1;
    const effective: RpcMode = mode === "up" && budget <= 0 ? "down" : mode;
    if (effective === "down") return void res.socket?.destroy();
    if (effective === "hang") return void hanging.add(res);
    if (effective === "http_500") return void res.writeHead(500, { "content-type": "text/plain" }).end("internal error");
    if (effective === "malformed") return void res.writeHead(200, { "content-type": "application/json" }).end("<html>Bad gateway</html>");
    budget -= 1;
    forwarded += 1;
    try {
      const upstream = await fetch(target, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: Buffer.concat(chunks),
      });
      res.writeHead(upstream.status, { "content-type": "application/json" });
      res.end(Buffer.from(await upstream.arrayBuffer()));
    } catch {
      res.socket?.destroy();
    }
  };
  const server = http.createServer(detach(handle));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    set: (next) => {
      mode = next;
      budget = Infinity;
      if (next !== "hang") for (const res of hanging) res.socket?.destroy();
      if (next !== "hang") hanging.clear();
    },
    failAfter: (requests) => {
      mode = "up";
      budget = requests;
    },
    forwarded: () => forwarded,
    received: () => received,
    close: async () => {
      for (const res of hanging) res.socket?.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
