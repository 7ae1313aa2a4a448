import { alertApi } from "@/lib/alerts/api";
import { deleteAlertEndpoint, getAlertEndpoint, updateAlertEndpoint } from "@/lib/api/endpoints/alerts";
import { withApi } from "@/lib/api/with-api";

export const dynamic = "force-dynamic";

// GET /api/alerts/{id} – one subscription (another key's answers 404)
export const GET = withApi(getAlertEndpoint, ({ client, params }) => alertApi.get(client, params.id));
// PATCH /api/alerts/{id} – change name, url, rules or enabled
export const PATCH = withApi(updateAlertEndpoint, ({ client, params, body }) => alertApi.update(client, params.id, body));
// DELETE /api/alerts/{id} – delete it and its delivery log (204)
export const DELETE = withApi(deleteAlertEndpoint, ({ client, params }) => alertApi.remove(client, params.id));
