import { tradesEndpoint } from "@/lib/api/endpoints/predmkt-sampled";
import { withApi } from "@/lib/api/with-api";
import { perPassAnswer } from "@/lib/predmkt/pass-clock";
import { listTrades } from "@/lib/predmkt/trades";

export const dynamic = "force-dynamic";

// GET /api/predmkt/trades – the sampled global trade tape, newest first
export const GET = withApi(tradesEndpoint, ({ query }) => perPassAnswer(() => listTrades(query.min_usd, query.limit)));
