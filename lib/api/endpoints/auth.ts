import { z } from "zod";
import { defineEndpoint } from "../contract";

export const TOKEN_TTL = { min: 60, max: 3600, default: 900 } as const;

/** The OAuth token-response shape, shared by the key exchange and the dashboard's token route. */
export const TokenResponseSchema = z
  .object({
    token: z.string(),
    token_type: z.literal("Bearer"),
    expires_in: z.number().int().describe("Seconds until the token expires"),
    expires_at: z.string().describe("ISO 8601 UTC"),
  })
  .meta({ id: "TokenResponse" });
export type TokenResponse = z.infer<typeof TokenResponseSchema>;

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
      ttl_seconds: z.coerce
        .number()
        .int()
        .min(TOKEN_TTL.min)
        .max(TOKEN_TTL.max)
        .default(TOKEN_TTL.default)
        .describe("Token lifetime in seconds"),
      api_key: z.string().optional().describe("Alternative to the Authorization header"),
    })
    .loose(),
  response: TokenResponseSchema,
  errors: [413],
});

export const endpoints = [tokenEndpoint];
