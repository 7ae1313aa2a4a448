import { alertApi } from "@/lib/alerts/api";
import { createAlertEndpoint, listAlertsEndpoint } from "@/lib/api/endpoints/alerts";
import { withApi } from "@/lib/api/with-api";

export const dynamic = "force-dynamic";

// GET /api/alerts – the key's alert subscriptions
export const GET = withApi(listAlertsEndpoint, ({ client }) => alertApi.list(client));
// POST /api/alerts – create a subscription (201 with its signing secret)
export const POST = withApi(createAlertEndpoint, ({ client, body, headers }) => alertApi.create(client, body, headers));
