import { streamEndpoint } from "@/lib/api/endpoints/predmkt-stream";
import { withApi } from "@/lib/api/with-api";
import { streamEvents } from "@/lib/stream";

export const dynamic = "force-dynamic";

// GET /api/predmkt/stream – server-sent events: trades, ticks and abnormal trades as they are stored
export const GET = withApi(streamEndpoint, async ({ query, client, request }) => streamEvents(query, client, request));
