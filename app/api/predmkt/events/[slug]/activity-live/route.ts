import { eventActivityLive } from "@/lib/api/endpoints/predmkt-live";
import { withApi } from "@/lib/api/with-api";
import { getEventActivityLive, liveAnswer } from "@/lib/predmkt/live";

export const dynamic = "force-dynamic";

export const GET = withApi(eventActivityLive, async ({ params, query }) => liveAnswer(await getEventActivityLive(params.slug, query)));
