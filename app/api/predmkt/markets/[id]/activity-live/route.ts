import { marketActivityLive } from "@/lib/api/endpoints/predmkt-live";
import { withApi } from "@/lib/api/with-api";
import { getMarketActivityLive, liveAnswer } from "@/lib/predmkt/live";

export const dynamic = "force-dynamic";

export const GET = withApi(marketActivityLive, async ({ params, query }) => liveAnswer(await getMarketActivityLive(params.id, query)));
