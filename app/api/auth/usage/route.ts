import { usageEndpoint } from "@/lib/api/endpoints/auth";
import { withApi } from "@/lib/api/with-api";
import { usageForClient } from "@/lib/keys/usage-report";

export const dynamic = "force-dynamic";

// GET /api/auth/usage – the caller's key (a token's parent key): tier, limit, this minute, last 30 days by operation
export const GET = withApi(usageEndpoint, ({ client, headers }) => {
  headers.set("Cache-Control", "no-store");
  return usageForClient(client.keyId);
});
