import { z } from "zod";
import { defineEndpoint } from "./contract";
import { ApiError } from "./errors";
import { withApi } from "./with-api";

// Catch-all for unknown paths under /api (not part of the OpenAPI document). Under /api/predmkt and /api/oracle the
// gateway has already authenticated the caller, so a 404 there says nothing to an anonymous prober.
const unknownPath = defineEndpoint({
  method: "GET",
  path: "/api/{path}",
  summary: "Unknown path",
  tags: [],
  access: "public",
  response: z.never(),
});

const handler = withApi(unknownPath, async ({ request }) => {
  throw new ApiError("not_found", `No endpoint at ${request.nextUrl.pathname}. See /api/openapi.json.`);
});

export const notFoundRoutes = { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler, HEAD: handler };
