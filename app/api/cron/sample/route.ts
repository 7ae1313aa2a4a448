import { createHash, timingSafeEqual } from "node:crypto";
import { cronSampleEndpoint } from "@/lib/api/endpoints/predmkt-sampled";
import { ApiError } from "@/lib/api/errors";
import { withApi } from "@/lib/api/with-api";
import { env } from "@/lib/env";
import { runSamplerPass } from "@/lib/sampler";

export const dynamic = "force-dynamic";
// A pass over the full upstream listing can take a while; Vercel's default function limit would cut it short.
export const maxDuration = 300;

// Hashing both sides first gives equal-length buffers, so neither the comparison nor its length check leaks
// anything about the secret.
function secretMatches(given: string): boolean {
  const digest = (v: string) => createHash("sha256").update(v).digest();
  return timingSafeEqual(digest(given), digest(env.CRON_SECRET));
}

// GET /api/cron/sample – runs one sampler pass (Vercel cron; Authorization: Bearer $CRON_SECRET)
export const GET = withApi(cronSampleEndpoint, async ({ request }) => {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  if (!match) throw new ApiError("missing_credentials", "This route needs Authorization: Bearer <CRON_SECRET>.");
  if (!secretMatches(match[1])) throw new ApiError("invalid_token", "The cron secret is not valid.");
  const result = await runSamplerPass({ trigger: "cron" });
  return { data: result };
});
