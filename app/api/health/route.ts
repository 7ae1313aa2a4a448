import { healthEndpoint } from "@/lib/api/endpoints/system";
import { withApi } from "@/lib/api/with-api";
import { healthReport } from "@/lib/server/health";

export const dynamic = "force-dynamic";

// GET /api/health – database and rate-limit store reachability, version (no key needed)
export const GET = withApi(healthEndpoint, async ({ headers }) => {
  const report = await healthReport();
  headers.set("Cache-Control", "no-store");
  if (report.status === "down") {
    headers.set("Content-Type", "application/json");
    return new Response(JSON.stringify(report), { status: 503, headers });
  }
  return report;
});
