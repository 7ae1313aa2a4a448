import { cronSampleEndpoint } from "@/lib/api/endpoints/predmkt-sampled";
import { requireCronSecret } from "@/lib/api/cron";
import { withApi } from "@/lib/api/with-api";
import { runSamplerPass } from "@/lib/sampler";
// Registers the after-pass aggregates: the instance that ran the pass computes them for every reader.
import "@/lib/predmkt/after-pass";

export const dynamic = "force-dynamic";
// A pass over the full upstream listing can take a while; Vercel's default function limit would cut it short.
export const maxDuration = 300;

// GET /api/cron/sample – runs one sampler pass (Vercel cron; Authorization: Bearer $CRON_SECRET)
export const GET = withApi(cronSampleEndpoint, async ({ request }) => {
  requireCronSecret(request);
  const result = await runSamplerPass({ trigger: "cron" });
  return { data: result };
});
