import { categoriesEndpoint } from "@/lib/api/endpoints/predmkt-sampled";
import { withApi } from "@/lib/api/with-api";
import { perPassAnswer } from "@/lib/predmkt/pass-clock";
import { listCategories } from "@/lib/predmkt/events";

export const dynamic = "force-dynamic";

// GET /api/predmkt/categories – categories of open events with counts, volume and liquidity
export const GET = withApi(categoriesEndpoint, () => perPassAnswer(listCategories));
