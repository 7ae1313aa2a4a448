// A tiny node:http stand-in for the three Polymarket hosts, for client and fault tests without the simulator.
// Routes are keyed by path ("/gamma/events/slug/x"); each host's base URL is `${url}/gamma`, `/data`, `/clob`.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { env } from "@/lib/env";
import { detach } from "@/tests/helpers/detach";

export interface StubRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
}

interface StubReply {
  status?: number;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
  /** Never answer (the connection stays open until the client gives up or the stub closes). */
  hang?: boolean;
  delayMs?: number;
}

export type StubRoute = StubReply | ((req: StubRequest, nth: number) => StubReply | Promise<StubReply>);

export interface Stub {
  url: string;
  requests: StubRequest[];
  count: (path: string) => number;
  route: (path: string, route: StubRoute) => void;
  close: () => Promise<void>;
}

export async function startStub(routes: Record<string, StubRoute> = {}): Promise<Stub> {
  const table = new Map(Object.entries(routes));
  const requests: StubRequest[] = [];
  const counts = new Map<string, number>();
  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://stub");
    let body = "";
    for await (const chunk of req) body += chunk;
    const request = { method: req.method ?? "GET", path: url.pathname, query: url.searchParams, body };
    requests.push(request);
    const nth = (counts.get(url.pathname) ?? 0) + 1;
    counts.set(url.pathname, nth);
    const route = table.get(url.pathname);
    const reply: StubReply =
      route === undefined ? { status: 404, json: { error: "not found" } } : typeof route === "function" ? await route(request, nth) : route;
    if (reply.hang) return; // left open on purpose
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
    res.end(reply.text ?? JSON.stringify(reply.json ?? null));
  };
  const server = http.createServer(detach(handle));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    count: (path) => counts.get(path) ?? 0,
    route: (path, route) => table.set(path, route),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Points the upstream clients at the stub (env is a plain object parsed once; tests may adjust it). */
export function pointUpstreamAt(
  url: string,
  overrides: Partial<Pick<typeof env, "UPSTREAM_TIMEOUT_MS" | "UPSTREAM_MAX_RETRIES" | "UPSTREAM_CONCURRENCY">> = {},
) {
  const previous = {
    POLYMARKET_GAMMA_URL: env.POLYMARKET_GAMMA_URL,
    POLYMARKET_DATA_URL: env.POLYMARKET_DATA_URL,
    POLYMARKET_CLOB_URL: env.POLYMARKET_CLOB_URL,
    UPSTREAM_TIMEOUT_MS: env.UPSTREAM_TIMEOUT_MS,
    UPSTREAM_MAX_RETRIES: env.UPSTREAM_MAX_RETRIES,
    UPSTREAM_CONCURRENCY: env.UPSTREAM_CONCURRENCY,
  };
  Object.assign(env, {
    POLYMARKET_GAMMA_URL: `${url}/gamma`,
    POLYMARKET_DATA_URL: `${url}/data`,
    POLYMARKET_CLOB_URL: `${url}/clob`,
    ...overrides,
  });
  return () => Object.assign(env, previous);
}
