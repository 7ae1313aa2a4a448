import { marketActivityLive } from "@/lib/api/endpoints/predmkt-live";
import { withApi } from "@/lib/api/with-api";
import { getMarketActivityLive, respondLive } from "@/lib/upstream/live";

export const dynamic = "force-dynamic";

export const GET = withApi(marketActivityLive, async ({ params, query, headers }) =>
  respondLive(headers, await getMarketActivityLive(params.id, query)),
);
