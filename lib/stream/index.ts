// The stream service behind GET /api/predmkt/stream: resolves the filters (404 for an unknown market or event),
// reads the client's cursor, and opens the stream.
import { ApiError, invalidParameter } from "@/lib/api/errors";
import { extractCredential } from "@/lib/auth/authenticate";
import type { GatewayClient } from "@/lib/auth/gateway";
import { clientAddress } from "@/lib/auth/client-address";
import { dashboardSlice } from "@/lib/auth/dashboard-scope";
import { verifiedTokenExpiry, verifiedTokenScope } from "@/lib/auth/jwt";
import { CONDITION_ID_PATTERN } from "@/lib/api/schemas";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { openStream, SSE_HEADERS } from "./sse";
import { decodeCursor, EVENT_NAME, type StreamTopic } from "./types";

export { STREAM_TOPICS, type StreamTopic } from "./types";

export interface StreamQuery {
  topics: StreamTopic[];
  min_usd: number;
  market?: string;
  event?: string;
  last_event_id?: string;
}

/**
 * `Last-Event-ID` (what EventSource sends on reconnect) wins over `?last_event_id=` (the URL's first cursor). A stream
 * opened with a short-lived token ends when the token expires: the client reconnects with a fresh one and its cursor.
 */
export async function streamEvents(query: StreamQuery, client: GatewayClient, request: Request): Promise<Response> {
  const { headers, signal } = request;
  // The gateway answers HEAD here with a 405 (proxy.ts); should one arrive anyway, it gets the headers and nothing is
  // opened — Next would run the GET handler and drop the body without cancelling it (docs/stream.md "Slots").
  if (request.method === "HEAD") return new Response(null, { status: 200, headers: SSE_HEADERS });
  const credential = client.via === "token" ? extractCredential(headers, new URL(request.url).searchParams) : null;
  const credentialExpiresAt = credential?.kind === "token" ? verifiedTokenExpiry(credential.value) : null;
  // Dashboard visitors share one key: each address streams within its own slice of it (lib/stream/limits.ts).
  const dashboard = credential?.kind === "token" && verifiedTokenScope(credential.value) === "dashboard";
  const header = headers.get("last-event-id");
  const parameter = header !== null && header.trim() !== "" ? "Last-Event-ID" : "last_event_id";
  const raw = parameter === "Last-Event-ID" ? header!.trim() : query.last_event_id;
  let cursor: bigint | null = null;
  if (raw !== undefined) {
    cursor = decodeCursor(raw);
    if (cursor === null) throw invalidParameter(parameter, "must be an id received from this stream");
  }
  const db = await getDb();
  let marketId: string | null = null;
  if (query.market) {
    const market = await db.market.findFirst({
      where: CONDITION_ID_PATTERN.test(query.market) ? { conditionId: query.market.toLowerCase() } : { id: query.market },
      select: { id: true },
    });
    if (!market) throw new ApiError("not_found", `No sampled market '${query.market}'.`);
    marketId = market.id;
  }
  if (query.event && !(await db.event.findUnique({ where: { slug: query.event }, select: { id: true } }))) {
    throw new ApiError("not_found", `No sampled event '${query.event}'.`);
  }
  return openStream({
    filter: { topics: query.topics.map((t) => EVENT_NAME[t]), minUsd: query.min_usd, marketId, eventSlug: query.event ?? null },
    keyId: client.keyId,
    tier: client.tier,
    cursor,
    signal,
    credentialExpiresAt,
    dashboardAddress: dashboard ? dashboardSlice(clientAddress(headers), env.DASHBOARD_IPV6_PREFIX) : null,
  });
}
