import { eventsEndpoint } from "@/lib/api/endpoints/predmkt-sampled";
import { withApi } from "@/lib/api/with-api";
import { perPassAnswer } from "@/lib/predmkt/pass-clock";
import { listEvents } from "@/lib/predmkt/events";

export const dynamic = "force-dynamic";

// GET /api/predmkt/events – open events, filtered, searched, sorted and paged
export const GET = withApi(eventsEndpoint, ({ query }) => perPassAnswer(() => listEvents(query)));
