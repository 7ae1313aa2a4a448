import { alertApi } from "@/lib/alerts/api";
import { testAlertEndpoint } from "@/lib/api/endpoints/alerts";
import { withApi } from "@/lib/api/with-api";

export const dynamic = "force-dynamic";

// POST /api/alerts/{id}/test – queue one `test` event now
export const POST = withApi(testAlertEndpoint, ({ client, params }) => alertApi.test(client, params.id));
