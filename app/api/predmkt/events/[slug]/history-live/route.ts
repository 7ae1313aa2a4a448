import { eventHistoryLive } from "@/lib/api/endpoints/predmkt-live";
import { withApi } from "@/lib/api/with-api";
import { getEventHistoryLive, liveAnswer } from "@/lib/predmkt/live";

export const dynamic = "force-dynamic";

export const GET = withApi(eventHistoryLive, async ({ params, query }) => liveAnswer(await getEventHistoryLive(params.slug, query)));
