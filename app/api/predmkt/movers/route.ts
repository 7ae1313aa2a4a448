import { moversEndpoint } from "@/lib/api/endpoints/predmkt-sampled";
import { moversAnswer } from "@/lib/api/sampled-answers";
import { withApi } from "@/lib/api/with-api";

export const dynamic = "force-dynamic";

// GET /api/predmkt/movers – biggest probability moves across open markets (the handler is shared with the answers built after each pass)
export const GET = withApi(moversEndpoint, moversAnswer);
