// Prometheus metrics (prom-client) a self-hoster scrapes from /api/metrics (docs/observability.md). One registry per
// process, on globalThis because Next bundles the route handlers, the proxy and the server's loops separately, each
// with its own copy of this module. Recording is a counter increment: nothing here touches the network or the database.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

type CacheLayer = "upstream" | "answer" | "replay" | "join";
type CacheOutcome = "hit" | "miss" | "stale";
/** How one upstream attempt ended: a body, an answer without one (404/401/403), a retryable failure, or a fatal one. */
type UpstreamOutcome = "ok" | "status" | "retryable" | "fatal";

interface Metrics {
  registry: Registry;
  requests: Counter<"route" | "method" | "status">;
  requestSeconds: Histogram<"route" | "method" | "status">;
  upstreamRequests: Counter<"host" | "outcome">;
  upstreamSeconds: Histogram<"host">;
  rpcRequests: Counter<"chain" | "method">;
  cacheLookups: Counter<"layer" | "outcome">;
  samplerPasses: Counter<"status">;
  samplerPassSeconds: Histogram<"status">;
  samplerLagSeconds: Gauge;
  oracleIndexLagSeconds: Gauge;
  alerts: Counter<"outcome" | "event_type">;
  alertLatencySeconds: Histogram<"event_type">;
  alertQueueDepth: Gauge;
  alertQueueOldestSeconds: Gauge;
  alertQueueDead: Gauge;
  feedMessages: Counter<"feed" | "type" | "outcome">;
  workerSockets: Gauge<"feed">;
  workerTokens: Gauge;
  workerSocketCloses: Counter<"feed" | "code">;
}

const globalForMetrics = globalThis as unknown as { __predmktMetrics?: Metrics };

function create(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "predmkt_" });
  const registers = [registry];
  return {
    registry,
    requests: new Counter({
      name: "predmkt_http_requests_total",
      help: "API requests answered by route handlers, by route (the OpenAPI path), method and status",
      labelNames: ["route", "method", "status"],
      registers,
    }),
    requestSeconds: new Histogram({
      name: "predmkt_http_request_duration_seconds",
      help: "Time from a route handler's start to its response, by route, method and status",
      labelNames: ["route", "method", "status"],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    upstreamRequests: new Counter({
      name: "predmkt_upstream_requests_total",
      help: "HTTP attempts to Polymarket, by host role (gamma, data, clob) and outcome (ok, status, retryable, fatal)",
      labelNames: ["host", "outcome"],
      registers,
    }),
    upstreamSeconds: new Histogram({
      name: "predmkt_upstream_request_duration_seconds",
      help: "Duration of one HTTP attempt to Polymarket, by host role",
      labelNames: ["host"],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8],
      registers,
    }),
    rpcRequests: new Counter({
      name: "predmkt_rpc_requests_total",
      help: "JSON-RPC requests the oracle sent, by chain and method",
      labelNames: ["chain", "method"],
      registers,
    }),
    cacheLookups: new Counter({
      name: "predmkt_cache_lookups_total",
      help: "Cache lookups by layer (upstream bodies, built answers, answers replayed by the gateway, disputes joined to their markets) and outcome; hit ratio = hit / (hit + miss + stale)",
      labelNames: ["layer", "outcome"],
      registers,
    }),
    samplerPasses: new Counter({
      name: "predmkt_sampler_passes_total",
      help: "Sampler passes that ended in this process, by status",
      labelNames: ["status"],
      registers,
    }),
    samplerPassSeconds: new Histogram({
      name: "predmkt_sampler_pass_duration_seconds",
      help: "Duration of sampler passes that ended in this process, by status",
      labelNames: ["status"],
      buckets: [1, 2, 5, 10, 20, 30, 60, 120, 300],
      registers,
    }),
    samplerLagSeconds: new Gauge({
      name: "predmkt_sampler_lag_seconds",
      help: "Seconds since the last completed sampler pass (any process), read from the database at scrape; -1 when none ever ran",
      registers,
    }),
    oracleIndexLagSeconds: new Gauge({
      name: "predmkt_oracle_index_lag_seconds",
      help: "Seconds since the oracle indexer last built its answers (any process), read at scrape; -1 when it never ran",
      registers,
    }),
    alerts: new Counter({
      name: "predmkt_alerts_total",
      help: "Alerts by outcome (matched: a rule matched; queued: a delivery written; delivered, failed: attempts; dead: given up) and event type",
      labelNames: ["outcome", "event_type"],
      registers,
    }),
    alertLatencySeconds: new Histogram({
      name: "predmkt_alert_delivery_latency_seconds",
      help: "Time from a stream event being stored to its webhook being answered 2xx, by event type",
      labelNames: ["event_type"],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 3600],
      registers,
    }),
    alertQueueDepth: new Gauge({
      name: "predmkt_alert_queue_depth",
      help: "Alert deliveries not yet delivered (pending, or failed and awaiting a retry), all processes; read from the database at scrape",
      registers,
    }),
    alertQueueOldestSeconds: new Gauge({
      name: "predmkt_alert_queue_oldest_pending_age_seconds",
      help: "Age of the oldest undelivered alert delivery since it was queued, read at scrape; -1 when none",
      registers,
    }),
    alertQueueDead: new Gauge({
      name: "predmkt_alert_queue_dead",
      help: "Alert deliveries given up after their retries (dead), read at scrape",
      registers,
    }),
    feedMessages: new Counter({
      name: "predmkt_feed_messages_total",
      help: "Live feed messages the ingest worker read, by feed (rtds, market), message type and outcome (parsed, failed, ignored)",
      labelNames: ["feed", "type", "outcome"],
      registers,
    }),
    workerSockets: new Gauge({
      name: "predmkt_worker_sockets",
      help: "Upstream websockets the ingest worker holds open or is opening, by feed",
      labelNames: ["feed"],
      registers,
    }),
    workerTokens: new Gauge({
      name: "predmkt_worker_subscribed_tokens",
      help: "Market-channel tokens the ingest worker subscribes (capped by WORKER_MAX_TOKENS)",
      registers,
    }),
    workerSocketCloses: new Counter({
      name: "predmkt_worker_socket_closes_total",
      help: "Upstream websocket closes seen by the ingest worker, by feed and close code (1013 = slow consumer)",
      labelNames: ["feed", "code"],
      registers,
    }),
  };
}

export function metrics(): Metrics {
  globalForMetrics.__predmktMetrics ??= create();
  return globalForMetrics.__predmktMetrics;
}

export function observeRequest(route: string, method: string, status: number, seconds: number): void {
  const labels = { route, method, status: String(status) };
  metrics().requests.inc(labels);
  metrics().requestSeconds.observe(labels, seconds);
}

export function observeUpstream(host: string, outcome: UpstreamOutcome, seconds: number): void {
  metrics().upstreamRequests.inc({ host, outcome });
  metrics().upstreamSeconds.observe({ host }, seconds);
}

export function observeRpc(chain: string, method: string): void {
  metrics().rpcRequests.inc({ chain, method });
}

export function observeCache(layer: CacheLayer, outcome: CacheOutcome): void {
  metrics().cacheLookups.inc({ layer, outcome });
}

export function observeSamplerPass(status: string, seconds: number): void {
  metrics().samplerPasses.inc({ status });
  metrics().samplerPassSeconds.observe({ status }, seconds);
}

type AlertOutcome = "matched" | "queued" | "delivered" | "failed" | "dead";

/** Alerts (docs/alerts.md): one outcome of one delivery; `latencySeconds` (stored → answered) on delivered ones. */
export function observeAlert(outcome: AlertOutcome, eventType: string, latencySeconds?: number): void {
  metrics().alerts.inc({ outcome, event_type: eventType });
  if (latencySeconds !== undefined) metrics().alertLatencySeconds.observe({ event_type: eventType }, latencySeconds);
}
