import { statsEndpoint } from "@/lib/api/endpoints/predmkt-sampled";
import { withApi } from "@/lib/api/with-api";
import { perPassAnswer } from "@/lib/predmkt/pass-clock";
import { getStats } from "@/lib/predmkt/events";

export const dynamic = "force-dynamic";

// GET /api/predmkt/stats – global snapshot of open events and markets
export const GET = withApi(statsEndpoint, () => perPassAnswer(getStats));
