import { statsEndpoint } from "@/lib/api/endpoints/predmkt-sampled";
import { statsAnswer } from "@/lib/api/sampled-answers";
import { withApi } from "@/lib/api/with-api";

export const dynamic = "force-dynamic";

// GET /api/predmkt/stats – global snapshot of open events and markets (the handler is shared with the answers built after each pass)
export const GET = withApi(statsEndpoint, statsAnswer);
