import { alertApi } from "@/lib/alerts/api";
import { listDeliveriesEndpoint } from "@/lib/api/endpoints/alerts";
import { withApi } from "@/lib/api/with-api";

export const dynamic = "force-dynamic";

// GET /api/alerts/{id}/deliveries – the delivery log, newest first
export const GET = withApi(listDeliveriesEndpoint, ({ client, params, query }) => alertApi.deliveries(client, params.id, query));
