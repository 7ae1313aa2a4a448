// Contract of the dashboard's same-origin token route: how the public dashboard's browsers get credentials without
// ever holding an API key.
import { defineEndpoint } from "../contract";
import { TokenResponseSchema } from "./auth";

export const DASHBOARD_TOKEN_PER_IP_PER_MINUTE = 60;

export const dashboardTokenEndpoint = defineEndpoint({
  method: "GET",
  path: "/api/dashboard/token",
  summary: "Short-lived token for the public dashboard",
  description:
    "Used by this site's own dashboard pages and embeddable widgets; no key needed. Answers a JWT (HS256, 300 s) " +
    "minted for the dashboard's internal key and bound to the client address that asked for it, to pass as `?token=` " +
    "to the endpoints the dashboard reads. It is only the dashboard: refused from another address (401), refused " +
    "(403 `insufficient_scope`) for CSV, `/api/auth/*`, endpoints the pages do not call and `limit` > 100 or " +
    "`offset` > 10000, and limited per client address (an IPv6 client per /48) well below the starter tier. Same " +
    "flat shape as `POST /api/auth/token`; `Cache-Control: no-store`. Limited to " +
    `${DASHBOARD_TOKEN_PER_IP_PER_MINUTE} tokens per minute per client address (429 with Retry-After beyond). ` +
    "For your own applications, ask the operator for a key and use `POST /api/auth/token`.",
  tags: ["Authentication"],
  access: "public",
  response: TokenResponseSchema,
  errors: [429, 503],
});

export const endpoints = [dashboardTokenEndpoint];
