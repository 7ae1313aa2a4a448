import { keyRequestEndpoint } from "@/lib/api/endpoints/auth";
import { withFormRedirect } from "@/lib/api/form-redirect";
import { withApi } from "@/lib/api/with-api";
import { fileKeyRequest } from "@/lib/keys/intake";

export const dynamic = "force-dynamic";

// POST /api/auth/key-requests – ask the operator for an API key (no key needed); browser form posts get a 303 back
export const POST = withFormRedirect(
  { page: "/api-access", onSuccess: (body) => ({ ref: String(body.reference) }), omit: ["website"] },
  withApi(keyRequestEndpoint, async ({ request, body, headers }) => {
    headers.set("Cache-Control", "no-store");
    return fileKeyRequest(request.headers, body);
  }),
);
