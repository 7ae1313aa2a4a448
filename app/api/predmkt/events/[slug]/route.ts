import { eventEndpoint } from "@/lib/api/endpoints/predmkt-sampled";
import { withApi } from "@/lib/api/with-api";
import { perPassAnswer } from "@/lib/predmkt/pass-clock";
import { getEvent } from "@/lib/predmkt/events";

export const dynamic = "force-dynamic";

// GET /api/predmkt/events/{slug} – one event with every market and current outcome probabilities
export const GET = withApi(eventEndpoint, ({ params }) => perPassAnswer(() => getEvent(params.slug)));
