import { holdersLive } from "@/lib/api/endpoints/predmkt-live";
import { withApi } from "@/lib/api/with-api";
import { getHoldersLive, respondLive } from "@/lib/upstream/live";

export const dynamic = "force-dynamic";

export const GET = withApi(holdersLive, async ({ params, query, headers }) => respondLive(headers, await getHoldersLive(params.id, query)));
