// The public-RPC stand-in: a JSON-RPC proxy in front of a local anvil that behaves like the public RPCs users point
// the app at. Every limit is switchable at runtime (`configure`), every request is counted by method, and each limit
// answers with the real error of a named provider (sim/rpc/SOURCES.md lists where each message comes from):
//   - eth_getLogs block-range cap and result cap (Alchemy, Infura, QuickNode, reth-based nodes such as publicnode);
//   - a gas cap on eth_call (geth's --rpc.gascap, 50M by default: the call runs with at most that gas);
//   - a request body limit (geth's 5 MB: HTTP 413);
//   - rate limiting (HTTP 429 with Infura's -32005 error);
//   - pruned history (logs of blocks older than `head - N` refused);
//   - transport faults (connection dropped, hang, HTTP 500, a non-JSON body, dying after n requests);
//   - a reorg switch: drop the last k blocks (anvil_rollback) and mine k + 1 different ones.
// An admin route (`GET/POST /__standin`) reads the counters and changes the limits from outside the process (demo).
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Provider = "alchemy" | "infura" | "quicknode" | "reth";
export type TransportFault = "none" | "down" | "hang" | "http_500" | "malformed";

export interface StandinLimits {
  /** Whose error messages the limits answer with. */
  provider: Provider;
  /** eth_getLogs: most blocks in one range (toBlock - fromBlock + 1), or null for none. */
  maxBlockRange: number | null;
  /** eth_getLogs: most logs in one answer, or null for none. */
  maxResults: number | null;
  /** eth_call: the most gas a call may use (the requested gas is capped to it, as geth does). */
  gasCap: number | null;
  /** Largest request body in bytes (HTTP 413 above it). */
  maxBodyBytes: number | null;
  /** Requests per second before HTTP 429 (a one-second token bucket). */
  maxRequestsPerSecond: number | null;
  /** eth_getLogs refuses ranges starting more than this many blocks below the head (pruned history). */
  historyBlocks: number | null;
  fault: TransportFault;
  /** Forward this many more requests, then behave as `down` (a node dying mid-scan); null for no limit. */
  failAfter: number | null;
}

/** Public RPC limits the "done when" names: 2,000-block ranges, 10,000 results, 50M gas, 25 requests/s. */
export const REALISTIC_LIMITS: Partial<StandinLimits> = {
  provider: "alchemy",
  maxBlockRange: 2_000,
  maxResults: 10_000,
  gasCap: 50_000_000,
  maxBodyBytes: 5 * 1024 * 1024,
  maxRequestsPerSecond: 25,
};

export const NO_LIMITS: StandinLimits = {
  provider: "alchemy",
  maxBlockRange: null,
  maxResults: null,
  gasCap: null,
  maxBodyBytes: null,
  maxRequestsPerSecond: null,
  historyBlocks: null,
  fault: "none",
  failAfter: null,
};

export interface StandinCounters {
  /** JSON-RPC calls received, by method (whatever their fate). */
  byMethod: Record<string, number>;
  /** Calls refused by a limit, by limit name. */
  refused: Record<string, number>;
  /** Calls that went through with a limit applied (an eth_call's gas lowered to the cap). */
  capped: Record<string, number>;
  /** Calls forwarded to the chain. */
  forwarded: number;
  /** HTTP requests received. */
  received: number;
}

export interface RpcStandin {
  url: string;
  limits(): StandinLimits;
  configure(changes: Partial<StandinLimits>): void;
  counters(): StandinCounters;
  resetCounters(): void;
  /** Drops the last `depth` blocks and mines `depth + 1` different (empty) ones: every dropped log disappears. */
  reorg(depth: number): Promise<{ droppedFrom: bigint; newHead: bigint }>;
  close(): Promise<void>;
}

interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: number | string | null;
  method: string;
  params?: unknown[];
}
type JsonRpcResponse = {
  jsonrpc: "2.0";
  id: JsonRpcRequest["id"];
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};

class RpcRefusal extends Error {
  constructor(
    readonly limit: string,
    readonly code: number,
    message: string,
    readonly data?: unknown,
    readonly httpStatus = 200,
  ) {
    super(message);
  }
}

const hex = (n: bigint | number) => `0x${BigInt(n).toString(16)}`;

/** The block-range refusal of each provider (sources: sim/rpc/SOURCES.md). */
function rangeRefusal(provider: Provider, from: bigint, to: bigint, max: number): RpcRefusal {
  const span = to - from + 1n;
  const suggestedTo = from + BigInt(max) - 1n;
  switch (provider) {
    case "alchemy":
      return new RpcRefusal(
        "block_range",
        -32600,
        `You can make eth_getLogs requests with up to a ${max} block range. Based on your parameters, this block range should work: [${hex(from)}, ${hex(suggestedTo)}]`,
      );
    case "infura":
      return new RpcRefusal("block_range", -32602, `range ${span} exceeds limit of ${max}`);
    case "quicknode":
      // QuickNode answers this one with HTTP 413.
      return new RpcRefusal("block_range", -32614, `eth_getLogs is limited to a ${max.toLocaleString("en-US")} range`, undefined, 413);
    case "reth":
      return new RpcRefusal("block_range", -32602, `query exceeds max block range ${max}`);
  }
}

/** The result-cap refusal of each provider; `fitsTo` is the last block of the largest range that fits. */
function resultsRefusal(provider: Provider, from: bigint, to: bigint, fitsTo: bigint, max: number): RpcRefusal {
  switch (provider) {
    case "alchemy":
      return new RpcRefusal(
        "results",
        -32602,
        `Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters and the response size limit, this block range should work: [${hex(from)}, ${hex(fitsTo)}]`,
      );
    case "infura":
    case "quicknode":
      return new RpcRefusal(
        "results",
        -32005,
        `query returned more than ${max} results. Try with this block range [${hex(from)}, ${hex(fitsTo)}].`,
        { from: hex(from), to: hex(fitsTo), limit: max },
      );
    case "reth":
      return new RpcRefusal("results", -32602, `query exceeds max results ${max}, retry with the range ${from}-${fitsTo}`);
  }
  void to;
}

function blockParam(value: unknown, head: bigint): bigint {
  if (value === undefined || value === "latest" || value === "pending" || value === "safe" || value === "finalized") return head;
  if (value === "earliest") return 0n;
  return BigInt(value as string);
}

export async function startRpcStandin(target: string, initial: Partial<StandinLimits> = {}): Promise<RpcStandin> {
  let limits: StandinLimits = { ...NO_LIMITS, ...initial };
  let counters: StandinCounters = { byMethod: {}, refused: {}, capped: {}, forwarded: 0, received: 0 };
  let bucket = { second: 0, used: 0 };
  const hanging = new Set<http.ServerResponse>();

  async function upstream(body: JsonRpcRequest): Promise<JsonRpcResponse> {
    const res = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    return (await res.json()) as JsonRpcResponse;
  }
  async function chainCall<T>(method: string, params: unknown[] = []): Promise<T> {
    const answer = await upstream({ jsonrpc: "2.0", id: 0, method, params });
    if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
    return answer.result as T;
  }
  const refuse = (r: RpcRefusal) => {
    counters.refused[r.limit] = (counters.refused[r.limit] ?? 0) + 1;
    return r;
  };

  async function handleCall(call: JsonRpcRequest): Promise<JsonRpcResponse> {
    counters.byMethod[call.method] = (counters.byMethod[call.method] ?? 0) + 1;
    const params = [...(call.params ?? [])];
    if (call.method === "eth_getLogs" && (limits.maxBlockRange !== null || limits.maxResults !== null || limits.historyBlocks !== null)) {
      const filter = (params[0] ?? {}) as { fromBlock?: string; toBlock?: string; blockHash?: string };
      if (!filter.blockHash) {
        const head = BigInt(await chainCall<string>("eth_blockNumber"));
        const from = blockParam(filter.fromBlock ?? "latest", head);
        const to = blockParam(filter.toBlock ?? "latest", head);
        if (limits.historyBlocks !== null && from < head - BigInt(limits.historyBlocks)) {
          throw refuse(new RpcRefusal("pruned", -32000, "History has been pruned for this block"));
        }
        if (limits.maxBlockRange !== null && to - from + 1n > BigInt(limits.maxBlockRange)) {
          throw refuse(rangeRefusal(limits.provider, from, to, limits.maxBlockRange));
        }
        if (limits.maxResults !== null) {
          counters.forwarded += 1;
          const answer = await upstream({ ...call, params });
          const logs = answer.result as { blockNumber: string }[] | undefined;
          if (logs && logs.length > limits.maxResults) {
            // The largest range from `from` whose logs fit, as the providers suggest it.
            const cut = BigInt(logs[limits.maxResults].blockNumber) - 1n;
            throw refuse(resultsRefusal(limits.provider, from, to, cut < from ? from : cut, limits.maxResults));
          }
          return { ...answer, id: call.id };
        }
      }
    }
    if (call.method === "eth_call" && limits.gasCap !== null) {
      // geth caps the requested gas (or the default) at --rpc.gascap and runs the call with it; running out is an
      // ordinary "out of gas" error.
      const tx = { ...((params[0] ?? {}) as Record<string, unknown>) };
      const requested = tx.gas !== undefined ? BigInt(tx.gas as string) : null;
      const cap = BigInt(limits.gasCap);
      if (requested === null || requested > cap) counters.capped.gas_cap = (counters.capped.gas_cap ?? 0) + 1;
      tx.gas = hex(requested !== null && requested < cap ? requested : cap);
      params[0] = tx;
    }
    counters.forwarded += 1;
    const answer = await upstream({ ...call, params });
    if (call.method === "eth_call" && limits.gasCap !== null && answer.error && /out of gas|OutOfGas/i.test(answer.error.message)) {
      refuse(new RpcRefusal("gas_cap", -32000, "out of gas"));
      return { jsonrpc: "2.0", id: call.id, error: { code: -32000, message: "out of gas" } };
    }
    return { ...answer, id: call.id };
  }

  async function answerCall(call: JsonRpcRequest): Promise<{ response: JsonRpcResponse; httpStatus: number }> {
    try {
      return { response: await handleCall(call), httpStatus: 200 };
    } catch (error) {
      if (error instanceof RpcRefusal) {
        return {
          response: {
            jsonrpc: "2.0",
            id: call.id,
            error: { code: error.code, message: error.message, ...(error.data ? { data: error.data } : {}) },
          },
          httpStatus: error.httpStatus,
        };
      }
      throw error;
    }
  }

  function overRate(calls: number): boolean {
    if (limits.maxRequestsPerSecond === null) return false;
    const second = Math.floor(Date.now() / 1000);
    if (bucket.second !== second) bucket = { second, used: 0 };
    if (bucket.used + calls > limits.maxRequestsPerSecond) return true;
    bucket.used += calls;
    return false;
  }

  async function admin(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) {
    if (req.method === "POST") {
      const changes = JSON.parse(body.toString() || "{}") as Partial<StandinLimits> & { reorg?: number; reset?: boolean };
      if (changes.reorg) await standin.reorg(changes.reorg);
      if (changes.reset) standin.resetCounters();
      delete changes.reorg;
      delete changes.reset;
      standin.configure(changes);
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ limits, counters }));
  }

  const server = http.createServer((req, res) => void handle(req, res));
  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    if (req.url?.startsWith("/__standin"))
      return void (await admin(req, res, body).catch((e: unknown) => void res.writeHead(400).end(String(e))));
    counters.received += 1;
    let fault = limits.fault;
    if (fault === "none" && limits.failAfter !== null) {
      if (limits.failAfter <= 0) fault = "down";
      else limits.failAfter -= 1;
    }
    if (fault === "down") return void res.socket?.destroy();
    if (fault === "hang") return void hanging.add(res);
    if (fault === "http_500") return void res.writeHead(500, { "content-type": "text/plain" }).end("internal error");
    if (fault === "malformed") return void res.writeHead(200, { "content-type": "application/json" }).end("<html>Bad gateway</html>");
    if (limits.maxBodyBytes !== null && body.length > limits.maxBodyBytes) {
      // geth rpc/http.go validateRequest: 413 "content length too large (n>max)".
      counters.refused.body_size = (counters.refused.body_size ?? 0) + 1;
      return void res
        .writeHead(413, { "content-type": "text/plain" })
        .end(`content length too large (${body.length}>${limits.maxBodyBytes})`);
    }
    let parsed: JsonRpcRequest | JsonRpcRequest[];
    try {
      parsed = JSON.parse(body.toString()) as JsonRpcRequest | JsonRpcRequest[];
    } catch {
      return void res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } }));
    }
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    if (overRate(calls.length)) {
      counters.refused.rate_limit = (counters.refused.rate_limit ?? 0) + calls.length;
      for (const c of calls) counters.byMethod[c.method] = (counters.byMethod[c.method] ?? 0) + 1;
      const error = { code: -32005, message: "project ID request rate exceeded" };
      const answer = Array.isArray(parsed)
        ? calls.map((c) => ({ jsonrpc: "2.0", id: c.id, error }))
        : { jsonrpc: "2.0", id: parsed.id, error };
      return void res.writeHead(429, { "content-type": "application/json" }).end(JSON.stringify(answer));
    }
    try {
      const answers = await Promise.all(calls.map(answerCall));
      const status = answers.find((a) => a.httpStatus !== 200)?.httpStatus ?? 200;
      const payload = Array.isArray(parsed) ? answers.map((a) => a.response) : answers[0].response;
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(payload));
    } catch {
      res.socket?.destroy();
    }
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));

  const standin: RpcStandin = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    limits: () => ({ ...limits }),
    configure(changes) {
      limits = { ...limits, ...changes };
      if (limits.fault !== "hang") {
        for (const res of hanging) res.socket?.destroy();
        hanging.clear();
      }
    },
    counters: () => structuredClone(counters),
    resetCounters() {
      counters = { byMethod: {}, refused: {}, capped: {}, forwarded: 0, received: 0 };
    },
    async reorg(depth) {
      const head = BigInt(await chainCall<string>("eth_blockNumber"));
      const headBlock = await chainCall<{ timestamp: string }>("eth_getBlockByNumber", [hex(head), false]);
      await chainCall("anvil_rollback", [depth]);
      // A different timestamp makes even an empty replacement block hash differently from the dropped one.
      await chainCall("evm_setNextBlockTimestamp", [hex(BigInt(headBlock.timestamp) + 1n)]);
      await chainCall("anvil_mine", [hex(depth + 1)]);
      return { droppedFrom: head - BigInt(depth) + 1n, newHead: BigInt(await chainCall<string>("eth_blockNumber")) };
    },
    async close() {
      for (const res of hanging) res.socket?.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
  return standin;
}
