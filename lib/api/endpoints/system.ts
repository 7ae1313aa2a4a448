import { z } from "zod";
import { defineEndpoint } from "../contract";

/** Health checks per client address per minute (a monitor polls every few seconds; this is far above that). */
export const HEALTH_PER_ADDRESS_PER_MINUTE = 60;

export const healthEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/health",
  summary: "Service health",
  description:
    "No key needed. 200 when the database is reachable; 503 otherwise. Reports the rate-limit store too. The report " +
    "is computed at most once every `HEALTH_CACHE_S` (5 s) per instance (`time` says when) and each client address may ask " +
    `${HEALTH_PER_ADDRESS_PER_MINUTE} times a minute (429 with Retry-After beyond).`,
  tags: ["System"],
  access: "public",
  errors: [429, 503],
  response: z.object({
    status: z.enum(["ok", "degraded", "down"]),
    version: z.string(),
    time: z.string(),
    checks: z.object({
      database: z.object({
        ok: z.boolean(),
        kind: z.enum(["pglite", "postgresql"]),
        latency_ms: z.number().nullable(),
        error: z.string().optional(),
      }),
      rate_limit_store: z.object({
        ok: z.boolean(),
        kind: z.enum(["memory", "upstash", "redis"]),
        latency_ms: z.number().nullable(),
        error: z.string().optional(),
      }),
    }),
    upstream: z
      .object({
        last_pass: z
          .object({
            at: z.string(),
            dropped_items: z.number().int().describe("Upstream list items the last completed pass dropped as unparseable"),
          })
          .nullable(),
        dropped_items_since_start: z
          .record(z.string(), z.number().int())
          .describe("Unparseable upstream items dropped by this process, by kind (event, market, trade, holder, ...)"),
        tape_gaps: z
          .array(z.object({ from: z.string(), to: z.string(), estimated_count: z.number().int(), reason: z.string() }))
          .describe("Stretches of the last 49 h of the trade tape the sampler could not read"),
        live_feeds: z
          .object({
            at: z.string(),
            healthy: z.boolean(),
            feeds: z.array(
              z.object({
                feed: z.enum(["rtds", "market"]),
                healthy: z.boolean().describe("False when most of the feed's messages of the last minute failed to parse"),
                recent_messages: z.number().int(),
                recent_failed: z.number().int(),
                by_type: z.array(
                  z.object({
                    type: z.string(),
                    parsed: z.number().int(),
                    failed: z.number().int(),
                    ignored: z.number().int(),
                    last_failure: z.string().nullable(),
                  }),
                ),
              }),
            ),
          })
          .nullable()
          .optional()
          .describe(
            "The ingest worker's live feeds: messages parsed, failed and ignored per type (null when no worker reported in the last 2 minutes)",
          ),
      })
      .describe("Completeness of the sampled Polymarket data"),
    alerts: z
      .object({
        depth: z.number().int().describe("Alert deliveries not yet delivered (pending or failed, awaiting a retry)"),
        oldest_pending_age_s: z.number().int().nullable().describe("Age of the oldest undelivered one, seconds; null when none"),
        dead: z.number().int().describe("Deliveries given up after their retries"),
      })
      .nullable()
      .optional()
      .describe("The alert delivery queue (docs/alerts.md); null when it could not be read"),
  }),
});

export const openapiEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/openapi.json",
  summary: "This OpenAPI 3.1 document",
  tags: ["System"],
  access: "public",
  response: z.record(z.string(), z.unknown()),
});

export const pingEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/ping",
  summary: "Liveness probe",
  description: 'No key needed, no I/O: answers `{"ok": true}` as long as the process serves HTTP.',
  tags: ["System"],
  access: "public",
  response: z.object({ ok: z.literal(true) }),
});

export const metricsEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/metrics",
  summary: "Prometheus metrics",
  description:
    "Off unless the deployment sets `METRICS_TOKEN` (then a 404). Needs `Authorization: Bearer <METRICS_TOKEN>`; failed " +
    "attempts are limited per client address like the cron routes. Prometheus text format: API requests and latency by " +
    "route and status, upstream attempts by host and outcome, oracle RPC requests by chain and method, cache lookups by " +
    "layer and outcome, sampler pass durations, and the sampler and oracle-index lags.",
  tags: ["System"],
  access: "public",
  contentType: "text/plain; version=0.0.4; charset=utf-8",
  errors: [401, 404],
  response: z.string().describe("Prometheus text exposition format 0.0.4"),
});

export const endpoints = [healthEndpoint, pingEndpoint, openapiEndpoint, metricsEndpoint];
