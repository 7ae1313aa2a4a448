import { requireCronSecret } from "@/lib/api/cron";
import { cronOracleEndpoint } from "@/lib/api/endpoints/oracle";
import { withApi } from "@/lib/api/with-api";
import { runOraclePassNow } from "@/lib/server/jobs";

export const dynamic = "force-dynamic";
// A backfill pass scans for up to its time budget and then builds the answers; Vercel's default limit would cut it.
export const maxDuration = 300;

// GET /api/cron/oracle – runs one oracle indexer pass and publishes its resolution transitions to the live stream
// (Vercel cron; Authorization: Bearer $CRON_SECRET)
export const GET = withApi(cronOracleEndpoint, async ({ request }) => {
  requireCronSecret(request);
  return { data: await runOraclePassNow() };
});
