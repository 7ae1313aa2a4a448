import { historyEndpoint } from "@/lib/api/endpoints/predmkt-sampled";
import { withApi } from "@/lib/api/with-api";
import { perPassAnswer } from "@/lib/predmkt/pass-clock";
import { marketHistory } from "@/lib/predmkt/history";

export const dynamic = "force-dynamic";

// GET /api/predmkt/markets/{id}/history – sampled price history of one market
export const GET = withApi(historyEndpoint, ({ params, query }) => perPassAnswer(() => marketHistory(params.id, query.window)));
