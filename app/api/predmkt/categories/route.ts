import { categoriesEndpoint } from "@/lib/api/endpoints/predmkt-sampled";
import { categoriesAnswer } from "@/lib/api/sampled-answers";
import { withApi } from "@/lib/api/with-api";

export const dynamic = "force-dynamic";

// GET /api/predmkt/categories – categories of open events with counts, volume and liquidity (the handler is shared with the answers built after each pass)
export const GET = withApi(categoriesEndpoint, categoriesAnswer);
