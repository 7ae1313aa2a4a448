import { HEALTH_PER_ADDRESS_PER_MINUTE, healthEndpoint } from "@/lib/api/endpoints/system";
import { ApiError } from "@/lib/api/errors";
import { withApi } from "@/lib/api/with-api";
import { clientAddress } from "@/lib/auth/client-address";
import { consume, retryAfterSeconds } from "@/lib/auth/ratelimit";
import { healthReport } from "@/lib/server/health";

export const dynamic = "force-dynamic";

// GET /api/health – database and rate-limit store reachability, version (no key needed). Public, so it is budgeted
// per client address and its report is shared for a few seconds (lib/server/health.ts).
export const GET = withApi(healthEndpoint, async ({ request, headers }) => {
  headers.set("Cache-Control", "no-store");
  const limit = await consume(`health:${clientAddress(request.headers)}`, HEALTH_PER_ADDRESS_PER_MINUTE);
  if (!limit.success) {
    const retryAfter = retryAfterSeconds(limit.reset);
    throw new ApiError("rate_limited", `Too many health checks from this address; retry in ${retryAfter} s.`, {
      headers: { "Retry-After": String(retryAfter), "Cache-Control": "no-store" },
    });
  }
  const report = await healthReport();
  if (report.status === "down") {
    headers.set("Content-Type", "application/json");
    return new Response(JSON.stringify(report), { status: 503, headers });
  }
  return report;
});
