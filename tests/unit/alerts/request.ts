// Calls an alerts route handler as the gateway would pass it on: a request id and the signed gateway header for the
// given key and tier, with a JSON body.
import { randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import { signGatewayHeader } from "@/lib/auth/gateway";
import type { Tier } from "@/lib/auth/tiers";

type Handler = (req: NextRequest, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

interface Key {
  keyId: string;
  tier: Tier;
}

export function newKey(tier: Tier = "pro"): Key {
  return { keyId: randomUUID(), tier };
}

export async function call(
  handler: Handler,
  key: Key,
  method: string,
  path: string,
  options: { params?: Record<string, string>; body?: unknown; rawBody?: string } = {},
): Promise<{ status: number; body: Record<string, unknown> & { data?: unknown; errors?: { parameter: string; detail: string }[] } }> {
  const id = randomUUID();
  const text = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const request = new NextRequest(`http://localhost${path}`, {
    method,
    headers: {
      "content-type": "application/json",
      "x-request-id": id,
      "x-predmkt-gateway": signGatewayHeader({ keyId: key.keyId, tier: key.tier, via: "api_key" }, id),
    },
    ...(text === undefined ? {} : { body: text }),
  });
  const response = await handler(request, { params: Promise.resolve(options.params ?? {}) });
  const raw = await response.text();
  return { status: response.status, body: raw ? (JSON.parse(raw) as Record<string, unknown>) : {} };
}
