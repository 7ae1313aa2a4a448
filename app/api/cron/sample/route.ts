import { cronSampleEndpoint } from "@/lib/api/endpoints/predmkt-sampled";
import { requireCronSecret } from "@/lib/api/cron";
import { withApi } from "@/lib/api/with-api";
import { runSamplerPassNow } from "@/lib/server/jobs";

export const dynamic = "force-dynamic";
// A pass over the full upstream listing can take a while; Vercel's default function limit would cut it short.
export const maxDuration = 300;

// GET /api/cron/sample – runs one sampler pass with its after-pass listeners (Vercel cron; Authorization: Bearer
// $CRON_SECRET): the instance that ran the pass computes the aggregates for every reader.
export const GET = withApi(cronSampleEndpoint, async ({ request }) => {
  requireCronSecret(request);
  return { data: await runSamplerPassNow("cron") };
});
