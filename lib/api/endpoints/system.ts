import { z } from "zod";
import { defineEndpoint } from "../contract";

export const healthEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/health",
  summary: "Service health",
  description: "No key needed. 200 when the database is reachable; 503 otherwise. Reports the rate-limit store too.",
  tags: ["System"],
  access: "public",
  response: z.object({
    status: z.enum(["ok", "degraded", "down"]),
    version: z.string(),
    time: z.string(),
    checks: z.object({
      database: z.object({ ok: z.boolean(), kind: z.enum(["pglite", "postgresql"]), latency_ms: z.number().nullable(), error: z.string().optional() }),
      rate_limit_store: z.object({ ok: z.boolean(), kind: z.enum(["memory", "upstash", "redis"]), latency_ms: z.number().nullable(), error: z.string().optional() }),
    }),
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
  description: "No key needed, no I/O: answers `{\"ok\": true}` as long as the process serves HTTP.",
  tags: ["System"],
  access: "public",
  response: z.object({ ok: z.literal(true) }),
});

export const endpoints = [healthEndpoint, pingEndpoint, openapiEndpoint];
