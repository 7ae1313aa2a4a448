import { dashboardTokenEndpoint, DASHBOARD_TOKEN_PER_IP_PER_MINUTE } from "@/lib/api/endpoints/dashboard";
import { ApiError } from "@/lib/api/errors";
import { withApi } from "@/lib/api/with-api";
import { clientAddress } from "@/lib/auth/client-address";
import { mintDashboardToken } from "@/lib/auth/dashboard";
import { consume, retryAfterSeconds } from "@/lib/auth/ratelimit";

export const dynamic = "force-dynamic";

// GET /api/dashboard/token – a short-lived JWT for the public dashboard's browsers (no key ever reaches them)
export const GET = withApi(dashboardTokenEndpoint, async ({ request, headers }) => {
  headers.set("Cache-Control", "no-store");
  // Tokens are free to get, so each address gets a budget: a scraper cannot mint its way past the per-key limit
  // faster than the dashboard itself would.
  const limit = await consume(`dashboard-token:${clientAddress(request.headers)}`, DASHBOARD_TOKEN_PER_IP_PER_MINUTE);
  if (!limit.success) {
    const retryAfter = retryAfterSeconds(limit.reset);
    throw new ApiError("rate_limited", `Too many dashboard tokens requested from this address; retry in ${retryAfter} s.`, {
      headers: { "Retry-After": String(retryAfter), "Cache-Control": "no-store" },
    });
  }
  return mintDashboardToken();
});
