import { changesEndpoint } from "@/lib/api/endpoints/predmkt-sampled";
import { withApi } from "@/lib/api/with-api";
import { perPassAnswer } from "@/lib/predmkt/pass-clock";
import { eventChanges } from "@/lib/predmkt/movers";

export const dynamic = "force-dynamic";

// GET /api/predmkt/events/{slug}/changes – per-outcome probability change over a window
export const GET = withApi(changesEndpoint, ({ params, query }) => perPassAnswer(() => eventChanges(params.slug, query.window)));
