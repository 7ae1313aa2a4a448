import { liveEndpoint } from "@/lib/api/endpoints/predmkt-sampled";
import { withApi } from "@/lib/api/with-api";
import { latestTicks } from "@/lib/predmkt/history";
import { ticksAnswer } from "@/lib/predmkt/ticks-clock";

export const dynamic = "force-dynamic";

// GET /api/predmkt/live – latest price ticks, newest first (sampled, and from the ingest worker as they happen)
export const GET = withApi(liveEndpoint, ({ query }) => ticksAnswer((newest) => latestTicks(query.limit, newest)));
