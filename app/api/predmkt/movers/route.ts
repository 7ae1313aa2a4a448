import { moversEndpoint } from "@/lib/api/endpoints/predmkt-sampled";
import { withApi } from "@/lib/api/with-api";
import { perPassAnswer } from "@/lib/predmkt/pass-clock";
import { movers } from "@/lib/predmkt/movers";

export const dynamic = "force-dynamic";

// GET /api/predmkt/movers – biggest probability moves across open markets
export const GET = withApi(moversEndpoint, ({ query }) =>
  perPassAnswer(() => movers(query.window, query.limit, query.exclude_resolution === "true")),
);
