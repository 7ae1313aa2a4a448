import { abnormalEndpoint } from "@/lib/api/endpoints/predmkt-sampled";
import { withApi } from "@/lib/api/with-api";
import { perPassAnswer } from "@/lib/predmkt/pass-clock";
import { abnormalTrades } from "@/lib/predmkt/trades";

export const dynamic = "force-dynamic";

// GET /api/predmkt/abnormal – trades unusually large for their own market
export const GET = withApi(abnormalEndpoint, ({ query }) => perPassAnswer(() => abnormalTrades(query.limit)));
