import { eventHistoryLive } from "@/lib/api/endpoints/predmkt-live";
import { withApi } from "@/lib/api/with-api";
import { getEventHistoryLive, respondLive } from "@/lib/upstream/live";

export const dynamic = "force-dynamic";

export const GET = withApi(eventHistoryLive, async ({ params, query, headers }) =>
  respondLive(headers, await getEventHistoryLive(params.slug, query)),
);
