import { z } from "zod";
import { KEY_REQUESTS_PER_ADDRESS_PER_MINUTE } from "@/lib/keys/limits";
import { defineEndpoint } from "../contract";

const TOKEN_TTL = { min: 60, max: 3600, default: 900 } as const;

/** The OAuth token-response shape, shared by the key exchange and the dashboard's token route. */
export const TokenResponseSchema = z
  .object({
    token: z.string(),
    token_type: z.literal("Bearer"),
    expires_in: z.number().int().describe("Seconds until the token expires"),
    expires_at: z.string().describe("ISO 8601 UTC"),
  })
  .meta({ id: "TokenResponse" });

export const tokenEndpoint = defineEndpoint({
  method: "POST",
  path: "/api/auth/token",
  summary: "Exchange an API key for a short-lived JWT",
  description:
    "For browser widgets and WebSocket clients: send the API key (Authorization: Bearer, or `api_key` in the query " +
    "or JSON body) and receive an HS256 JWT to pass as `?token=` (or as a Bearer value). The token's requests count " +
    "against the parent key's rate limit, and revoking the key invalidates its tokens. The response follows the " +
    "OAuth token-response convention (flat, not wrapped in {data, meta}).",
  tags: ["Authentication"],
  access: "key",
  body: z
    .object({
      // A JSON number: a string ("900", "1e3") is refused like any other non-integer (the contract fuzzer found "1e3").
      ttl_seconds: z.number().int().min(TOKEN_TTL.min).max(TOKEN_TTL.max).default(TOKEN_TTL.default).describe("Token lifetime in seconds"),
      api_key: z.string().optional().describe("Alternative to the Authorization header"),
    })
    .loose(),
  response: TokenResponseSchema,
  errors: [413],
});

const USE_CASE_MIN_LENGTH = 20;

// A form sends digits as text, JSON sends a number; nothing else (true, "", "1e3") is read as a count.
const positiveCount = (what: string, max: number) =>
  z.preprocess(
    (value) => (typeof value === "string" && /^\s*\d{1,12}\s*$/.test(value) ? Number(value) : value),
    z
      .number({ error: `must be a whole number of ${what}` })
      .int(`must be a whole number of ${what}`)
      .min(1, `must be at least 1 ${what.replace(/s$/, "")}`)
      .max(max, `must be at most ${max.toLocaleString("en-US")}`),
  );

const KeyRequestBodySchema = z.object({
  name: z.string({ error: "is required" }).trim().min(2, "must name you or your organisation").max(200, "must be at most 200 characters"),
  email: z.string({ error: "is required" }).trim().max(254, "must be at most 254 characters").pipe(z.email("must be an email address")),
  use_case: z
    .string({ error: "is required" })
    .trim()
    .min(USE_CASE_MIN_LENGTH, `must describe the use case in at least ${USE_CASE_MIN_LENGTH} characters`)
    .max(2000, "must be at most 2000 characters"),
  requests_per_minute: positiveCount("requests per minute", 1_000_000),
  requests_per_day: positiveCount("requests per day", 1_000_000_000),
  desired_tier: z.enum(["starter", "pro", "enterprise"], { error: "must be starter, pro or enterprise" }),
  website: z.string().max(500).optional().describe("Leave empty: a field people do not see, filled only by bots"),
});

const KeyRequestResponseSchema = z
  .object({
    reference: z.string().describe("`kr_…`: quote it when contacting the operator"),
    status: z.literal("pending"),
    next_steps: z.string(),
  })
  .meta({ id: "KeyRequestReceipt" });

export const keyRequestEndpoint = defineEndpoint({
  method: "POST",
  path: "/api/auth/key-requests",
  summary: "Request an API key",
  description:
    "No key needed. Files a request for the operator (keys are issued by hand, on request): who you are, " +
    "the use case and the expected volume. Accepts `application/x-www-form-urlencoded` (the dashboard's /api-access " +
    "page) or JSON. Answers `201` with a `kr_…` reference; the operator reviews the queue and sends the key to the " +
    "email given. A browser form post without JavaScript is answered with a `303` back to the page. Each invalid " +
    "field is listed in the problem's `errors`. Limited to " +
    `${KEY_REQUESTS_PER_ADDRESS_PER_MINUTE} requests per minute per client address.`,
  tags: ["Authentication"],
  access: "public",
  successStatus: 201,
  bodyMediaTypes: ["application/x-www-form-urlencoded"],
  body: KeyRequestBodySchema,
  response: KeyRequestResponseSchema,
  errors: [413, 429],
});

const ByStatusSchema = z
  .object({ "2xx": z.number().int(), "4xx": z.number().int(), "429": z.number().int(), "5xx": z.number().int() })
  .describe("Requests by status class; 429s are the requests the rate limit refused");

const KeyUsageSchema = z
  .object({
    data: z.object({
      key: z.object({
        id: z.string(),
        prefix: z.string().describe("The key's display prefix (`pmk_` + 8 characters)"),
        tier: z.enum(["starter", "pro", "enterprise"]),
        expires_at: z.string().nullable().describe("ISO 8601 UTC; null when the key does not expire"),
        rotated_until: z.string().nullable().describe("Set when the key was rotated: it stops working at this time (ISO 8601 UTC)"),
      }),
      limit: z.object({ requests_per_minute: z.number().int(), window_s: z.number().int() }),
      current_minute: z.object({
        start: z.string().describe("Start of this UTC minute"),
        requests: z.number().int().describe("Requests so far this minute, this one included only once it is answered"),
        rate_limited: z.number().int(),
      }),
      days: z
        .array(
          z.object({
            date: z.string().describe("UTC day, YYYY-MM-DD"),
            requests: z.number().int(),
            rate_limited: z.number().int(),
            operations: z.array(
              z.object({
                operation: z.string().describe("Method and path template, e.g. `GET /api/predmkt/events/{slug}`"),
                requests: z.number().int(),
                by_status: ByStatusSchema,
              }),
            ),
          }),
        )
        .describe("The last 30 UTC days with any requests, newest first"),
    }),
    meta: z.object({ as_of: z.string().describe("ISO 8601 UTC time of the answer") }),
  })
  .meta({ id: "KeyUsage" });

export const usageEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/auth/usage",
  summary: "Your key's tier, limit and usage",
  description:
    "The key behind the credential (an API key, or a token's parent key): its tier and rate limit, requests in " +
    "the current minute, and per-day totals for the last 30 days by operation and status class (2xx, 4xx, 429, " +
    "5xx). Counts are kept per minute and flushed to storage in batches; this minute's count includes requests not " +
    "yet flushed. This request counts against your rate limit like any other.",
  tags: ["Authentication"],
  access: "key",
  response: KeyUsageSchema,
});

export const endpoints = [tokenEndpoint, keyRequestEndpoint, usageEndpoint];
