import { alertApi } from "@/lib/alerts/api";
import { cronAlertsEndpoint } from "@/lib/api/endpoints/alerts";
import { requireCronSecret } from "@/lib/api/cron";
import { withApi } from "@/lib/api/with-api";

export const dynamic = "force-dynamic";
export const maxDuration = 60;

// GET /api/cron/alerts – match new stream events and deliver what is due (Vercel cron; Authorization: Bearer $CRON_SECRET)
export const GET = withApi(cronAlertsEndpoint, async ({ request }) => {
  requireCronSecret(request);
  return alertApi.cron();
});
