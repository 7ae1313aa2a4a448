import { liveEndpoint } from "@/lib/api/endpoints/predmkt-sampled";
import { withApi } from "@/lib/api/with-api";
import { perPassAnswer } from "@/lib/predmkt/pass-clock";
import { latestTicks } from "@/lib/predmkt/history";

export const dynamic = "force-dynamic";

// GET /api/predmkt/live – latest sampled price ticks, newest first
export const GET = withApi(liveEndpoint, ({ query }) => perPassAnswer(() => latestTicks(query.limit)));
