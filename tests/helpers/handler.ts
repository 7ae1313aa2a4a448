// Calling a route handler directly, as behind the gateway: the request carries a request id and the gateway's signed
// header for a "pro" API key, so withApi lets it through without a key lookup.
import { randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import { signGatewayHeader } from "@/lib/auth/gateway";

export type RouteHandler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** Calls `handler` for `path` (with its query) and route `params`; `headers` are added to the request's. */
export async function callHandler(
  handler: RouteHandler,
  path: string,
  params: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  const id = randomUUID();
  const request = new NextRequest(`http://localhost${path}`, {
    headers: { ...headers, "x-request-id": id, "x-predmkt-gateway": signGatewayHeader({ keyId: "test", tier: "pro", via: "api_key" }, id) },
  });
  return { id, response: await handler(request, { params: Promise.resolve(params) }) };
}

/** callHandler, with the answer's status, headers and JSON body. */
export async function callJson(handler: RouteHandler, path: string, params: Record<string, string> = {}) {
  const { response } = await callHandler(handler, path, params);
  return { status: response.status, headers: response.headers, body: await response.json() };
}
