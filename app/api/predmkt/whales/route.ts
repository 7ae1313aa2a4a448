import { whalesEndpoint } from "@/lib/api/endpoints/predmkt-sampled";
import { withApi } from "@/lib/api/with-api";
import { perPassAnswer } from "@/lib/predmkt/pass-clock";
import { listWhales } from "@/lib/predmkt/whales";

export const dynamic = "force-dynamic";

// GET /api/predmkt/whales – largest open positions with entry price and holder identity
export const GET = withApi(whalesEndpoint, ({ query }) => perPassAnswer(() => listWhales(query)));
