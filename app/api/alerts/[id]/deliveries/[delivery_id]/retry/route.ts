import { alertApi } from "@/lib/alerts/api";
import { retryDeliveryEndpoint } from "@/lib/api/endpoints/alerts";
import { withApi } from "@/lib/api/with-api";

export const dynamic = "force-dynamic";

// POST /api/alerts/{id}/deliveries/{delivery_id}/retry – attempt a failed or dead delivery again now
export const POST = withApi(retryDeliveryEndpoint, ({ client, params }) => alertApi.retry(client, params.id, params.delivery_id));
