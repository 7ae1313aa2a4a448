import { abnormalEndpoint } from "@/lib/api/endpoints/predmkt-sampled";
import { abnormalAnswer } from "@/lib/api/sampled-answers";
import { withApi } from "@/lib/api/with-api";

export const dynamic = "force-dynamic";

// GET /api/predmkt/abnormal – trades unusually large for their own market (the handler is shared with the answers built after each pass)
export const GET = withApi(abnormalEndpoint, abnormalAnswer);
