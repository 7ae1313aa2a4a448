import { ApiError } from "@/lib/api/errors";
import type { GatewayClient } from "./gateway";
import { signAccessToken, tokenResponse } from "./jwt";

export async function exchangeKeyForToken(client: GatewayClient, ttlSeconds: number) {
  // A token must not mint tokens: that would let a leaked token outlive its own expiry.
  if (client.via !== "api_key") {
    throw new ApiError("invalid_token", "Only an API key can be exchanged for a token, not another token.");
  }
  return tokenResponse(await signAccessToken(client.keyId, client.tier, ttlSeconds));
}
