import { pingEndpoint } from "@/lib/api/endpoints/system";
import { withApi } from "@/lib/api/with-api";

export const dynamic = "force-dynamic";

// GET /api/ping – liveness, no I/O (also the baseline route of the gateway benchmark)
export const GET = withApi(pingEndpoint, async ({ headers }) => {
  headers.set("Cache-Control", "no-store");
  return { ok: true as const };
});
