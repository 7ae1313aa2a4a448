import { alertApi } from "@/lib/alerts/api";
import { rotateAlertSecretEndpoint } from "@/lib/api/endpoints/alerts";
import { withApi } from "@/lib/api/with-api";

export const dynamic = "force-dynamic";

// POST /api/alerts/{id}/rotate-secret – a new signing secret, shown once
export const POST = withApi(rotateAlertSecretEndpoint, ({ client, params, headers }) => alertApi.rotateSecret(client, params.id, headers));
