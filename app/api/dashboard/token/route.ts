import { dashboardTokenEndpoint, DASHBOARD_TOKEN_PER_IP_PER_MINUTE } from "@/lib/api/endpoints/dashboard";
import { ApiError } from "@/lib/api/errors";
import { withApi } from "@/lib/api/with-api";
import { clientAddress } from "@/lib/auth/client-address";
import { mintDashboardToken } from "@/lib/auth/dashboard";
import { dashboardSlice } from "@/lib/auth/dashboard-scope";
import { consume, retryAfterSeconds } from "@/lib/auth/ratelimit";
import { env } from "@/lib/env";

export const dynamic = "force-dynamic";

// GET /api/dashboard/token – a short-lived JWT for the public dashboard's browsers (no key ever reaches them)
export const GET = withApi(dashboardTokenEndpoint, async ({ request, headers }) => {
  headers.set("Cache-Control", "no-store");
  // Tokens are free to get, so each dashboard slice (an address; an IPv6 network per DASHBOARD_IPV6_PREFIX) gets a
  // budget, and each token is bound to the address it was minted for (lib/auth/dashboard-scope.ts).
  const address = clientAddress(request.headers);
  const limit = await consume(`dashboard-token:${dashboardSlice(address, env.DASHBOARD_IPV6_PREFIX)}`, DASHBOARD_TOKEN_PER_IP_PER_MINUTE);
  if (!limit.success) {
    const retryAfter = retryAfterSeconds(limit.reset);
    throw new ApiError("rate_limited", `Too many dashboard tokens requested from this address; retry in ${retryAfter} s.`, {
      headers: { "Retry-After": String(retryAfter), "Cache-Control": "no-store" },
    });
  }
  return mintDashboardToken(address);
});
