import { openapiEndpoint } from "@/lib/api/endpoints/system";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { withApi } from "@/lib/api/with-api";

// GET /api/openapi.json – the OpenAPI 3.1 document, built from the endpoint contracts (no key needed)
// The document only changes with a deploy: build it once per process.
let document: ReturnType<typeof buildOpenApiDocument> | undefined;

export const GET = withApi(openapiEndpoint, async ({ headers }) => {
  headers.set("Cache-Control", "public, max-age=300");
  headers.set("Access-Control-Allow-Origin", "*");
  document ??= buildOpenApiDocument();
  return document;
});
