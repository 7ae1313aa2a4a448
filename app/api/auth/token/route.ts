import { tokenEndpoint } from "@/lib/api/endpoints/auth";
import { exchangeKeyForToken } from "@/lib/auth/token-exchange";
import { withApi } from "@/lib/api/with-api";

export const dynamic = "force-dynamic";

// POST /api/auth/token – exchange an API key for a short-lived JWT
export const POST = withApi(tokenEndpoint, async ({ client, body, headers }) => {
  headers.set("Cache-Control", "no-store");
  return exchangeKeyForToken(client, body.ttl_seconds);
});
