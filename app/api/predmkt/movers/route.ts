import { moversEndpoint } from "@/lib/api/endpoints/predmkt-sampled";
import { withApi } from "@/lib/api/with-api";
import { movers } from "@/lib/predmkt/movers";

export const dynamic = "force-dynamic";

// GET /api/predmkt/movers – biggest probability moves across open markets
export const GET = withApi(moversEndpoint, async ({ query }) => movers(query.window, query.limit));
