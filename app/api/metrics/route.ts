import { requireMetricsToken } from "@/lib/api/cron";
import { metricsEndpoint } from "@/lib/api/endpoints/system";
import { withApi } from "@/lib/api/with-api";
import { scrapeMetrics } from "@/lib/metrics/scrape";

export const dynamic = "force-dynamic";

// GET /api/metrics – Prometheus text format, behind METRICS_TOKEN (off when unset)
export const GET = withApi(metricsEndpoint, async ({ request, headers }) => {
  requireMetricsToken(request);
  const { contentType, body } = await scrapeMetrics();
  headers.set("Content-Type", contentType);
  headers.set("Cache-Control", "no-store");
  return new Response(body, { status: 200, headers });
});
