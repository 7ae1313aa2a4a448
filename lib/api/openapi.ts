// Builds the OpenAPI 3.1 document from the endpoint contracts, the same zod schemas withApi validates with.
import { z } from "zod";
import type { EndpointContract } from "./contract";
import { allEndpoints } from "./endpoints";
import { isListEndpoint } from "./csv";
import { ERROR_CODES, ProblemSchema } from "./errors";

type Json = Record<string, unknown>;

const RATE_LIMIT_HEADERS: Record<string, { description: string; schema: Json }> = {
  "X-Api-Tier": { description: "Tier of the key that made the request (starter, pro, enterprise)", schema: { type: "string" } },
  "X-RateLimit-Limit": { description: "Requests allowed per sliding 60-second window", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Requests left in the current window", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "Unix time (seconds) at which the current window ends", schema: { type: "integer" } },
  "RateLimit-Policy": { description: 'IETF draft policy, e.g. `"apikey";q=300;w=60`', schema: { type: "string" } },
  RateLimit: { description: 'IETF draft state, e.g. `"apikey";r=299;t=42`', schema: { type: "string" } },
  "X-Request-Id": { description: "Identifier of this request, also in every error body", schema: { type: "string" } },
};

const TAGS = [
  { name: "Authentication", description: "Short-lived tokens for browsers and WebSocket clients, minted from an API key" },
  {
    name: "Events and markets",
    description: "Events, their markets and outcomes, categories and totals, as the service last sampled them",
  },
  { name: "Movers and large traders", description: "Probability moves, largest positions, the trade tape and abnormal trades" },
  { name: "Live", description: "Proxied from Polymarket in real time (`-live` paths), cached for 10–90 seconds" },
  { name: "Live stream", description: "Server-sent events of trades, price ticks and abnormal trades as they are stored" },
  { name: "History", description: "Price history at falling resolution from the service's own samples" },
  { name: "Oracle", description: "UMA's optimistic oracle and DVM: requests, disputes, voting rounds and stakers, read from the chains" },
  { name: "Alerts", description: "Webhook subscriptions: rule matches on the stored stream, signed and delivered at least once" },
  { name: "System", description: "Health, liveness, this document and the sampler's cron entry point" },
];

function convert(schema: z.ZodType, io: "input" | "output", components: Record<string, Json>): Json {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as Json;
  const defs = (json.$defs ?? {}) as Record<string, Json>;
  delete json.$defs;
  delete json.$schema;
  const rewrite = (value: Json): Json =>
    JSON.parse(
      JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/').replaceAll(',"additionalProperties":false', ""),
    ) as Json;
  for (const [name, def] of Object.entries(defs)) components[name] = rewrite(def);
  return rewrite(json);
}

function problemResponse(description: string) {
  return { description, content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } } };
}

function operation(contract: EndpointContract, components: Record<string, Json>): Json {
  const parameters: Json[] = [];
  for (const [location, schema] of [
    ["path", contract.params],
    ["query", contract.query],
  ] as const) {
    if (!schema) continue;
    for (const [name, field] of Object.entries(schema.shape)) {
      const fieldSchema = convert(field as z.ZodType, "input", components);
      const description = fieldSchema.description;
      delete fieldSchema.description;
      parameters.push({
        name,
        in: location,
        required: location === "path" || !(field as z.ZodType).safeParse(undefined).success,
        ...(description ? { description } : {}),
        schema: fieldSchema,
      });
    }
  }
  const csv = isListEndpoint(contract);
  if (csv) {
    parameters.push({
      name: "format",
      in: "query",
      required: false,
      description: "`csv` answers text/csv (same columns as the JSON items); `Accept: text/csv` does the same",
      schema: { type: "string", enum: ["json", "csv"] },
    });
  }
  const keyed = contract.access === "key";
  const headers = keyed ? Object.fromEntries(Object.keys(RATE_LIMIT_HEADERS).map((h) => [h, { $ref: `#/components/headers/${h}` }])) : {};
  const responses: Json = {
    [contract.successStatus ?? 200]:
      contract.successStatus === 204
        ? { description: "Done (no body)", headers }
        : {
            description: "Success",
            headers,
            content: {
              [contract.contentType ?? "application/json"]: { schema: convert(contract.response, "output", components) },
              ...(csv ? { "text/csv": { schema: { type: "string", description: "Header row, then one row per item of `data`" } } } : {}),
            },
          },
  };
  // Every operation can answer 400: parameters are strict (lib/api/strict-query.ts), so even one without parameters
  // refuses an unknown one.
  responses[400] = problemResponse(
    "Invalid parameter (a bad value, or one that is unknown, repeated, over 512 characters or has control characters): " +
      "the body names it in `errors[].parameter`",
  );
  if (keyed) {
    responses[401] = problemResponse("Missing, invalid or revoked credentials (`WWW-Authenticate: Bearer`)");
    responses[403] = problemResponse("A dashboard token used outside what the dashboard's pages ask for (`insufficient_scope`)");
    responses[429] = {
      ...problemResponse("Rate limit exceeded; retry after `Retry-After` seconds"),
      headers: { ...headers, "Retry-After": { description: "Seconds to wait", schema: { type: "integer", minimum: 1 } } },
    };
  }
  if (contract.params) responses[404] = problemResponse("Well-formed but unknown path identifier");
  for (const status of contract.errors ?? []) {
    const entry = Object.values(ERROR_CODES).find((e) => e.status === status);
    responses[status] = problemResponse(entry?.title ?? "Error");
  }
  responses[500] = problemResponse("Internal error (no details are leaked)");
  responses[503] = problemResponse("Our database or rate-limit store is unreachable");
  return {
    summary: contract.summary,
    ...(contract.description ? { description: contract.description } : {}),
    tags: contract.tags,
    operationId: `${contract.method.toLowerCase()}${contract.path.replace(/[^a-zA-Z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
    security: keyed ? [{ ApiKeyBearer: [] }, { ApiKeyQuery: [] }, { TokenQuery: [] }] : [],
    ...(parameters.length ? { parameters } : {}),
    ...(contract.body
      ? {
          requestBody: {
            required: false,
            content: Object.fromEntries(
              ["application/json", ...(contract.bodyMediaTypes ?? [])].map((type) => [
                type,
                { schema: convert(contract.body!, "input", components) },
              ]),
            ),
          },
        }
      : {}),
    responses,
  };
}

export function buildOpenApiDocument(endpoints: EndpointContract[] = allEndpoints, version = "0.1.0"): Json {
  const components: Record<string, Json> = {};
  // ProblemSchema carries `meta({id: "Problem"})`, so convert registers it under components.schemas.Problem and
  // returns a `$ref` to it: storing that return value over the registration made the schema a reference to itself.
  const problem = convert(ProblemSchema, "output", components);
  if (problem.$ref !== "#/components/schemas/Problem") components.Problem = problem;
  const paths: Record<string, Json> = {};
  for (const contract of endpoints) {
    paths[contract.path] ??= {};
    paths[contract.path][contract.method.toLowerCase()] = operation(contract, components);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Prediction-market analytics API",
      version,
      // The package is private and grants no licence (package.json has none); npm's word for that is UNLICENSED.
      license: { name: "UNLICENSED" },
      description:
        "Read-only JSON API over Polymarket events, markets, trades and price history, and over UMA's dispute " +
        "oracle. Endpoints whose path ends in `-live` proxy the upstream in real time (cached 10-90 s); the others " +
        "read history the service samples itself. Success bodies are `{data, meta}`; errors are RFC 9457 " +
        "problem+json with `code` and `request_id`. Every keyed response carries the rate-limit headers.",
    },
    servers: [{ url: "/" }],
    tags: TAGS,
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        ApiKeyBearer: { type: "http", scheme: "bearer", description: "API key (`pmk_...`) or JWT from /api/auth/token" },
        ApiKeyQuery: {
          type: "apiKey",
          in: "query",
          name: "api_key",
          description: "API key; the Authorization header wins if both are sent",
        },
        TokenQuery: { type: "apiKey", in: "query", name: "token", description: "Short-lived JWT from POST /api/auth/token" },
      },
      headers: RATE_LIMIT_HEADERS,
    },
  };
}
