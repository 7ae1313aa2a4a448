// Offline Polymarket upstream simulator: one node:http server answering Gamma under /gamma, the Data API under
// /data and the CLOB under /clob, from a seeded deterministic world whose prices and trades move in real time.
// Test controls live under /__sim (faults, counters, world summary).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { handleClob } from "./clob";
import { handleData } from "./data-api";
import { Counters, FaultRegistry, parseFault, type Fault } from "./faults";
import { TradeFlow } from "./flow";
import { eventStats, handleGamma } from "./gamma";
import type { SimContext, SimRequest, SimResponse } from "./http-types";
import { makerCrossShare } from "./makers";
import { PriceModel } from "./prices";
import { CdnCache, cdnMaxAgeS } from "./cdn";
import { applyV2Share, PLAIN_UPSTREAM, parseReality, type Reality } from "./reality";
import { Throttle, type ThrottleStats } from "./throttle";
import { handleWalletData } from "./wallets";
import { World, type Scale } from "./world";
import { startWebsockets } from "./ws";

export type { Fault, FaultMode, FaultTarget } from "./faults";
export type { Scale } from "./world";
export { PLAIN_UPSTREAM, REAL_UPSTREAM, type Reality } from "./reality";
export { World } from "./world";

export interface SimulatorOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** World seed (default 1). */
  seed?: number;
  /** "small" (≥ 130 open events, ≥ 550 markets: tests), "demo" (≥ 300 open events, ≥ 1,500 markets), "bench" (≥ 10,000
   *  markets) or "real" (≥ 25,000). Default "demo". */
  scale?: Scale;
  /** Interface to bind (default 127.0.0.1). */
  host?: string;
  /** Simulated clock in ms (default Date.now). Tests can freeze time with it. */
  clock?: () => number;
  /** Start of the world's "today" in ms (default: the current UTC midnight). Only event dates depend on it. */
  anchorMs?: number;
  /** The real upstream's hard parts to switch on (reality.ts); default: all off. */
  reality?: Partial<Reality>;
}

export interface WorldSummary {
  seed: number;
  scale: Scale;
  anchor: string;
  build_ms: number;
  counts: Record<string, number>;
  categories: { slug: string; label: string; tag_id: string; open_events: number }[];
  samples: {
    multi_market_event_slugs: string[];
    binary_event_slugs: string[];
    closed_event_slugs: string[];
    archived_event_slugs: string[];
    market_ids: string[];
    condition_ids: string[];
    token_ids: string[];
    busiest_markets: {
      id: string;
      condition_id: string;
      slug: string;
      event_slug: string;
      token_ids: string[];
      trades_per_minute: number;
    }[];
    whale_wallets: string[];
    whale_positions: {
      wallet: string;
      market_id: string;
      condition_id: string;
      event_slug: string;
      outcome_index: number;
      token_id: string;
    }[];
  };
}

export interface Simulator {
  /** Base URL of the server, e.g. http://127.0.0.1:4100 */
  url: string;
  gammaUrl: string;
  dataUrl: string;
  clobUrl: string;
  /** The three REST base URLs as the app's environment variables (lib/env), to point a server or a test at them. */
  env: { POLYMARKET_GAMMA_URL: string; POLYMARKET_DATA_URL: string; POLYMARKET_CLOB_URL: string };
  /** The CLOB market channel (`…/ws/market`) and the real-time data socket (RTDS), as ws:// URLs. */
  clobWsUrl: string;
  rtdsUrl: string;
  world: World;
  prices: PriceModel;
  flow: TradeFlow;
  /** Context for direct (non-HTTP) calls at the simulator's current time. */
  context(): SimContext;
  summary(): WorldSummary;
  reality(): Reality;
  /** Changes the runtime switches (gammaClosedDefault, junkRate); v2Share is fixed when the world is built. */
  setReality(reality: Partial<Reality>): Reality;
  /**
   * Adds a tape burst of `count` taker fills over [at_s, at_s + spread_s) (default: the last 30 s before now), in the
   * 50 busiest open markets or all in `market` (an index into world.markets).
   */
  burst(count: number, options?: { atSec?: number; spreadSec?: number; market?: number; sweep?: boolean }): void;
  setFault(fault: Fault): void;
  clearFaults(): void;
  faults(): Fault[];
  counters(): Record<string, number>;
  resetCounters(): void;
  /** Rate-limit evidence (rateLimits switch): peak requests per 10 s window per scope, delayed and refused counts. */
  throttle(): ThrottleStats;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 1_000_000;
const MALFORMED_BODY = '<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>{"error": upstream</body></html>';

export function startOfUtcDay(ms: number): number {
  return Math.floor(ms / 86_400_000) * 86_400_000;
}

export function buildWorld(
  seed = 1,
  scale: Scale = "demo",
  anchorMs = startOfUtcDay(Date.now()),
  v2Share = 0,
): { world: World; prices: PriceModel; flow: TradeFlow; buildMs: number } {
  const started = performance.now();
  const world = new World({ seed, scale, anchorMs });
  applyV2Share(world, v2Share);
  const prices = new PriceModel(world);
  const flow = new TradeFlow(world, prices);
  return { world, prices, flow, buildMs: performance.now() - started };
}

export function summarize(ctx: SimContext, buildMs: number): WorldSummary {
  const { world } = ctx;
  const open = world.events.filter((e) => world.isOpen(e));
  const byVolume = open
    .map((e) => ({ e, v: eventStats(ctx, e).volume24hr }))
    .sort((a, b) => b.v - a.v)
    .map((x) => x.e);
  const multi = byVolume.filter((e) => e.markets.length > 1).slice(0, 5);
  const binary = byVolume.filter((e) => e.markets.length === 1).slice(0, 5);
  const openMarkets = world.markets.filter((m) => world.isOpen(world.events[m.eventIndex]));
  const busiest = [...openMarkets].sort((a, b) => b.tradeRate - a.tradeRate).slice(0, 5);
  const samplesMarkets = [...busiest, ...openMarkets.slice(0, 5)];
  const whalePositions = world.whalePositionIndexes
    .filter((p) => world.isOpen(world.events[world.markets[world.posMarket[p]].eventIndex]))
    .sort(
      (a, b) =>
        world.markets[world.posMarket[b]].tradeRate * world.posWhaleRate[b] -
        world.markets[world.posMarket[a]].tradeRate * world.posWhaleRate[a],
    )
    .slice(0, 8);
  return {
    seed: world.seed,
    scale: world.scale,
    anchor: new Date(world.anchorMs).toISOString(),
    build_ms: Math.round(buildMs),
    counts: {
      events: world.events.length,
      open_events: open.length,
      closed_events: world.events.filter((e) => e.closed && !e.archived).length,
      archived_events: world.events.filter((e) => e.archived).length,
      multi_market_events: world.events.filter((e) => e.markets.length > 1).length,
      markets: world.markets.length,
      open_markets: openMarkets.length,
      tags: world.tags.length,
      categories: world.tags.filter((t) => t.isCategory).length,
      wallets: world.walletCount,
      whales: world.whaleCount,
      positions: world.posCount,
    },
    categories: world.tags
      .filter((t) => t.isCategory)
      .map((t) => ({ slug: t.slug, label: t.label, tag_id: t.id, open_events: open.filter((e) => e.category === t.slug).length })),
    samples: {
      multi_market_event_slugs: multi.map((e) => e.slug),
      binary_event_slugs: binary.map((e) => e.slug),
      closed_event_slugs: world.events
        .filter((e) => e.closed && !e.archived)
        .slice(0, 3)
        .map((e) => e.slug),
      archived_event_slugs: world.events
        .filter((e) => e.archived)
        .slice(0, 3)
        .map((e) => e.slug),
      market_ids: samplesMarkets.map((m) => m.id),
      condition_ids: samplesMarkets.map((m) => m.conditionId),
      token_ids: samplesMarkets.flatMap((m) => m.tokenIds),
      busiest_markets: busiest.map((m) => ({
        id: m.id,
        condition_id: m.conditionId,
        slug: m.slug,
        event_slug: world.events[m.eventIndex].slug,
        token_ids: [...m.tokenIds],
        trades_per_minute: Math.round(m.tradeRate * 1000) / 1000,
      })),
      whale_wallets: Array.from({ length: Math.min(5, world.whaleCount) }, (_, i) => world.walletAddress(i)),
      whale_positions: whalePositions.map((p) => {
        const m = world.markets[world.posMarket[p]];
        return {
          wallet: world.walletAddress(world.posWallet[p]),
          market_id: m.id,
          condition_id: m.conditionId,
          event_slug: world.events[m.eventIndex].slug,
          outcome_index: world.posOutcome[p],
          token_id: m.tokenIds[world.posOutcome[p]],
        };
      }),
    },
  };
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const clock = options.clock ?? Date.now;
  let reality: Reality = { ...PLAIN_UPSTREAM, ...options.reality };
  const { world, prices, flow, buildMs } = buildWorld(
    options.seed ?? 1,
    options.scale ?? "demo",
    options.anchorMs ?? startOfUtcDay(clock()),
    reality.v2Share,
  );
  flow.makerCrossShare = makerCrossShare(reality);
  const setReality = (input: unknown): Reality => {
    const next = parseReality(input, reality);
    if (next.v2Share !== reality.v2Share) throw new Error("v2Share is fixed when the world is built (startSimulator option)");
    reality = next;
    flow.makerCrossShare = makerCrossShare(reality);
    return reality;
  };
  const faults = new FaultRegistry();
  const throttle = new Throttle();
  const counters = new Counters();
  const context = (): SimContext => ({ world, prices, flow, nowMs: clock(), reality });
  const burst = (count: number, options: { atSec?: number; spreadSec?: number; market?: number; sweep?: boolean } = {}) => {
    const spreadSec = Math.max(1, options.spreadSec ?? 30);
    const atSec = options.atSec ?? Math.floor(clock() / 1000) - spreadSec;
    flow.addBurst({ count, spreadSec, atSec, market: options.market, sweep: options.sweep });
  };
  const cdn = new CdnCache();
  const pending = new Set<NodeJS.Timeout>();
  const hanging = new Set<http.ServerResponse>();

  const send = (res: http.ServerResponse, response: SimResponse) => {
    const text = typeof response.body === "string" && response.headers?.["content-type"] ? response.body : JSON.stringify(response.body);
    res.writeHead(response.status, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(text),
      ...response.headers,
    });
    res.end(text);
  };

  const route = (api: string, req: SimRequest): SimResponse => {
    const ctx = context();
    if (api === "gamma") return handleGamma(ctx, req);
    if (api === "data") return handleWalletData(ctx, req) ?? handleData(ctx, req);
    return handleClob(ctx, req);
  };

  const websockets = startWebsockets(context);

  const control = (method: string, path: string, body: unknown): SimResponse => {
    const wsAnswer = websockets.control(method, path, body);
    if (wsAnswer) return wsAnswer;
    if (path === "/faults" && method === "POST") {
      try {
        const fault = parseFault(body);
        faults.set(fault);
        return { status: 200, body: { ok: true, faults: faults.list() } };
      } catch (error) {
        return { status: 400, body: { error: (error as Error).message } };
      }
    }
    if (path === "/faults" && method === "DELETE") {
      faults.clear();
      return { status: 200, body: { ok: true, faults: [] } };
    }
    if (path === "/faults" && method === "GET") return { status: 200, body: { faults: faults.list() } };
    if (path === "/counters" && method === "GET") return { status: 200, body: counters.snapshot() };
    if (path === "/throttle" && method === "GET") return { status: 200, body: throttle.stats() };
    if ((path === "/counters/reset" && method === "POST") || (path === "/counters" && method === "DELETE")) {
      counters.reset();
      throttle.reset();
      return { status: 200, body: { ok: true } };
    }
    if (path === "/world" && method === "GET") return { status: 200, body: summarize(context(), buildMs) };
    if (path === "/reality" && method === "GET") return { status: 200, body: reality };
    if (path === "/burst" && method === "POST") {
      const b = (body ?? {}) as { count?: unknown; at_s?: unknown; spread_s?: unknown; sweep?: unknown };
      if (typeof b.count !== "number" || !Number.isInteger(b.count) || b.count < 1 || b.count > 1_000_000)
        return { status: 400, body: { error: "count must be an integer in [1, 1000000]" } };
      burst(b.count, {
        atSec: typeof b.at_s === "number" ? b.at_s : undefined,
        spreadSec: typeof b.spread_s === "number" ? b.spread_s : undefined,
        sweep: b.sweep === true,
      });
      return { status: 200, body: { ok: true } };
    }
    if (path === "/resolve" && method === "POST") {
      // A test load: an open market resolves now (Gamma shows it closed with its payout; custom-feature sockets hear
      // `market_resolved` within a second).
      const id = (body as { market?: unknown } | null)?.market;
      const market = world.markets.find((m) => m.id === id);
      const nowSec = Math.floor(clock() / 1000);
      if (!market) return { status: 404, body: { error: `no market with id ${String(id)}` } };
      if (market.closedSec <= nowSec) return { status: 400, body: { error: `market ${market.id} is closed already` } };
      market.winner = prices.quote(market, 0, nowSec).bid >= 0.5 ? 0 : 1;
      market.closed = true;
      market.closedMs = (nowSec + 1) * 1000;
      market.closedSec = nowSec + 1;
      return { status: 200, body: { ok: true, winner: market.outcomes[market.winner], closed_s: market.closedSec } };
    }
    if (path === "/reality" && method === "POST") {
      try {
        return { status: 200, body: setReality(body) };
      } catch (error) {
        return { status: 400, body: { error: (error as Error).message } };
      }
    }
    if (path === "/health" && method === "GET") return { status: 200, body: { ok: true } };
    return { status: 404, body: { error: `unknown control endpoint ${method} /__sim${path}` } };
  };

  const readBody = (req: http.IncomingMessage): Promise<{ ok: true; value: unknown } | { ok: false; status: number }> =>
    new Promise((resolve) => {
      if (req.method === "GET" || req.method === "HEAD" || req.method === "DELETE") {
        req.resume();
        req.on("end", () => resolve({ ok: true, value: undefined }));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      req.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      });
      req.on("end", () => {
        if (size > MAX_BODY_BYTES) return resolve({ ok: false, status: 413 });
        const text = Buffer.concat(chunks).toString("utf8");
        if (!text.trim()) return resolve({ ok: true, value: undefined });
        try {
          resolve({ ok: true, value: JSON.parse(text) });
        } catch {
          resolve({ ok: false, status: 400 });
        }
      });
      req.on("error", () => resolve({ ok: false, status: 400 }));
    });

  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", "http://sim.local");
      const method = req.method ?? "GET";
      const body = await readBody(req);
      if (url.pathname.startsWith("/__sim/")) {
        if (!body.ok) return send(res, { status: body.status, body: { error: "invalid JSON body" } });
        return send(res, control(method, url.pathname.slice("/__sim".length), body.value));
      }
      const match = /^\/(gamma|data|clob)(\/.*)?$/.exec(url.pathname);
      if (!match) return send(res, { status: 404, body: { error: "not found: use /gamma, /data or /clob" } });
      const api = match[1];
      const path = match[2] ?? "/";
      counters.hit(`/${api}${path}`);
      if (!body.ok) return send(res, { status: body.status, body: { error: "Invalid payload" } });
      const simReq: SimRequest = { method, path, query: url.searchParams, body: body.value };

      if (reality.rateLimits) {
        const admitted = throttle.admit(api, path, Date.now());
        if ("retryAfterS" in admitted) {
          return send(res, { status: 429, body: { error: "Too Many Requests" }, headers: { "Retry-After": String(admitted.retryAfterS) } });
        }
        if (admitted.delayMs > 0) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(() => {
              pending.delete(timer);
              resolve();
            }, admitted.delayMs);
            pending.add(timer);
          });
          if (res.destroyed) return;
        }
      }
      const fault = faults.take(api, path);
      const respondFresh = () => {
        try {
          return route(api, simReq);
        } catch (error) {
          process.stderr.write(`[polymarket-sim] ${method} ${url.pathname}${url.search}: ${(error as Error).stack}\n`);
          return { status: 500, body: { error: "internal error" } };
        }
      };
      const cdnAge = api === "data" && reality.cdnCache ? cdnMaxAgeS(path) : null;
      const respond = () => (cdnAge !== null ? cdn.serve(`${url.pathname}${url.search}`, cdnAge, clock(), respondFresh) : respondFresh());
      if (!fault) return send(res, respond());
      switch (fault.mode) {
        case "latency": {
          const timer = setTimeout(() => {
            pending.delete(timer);
            if (!res.destroyed) send(res, respond());
          }, fault.latency_ms ?? 1000);
          pending.add(timer);
          return;
        }
        case "error":
          return send(res, {
            status: fault.status ?? 500,
            body: api === "gamma" ? { type: "internal error", error: "simulated upstream error" } : { error: "simulated upstream error" },
          });
        case "rate_limit":
          return send(res, {
            status: 429,
            body: { error: "Too Many Requests" },
            headers: { "Retry-After": String(fault.retry_after_s ?? 1) },
          });
        case "malformed":
          return send(res, { status: 200, body: MALFORMED_BODY, headers: { "content-type": "application/json; charset=utf-8" } });
        case "truncated": {
          // Announce the full length, send half, then drop the connection: the client sees a body that ends early.
          const full = JSON.stringify(respond().body);
          const bytes = Buffer.from(full);
          res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": bytes.length });
          res.write(bytes.subarray(0, Math.max(1, Math.floor(bytes.length / 2))), () => res.socket?.destroy());
          return;
        }
        case "cloudflare": {
          // Cloudflare's own error page in front of the origin: 520 unknown error, 521 down, 522 connection timed
          // out, 523 unreachable, 524 timeout (developers.cloudflare.com/support/troubleshooting/http-status-codes/
          // cloudflare-5xx-errors), served as HTML, not the API's JSON.
          const status = fault.status && fault.status >= 520 && fault.status <= 524 ? fault.status : 522;
          return send(res, {
            status,
            body: `<!DOCTYPE html><html><head><title>${status}: Connection timed out</title></head><body>cloudflare</body></html>`,
            headers: { "content-type": "text/html; charset=UTF-8" },
          });
        }
        case "hang":
          // Never answer; close() destroys the socket.
          hanging.add(res);
          res.on("close", () => hanging.delete(res));
          return;
        default:
          return send(res, respond());
      }
    })().catch((error: unknown) => {
      process.stderr.write(`[polymarket-sim] ${(error as Error).stack}\n`);
      if (!res.headersSent) send(res, { status: 500, body: { error: "internal error" } });
    });
  });
  server.keepAliveTimeout = 5_000;
  server.on("upgrade", (req, socket, head) => {
    if (!websockets.handleUpgrade(req, socket, head)) socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  let closed: Promise<void> | null = null;

  return {
    url,
    gammaUrl: `${url}/gamma`,
    dataUrl: `${url}/data`,
    clobUrl: `${url}/clob`,
    env: { POLYMARKET_GAMMA_URL: `${url}/gamma`, POLYMARKET_DATA_URL: `${url}/data`, POLYMARKET_CLOB_URL: `${url}/clob` },
    clobWsUrl: `${url.replace(/^http/, "ws")}/ws/market`,
    rtdsUrl: `${url.replace(/^http/, "ws")}/rtds`,
    world,
    prices,
    flow,
    context,
    summary: () => summarize(context(), buildMs),
    reality: () => reality,
    burst,
    setReality: (next) => setReality(next),
    setFault: (fault) => faults.set(parseFault(fault)),
    clearFaults: () => faults.clear(),
    faults: () => faults.list(),
    counters: () => counters.snapshot(),
    resetCounters: () => {
      counters.reset();
      throttle.reset();
    },
    throttle: () => throttle.stats(),
    close: () => {
      closed ??= new Promise<void>((resolve) => {
        websockets.close();
        for (const timer of pending) clearTimeout(timer);
        pending.clear();
        for (const res of hanging) res.socket?.destroy();
        hanging.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}
