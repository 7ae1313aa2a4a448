import { tradesEndpoint } from "@/lib/api/endpoints/predmkt-sampled";
import { withApi } from "@/lib/api/with-api";
import { listTrades } from "@/lib/predmkt/trades";

export const dynamic = "force-dynamic";

// GET /api/predmkt/trades – the sampled global trade tape, newest first
export const GET = withApi(tradesEndpoint, async ({ query }) => listTrades(query.min_usd, query.limit));
