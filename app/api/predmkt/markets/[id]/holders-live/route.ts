import { holdersLive } from "@/lib/api/endpoints/predmkt-live";
import { withApi } from "@/lib/api/with-api";
import { getHoldersLive, liveAnswer } from "@/lib/predmkt/live";

export const dynamic = "force-dynamic";

export const GET = withApi(holdersLive, async ({ params, query }) => liveAnswer(await getHoldersLive(params.id, query)));
