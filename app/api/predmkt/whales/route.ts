import { whalesEndpoint } from "@/lib/api/endpoints/predmkt-sampled";
import { whalesAnswer } from "@/lib/api/sampled-answers";
import { withApi } from "@/lib/api/with-api";

export const dynamic = "force-dynamic";

// GET /api/predmkt/whales – largest open positions with entry price and holder identity (the handler is shared with the answers built after each pass)
export const GET = withApi(whalesEndpoint, whalesAnswer);
